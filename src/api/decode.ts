/**
 * Reading an answer's body: JSON refused when nested too deep (body.ts), then validated against the
 * operation's schema, a failure naming the JSON path of the first member that breaks the contract.
 */
import type * as z from 'zod';
import { passes } from '../lib/compiled.js';
import { jsonTooDeep, MAX_JSON_DEPTH } from './body.js';
import { ApiError } from '../contract/errors.js';
import type { RawResponse } from './fetch-like.js';
import { isRecord } from '../lib/is-record.js';
import {
  envelopeOf,
  formatJsonPath,
  HealthResponseSchema,
  ResponseMetaSchema,
  type HealthResponse,
  type ResponseMeta,
} from '../contract/schemas.js';

/**
 * Envelope schemas, built once per data schema: zod compiles a schema on first use, so a fresh one per
 * call costs every call.
 */
const envelopes = new WeakMap<z.ZodType, z.ZodType>();
export function envelopeSchema<T extends z.ZodType>(data: T): ReturnType<typeof envelopeOf<T>> {
  let schema = envelopes.get(data);
  if (!schema) envelopes.set(data, (schema = envelopeOf(data)));
  return schema as ReturnType<typeof envelopeOf<T>>;
}

export function contractError(path: string, jsonPath: string, problem: string, cause?: unknown): ApiError {
  return new ApiError(
    'upstream_contract',
    `upstream_contract: GET ${path} answered with a body that breaks the API contract at ${jsonPath}: ${problem}`,
    { path, jsonPath, cause },
  );
}

/** The parsed body, refused when nested too deep to handle safely (body.ts). */
export function parseJson(raw: RawResponse, path: string): unknown {
  if (jsonTooDeep(raw.body)) {
    throw new ApiError(
      'upstream_contract',
      `upstream_contract: GET ${path} answered HTTP ${raw.status} with JSON nested deeper than ${MAX_JSON_DEPTH} levels; refused rather than risk the stack`,
      { status: raw.status, path },
    );
  }
  try {
    return JSON.parse(raw.body);
  } catch (error) {
    // Only a body that failed to parse needs its type, to say what it was instead.
    const type = raw.headers.get('content-type') ?? '';
    const hint =
      raw.body.trim() === ''
        ? 'the body is empty'
        : /json/i.test(type)
          ? 'the JSON is malformed or truncated'
          : `the body is not JSON (content-type ${type || 'missing'})`;
    throw new ApiError('upstream_contract', `upstream_contract: GET ${path} answered HTTP ${raw.status}, but ${hint}`, {
      status: raw.status,
      path,
      cause: error,
    });
  }
}

export function validate<T extends z.ZodType>(schema: T, value: unknown, path: string, prefix: string): z.output<T> {
  if (passes(schema, value)) return value;
  // Invalid: the ordinary parse names the first issue and its path, exactly as it always has.
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const jsonPath = formatJsonPath([...(prefix ? [prefix] : []), ...issue.path]);
  const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : '';
  throw contractError(path, jsonPath, `${issue.message}${more}`, parsed.error);
}

/** Health's body, 200 or 503: the health response bare, or wrapped in the success envelope. */
export function decodeHealth(raw: RawResponse, path: string): { data: HealthResponse; meta: ResponseMeta } {
  const body = parseJson(raw, path);
  const wrapped = isRecord(body) && body.success === true && isRecord(body.data) && 'probes' in body.data;
  if (!wrapped) return { data: validate(HealthResponseSchema, body, path, ''), meta: {} };
  return {
    data: validate(HealthResponseSchema, body.data, path, 'data'),
    meta: validate(ResponseMetaSchema, body.meta ?? {}, path, 'meta'),
  };
}
