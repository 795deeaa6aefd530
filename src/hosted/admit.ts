/**
 * Which tools of a hosted list are offered beside ours, and why each other one is not. A tool is
 * admitted when its name follows the spec's rules and is not one of ours, it is annotated read-only,
 * and its schemas are small, shallow JSON Schemas of an object; its title and description are cleaned
 * and cut as upstream text, the description quoted as the deployment's words.
 */
import * as z from 'zod';
import type { Tool } from '@modelcontextprotocol/server';
import { isRecord } from '../lib/is-record.js';
import { escapeInvisible, oneLine, quote, sanitizeJson } from '../lib/text.js';
import { HOSTED_CAPS } from './caps.js';

/** A hosted tool as this server offers it: its cleaned listing and the validators read from its schemas. */
export interface HostedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Tool['inputSchema'];
  /** Not relisted (tools-list.ts says why): read for `output`, and kept so that a change of it is a change of the tool. */
  outputSchema?: Tool['outputSchema'];
  /** The arguments' validator, read from inputSchema. */
  input: z.ZodType;
  /** structuredContent's validator, when the tool declares an outputSchema that could be read. */
  output?: z.ZodType;
}

interface SkippedTool {
  /** As listed, cleaned and cut: a hostile name is data too. */
  name: string;
  reason: string;
}

/** The spec's tool-name rules (2025-11-25): 1 to 128 of ASCII letters, digits, `_`, `-` and `.`. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** At most this many skipped tools are named one by one; the rest are counted. */
const NAMED_SKIPS = 25;

/** Depth of a JSON value, counted without recursion and given up past `limit`. */
function depthOver(value: unknown, limit: number): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > limit) return true;
    const next: unknown[] = [];
    for (const item of level)
      if (item !== null && typeof item === 'object') next.push(...Object.values(item as object));
    level = next;
  }
  return false;
}

/** Why a schema is refused, or undefined with the schema cleaned (every string sanitized). */
function readSchema(value: unknown, what: string): { schema: Record<string, unknown> } | { refusal: string } {
  if (!isRecord(value)) return { refusal: `${what} is not a JSON object` };
  if (value.type !== 'object') return { refusal: `${what} does not describe an object (type is not "object")` };
  if (depthOver(value, HOSTED_CAPS.schemaDepth))
    return { refusal: `${what} is nested deeper than ${HOSTED_CAPS.schemaDepth} levels` };
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes > HOSTED_CAPS.schemaBytes)
    return { refusal: `${what} is ${bytes} bytes, over the ${HOSTED_CAPS.schemaBytes}-byte cap` };
  return { schema: capStrings(sanitizeJson(value)) as Record<string, unknown> };
}

/** Every string in a schema (descriptions, titles, enum values) cut to the description cap. */
function capStrings(value: unknown): unknown {
  if (typeof value === 'string')
    return value.length > HOSTED_CAPS.descriptionChars ? `${value.slice(0, HOSTED_CAPS.descriptionChars - 1)}…` : value;
  if (Array.isArray(value)) return value.map(capStrings);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capStrings(v)]));
  return value;
}

function validatorOf(schema: Record<string, unknown>, lazy = false): z.ZodType | string {
  // Converted at first use for a list read before (the build's, an earlier run's): each conversion
  // costs a start milliseconds, and the schemas were read when that list was.
  if (lazy) return z.lazy(() => orRefusal(validatorOf(schema)));
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    return oneLine(error instanceof Error ? error.message : String(error), 120);
  }
}

/** A validator, or one that refuses every value saying why the schema could not be read. */
const orRefusal = (validator: z.ZodType | string): z.ZodType =>
  typeof validator === 'string' ? z.never({ error: `the hosted schema could not be read: ${validator}` }) : validator;

/** A name as health shows it: cleaned, escaped and cut. */
const shownName = (name: unknown) =>
  typeof name === 'string' ? oneLine(escapeInvisible(name), 80) || '(empty)' : `(${typeof name})`;

type Verdict = { tool: HostedTool } | { reason: string };

function admitOne(raw: unknown, ours: ReadonlySet<string>, seen: Set<string>, lazy: boolean): Verdict {
  if (!isRecord(raw)) return { reason: 'not a tool object' };
  const { name } = raw;
  if (typeof name !== 'string' || !TOOL_NAME.test(name))
    return { reason: "its name breaks the spec's tool-name rules (1 to 128 of A-Z a-z 0-9 _ - .)" };
  if (ours.has(name)) return { reason: 'our own tool of that name wins' };
  if (seen.has(name)) return { reason: 'listed twice; the first is kept' };
  const annotations = isRecord(raw.annotations) ? raw.annotations : {};
  if (annotations.readOnlyHint !== true) return { reason: 'not annotated readOnlyHint: true' };
  const input = readSchema(raw.inputSchema, 'inputSchema');
  if ('refusal' in input) return { reason: input.refusal };
  const inputValidator = validatorOf(input.schema, lazy);
  if (typeof inputValidator === 'string') return { reason: `inputSchema could not be read: ${inputValidator}` };
  // An output schema that cannot be read costs the tool its structuredContent, not its place.
  const output = raw.outputSchema === undefined ? undefined : readSchema(raw.outputSchema, 'outputSchema');
  const outputValidator = output && 'schema' in output ? validatorOf(output.schema, lazy) : undefined;
  const rawTitle = typeof raw.title === 'string' ? raw.title : isRecord(raw.annotations) ? raw.annotations.title : '';
  const title = oneLine(escapeInvisible(typeof rawTitle === 'string' ? rawTitle : ''), HOSTED_CAPS.titleChars) || name;
  const text = typeof raw.description === 'string' ? raw.description : '';
  const description = `Deployment's words: ${quote(escapeInvisible(text), HOSTED_CAPS.descriptionChars)}`;
  const tool: HostedTool = {
    name,
    title,
    description,
    inputSchema: input.schema as Tool['inputSchema'],
    input: inputValidator,
  };
  if (output && 'schema' in output && outputValidator !== undefined && typeof outputValidator !== 'string') {
    tool.outputSchema = output.schema as Tool['outputSchema'];
    tool.output = outputValidator;
  }
  return { tool };
}

/** The model-facing size of a listing: what a client passes on to its model. */
export function listingBytes(tool: Pick<HostedTool, 'name' | 'title' | 'description' | 'inputSchema'>): number {
  const { name, title, description, inputSchema } = tool;
  return Buffer.byteLength(JSON.stringify({ name, title, description, inputSchema }));
}

/**
 * Sorts a hosted list into the tools offered and the ones skipped, each with its reason; `lazy` for
 * a list read before, whose validators are made at first use (validatorOf).
 */
export function admitTools(listed: readonly unknown[], ours: ReadonlySet<string>, lazy = false) {
  const tools: HostedTool[] = [];
  const skipped: SkippedTool[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  let unnamed = 0;
  const skip = (raw: unknown, reason: string) => {
    if (skipped.length < NAMED_SKIPS) skipped.push({ name: shownName(isRecord(raw) ? raw.name : raw), reason });
    else unnamed++;
  };
  for (const raw of listed) {
    // Past the cap nothing more is read: a list of thousands costs no more than one at the cap.
    if (tools.length >= HOSTED_CAPS.tools) {
      skip(raw, `over the cap of ${HOSTED_CAPS.tools} bridged tools`);
      continue;
    }
    const verdict = admitOne(raw, ours, seen, lazy);
    if ('reason' in verdict) {
      skip(raw, verdict.reason);
      continue;
    }
    const { tool } = verdict;
    seen.add(tool.name);
    const size = listingBytes(tool);
    if (bytes + size > HOSTED_CAPS.listBytes) {
      skip(raw, `the bridged tools' list would pass ${HOSTED_CAPS.listBytes} bytes`);
      continue;
    }
    bytes += size;
    tools.push(tool);
  }
  if (unnamed > 0) skipped.push({ name: `(${unnamed} more)`, reason: 'skipped too; not named one by one' });
  return { tools, skipped };
}

export type Admission = ReturnType<typeof admitTools>;
