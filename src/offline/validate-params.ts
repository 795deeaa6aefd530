/**
 * The 400 rules: parses a query string against an operation's parameter table. Every message names
 * the parameter, the rule and the value received: that text is all a model calling through the MCP
 * layer will see. Parameters an operation does not define are ignored, as the hosted API does.
 */
import type { ParamSpec } from './params.js';

type ParamValue = string | number | boolean | string[];
export type ParamValues = Record<string, ParamValue | undefined>;

export type ParseResult = { ok: true; values: ParamValues } | { ok: false; parameter: string; message: string };

const INTEGER = /^\d+$/;
const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

function shown(raw: string): string {
  return JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
}

function lengthRule(spec: { minLength?: number; maxLength?: number }): string {
  const { minLength, maxLength } = spec;
  if (minLength !== undefined && maxLength !== undefined)
    return minLength === maxLength ? `exactly ${minLength} characters` : `${minLength} to ${maxLength} characters long`;
  if (maxLength !== undefined) return `at most ${maxLength} characters long`;
  return minLength === 1 ? 'non-empty' : `at least ${minLength} characters long`;
}

function parseOne(spec: ParamSpec, raw: string): { value: ParamValue } | { message: string } {
  const fail = (rule: string) => ({ message: `${spec.name} must be ${rule} (got ${shown(raw)})` });
  switch (spec.type) {
    case 'boolean':
      if (raw === 'true') return { value: true };
      if (raw === 'false') return { value: false };
      return fail('true or false');
    case 'integer': {
      const value = Number(raw);
      const rule =
        spec.maximum === undefined
          ? `an integer of at least ${spec.minimum}`
          : `an integer from ${spec.minimum} to ${spec.maximum}`;
      if (
        !INTEGER.test(raw) ||
        !Number.isSafeInteger(value) ||
        value < spec.minimum ||
        (spec.maximum !== undefined && value > spec.maximum)
      )
        return fail(rule);
      return { value };
    }
    case 'number': {
      const value = Number(raw);
      if (!DECIMAL.test(raw) || !Number.isFinite(value) || value < spec.minimum)
        return fail(`a number of at least ${spec.minimum}`);
      return { value };
    }
    case 'string': {
      if (spec.enum) return spec.enum.includes(raw) ? { value: raw } : fail(`one of ${spec.enum.join(', ')}`);
      const length = [...raw].length;
      const lengthOk =
        (spec.minLength === undefined || length >= spec.minLength) &&
        (spec.maxLength === undefined || length <= spec.maxLength);
      if (spec.pattern && spec.patternHint && (!lengthOk || !spec.pattern.test(raw))) return fail(spec.patternHint);
      if (!lengthOk) return fail(lengthRule(spec));
      if (spec.list) {
        const items = raw
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== '');
        return items.length > 0 ? { value: items } : fail('a comma-separated list with at least one name');
      }
      return { value: raw };
    }
  }
}

export function parseParams(search: URLSearchParams, specs: readonly ParamSpec[]): ParseResult {
  const values: ParamValues = {};
  for (const spec of specs) {
    const raw = search.get(spec.name);
    if (raw === null) {
      values[spec.name] = 'default' in spec ? spec.default : undefined;
      continue;
    }
    const parsed = parseOne(spec, raw);
    if ('message' in parsed) return { ok: false, parameter: spec.name, message: parsed.message };
    values[spec.name] = parsed.value;
  }
  return { ok: true, values };
}
