/**
 * The one boundary between a tool call and its result: validates arguments (nothing is sent when
 * they are bad), makes the call, renders text, attaches structuredContent, and turns every thrown
 * error into an `isError` result whose text starts with its stable kind and a recovery hint.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { passes } from '../lib/compiled.js';
import { ApiError, internalError, type ErrorKind } from '../contract/errors.js';
import { ResponseMetaSchema } from '../contract/schemas.js';
import { fictionNotice, renderProvenance } from '../render/provenance-line.js';
import { escapeInvisible, oneLine } from '../lib/text.js';
import { newCallRecord, type CallRecord } from '../obs/call-record.js';
import { isHostedTool, type AnyTool, type ExposedTool, type FailureNote, type ToolContext } from './define.js';
import { runHostedTool } from './run-hosted.js';
import { describeIssues } from './issues.js';
import { buildProvenance, ProvenanceSchema } from '../api/provenance-record.js';

/** For arguments refused here, before any request. */
export const LOCAL_ARGUMENT_HINT = 'Fix the argument named above and call again; nothing was sent to the API.';

const HINTS: Record<ErrorKind, (error: ApiError) => string> = {
  invalid_argument: (e) =>
    e.status === undefined
      ? LOCAL_ARGUMENT_HINT
      : 'The API refused these parameters; check them against the tool input schema and call again.',
  not_found: () => 'The record is absent or no longer active; use search_jobs (or list_jobs) for current ids.',
  rate_limited: (e) =>
    `Wait ${e.retryAfterS ?? 'a few'} s before calling this API again; calling sooner will not help.`,
  upstream_unavailable: () =>
    'The API is temporarily unavailable; try again in a minute (check_api_health shows which dependency is failing).',
  upstream_contract: () =>
    'The API sent data that breaks its published contract; this is not caused by your arguments. Try again later.',
  not_deployed: () =>
    'This deployment of the API does not offer that operation, and calling again will not change that; discover_api shows what it does offer and which tools serve it.',
  timeout: () => 'The API did not answer in time; retry once, perhaps with narrower filters or a smaller per_page.',
  network: () =>
    'The connection to the API failed (unreachable, or dropped mid-answer); retry once, then check the base URL, proxy settings and connectivity.',
  internal: () => INTERNAL_HINT,
  cancelled: () => 'The call was cancelled before it finished.',
  upstream_tool_error: () =>
    'The hosted tool refused or failed on its own terms (its words are quoted above); fix what they name, or try again later.',
};

const INTERNAL_HINT =
  'This is a defect of service-mcp, not of your arguments, the API or the network, and calling again will not help; report it with the tool name, the arguments and this text.';

/** Longest error line: it quotes upstream words (the error envelope's message), which are not ours to bound. */
const MAX_ERROR_CHARS = 1_000;

/**
 * The error result of `kind`, with `record.error` set to what it says (its kind and its first
 * line), so that nothing reporting on the call has to read the text back. `note`, when the tool can
 * say more: whose problem it is (before the message) and lines after the hint.
 */
export function errorResult(
  kind: ErrorKind,
  message: string,
  hint: string,
  record?: CallRecord,
  note?: FailureNote,
): CallToolResult {
  // One line, and nothing invisible: a character no one can see is written as its escape, so an id
  // that failed because of one says why (cleaned away, it would read as the id that exists).
  const said = note ? `${note.side}: ${stripKind(message, kind)}` : message;
  const clean = oneLine(escapeInvisible(said), MAX_ERROR_CHARS);
  const body = clean.startsWith(`${kind}:`) ? clean : `${kind}: ${clean}`;
  const result: CallToolResult = {
    content: [{ type: 'text', text: `${body}\nHint: ${hint}${note ? `\n${note.more}` : ''}` }],
    isError: true,
  };
  if (record) {
    record.error = { kind, message: body };
    record.result = result;
  }
  return result;
}

export function toErrorResult(
  error: unknown,
  tool?: AnyTool,
  record?: CallRecord,
  context?: ToolContext,
): CallToolResult {
  const note = (kind: ErrorKind) => (context ? tool?.failed?.(kind, context) : undefined);
  if (error instanceof ApiError) {
    const message =
      error.kind === 'rate_limited' && error.retryAfterS !== undefined
        ? `${stripKind(error.message, error.kind)} (retry after ${error.retryAfterS} s)`
        : error.message;
    const hint = error.hint ?? tool?.hints?.[error.kind] ?? HINTS[error.kind](error);
    return errorResult(error.kind, message, hint, record, note(error.kind));
  }
  // A bug of ours must not take the process down or pass for an API answer: say so plainly.
  const defect = internalError(tool ? `the tool ${tool.name}` : 'the call', error);
  return errorResult('internal', defect.message, INTERNAL_HINT, record, note('internal'));
}

/** Drops a leading kind, also as words ("rate limited: "), so the text never reads "rate_limited: rate limited: …". */
function stripKind(message: string, kind: ErrorKind): string {
  return message.replace(new RegExp(`^(?:[a-z_]+|${kind.replace(/_/g, ' ')}): `), '');
}

/** The schema of every tool's structuredContent. */
export function outputSchemaOf(tool: AnyTool) {
  return z.object({
    data: tool.data,
    meta: ResponseMetaSchema,
    provenance: ProvenanceSchema,
    ...(tool.extra ? { [tool.extra.key]: tool.extra.schema } : {}),
    notices: z.array(z.string()).optional(),
  });
}

function acceptedArguments(tool: AnyTool): string[] {
  return Object.keys(tool.input.shape as Record<string, unknown>);
}

/** Validates the raw arguments; on failure, the error result (and no request). */
function parseArguments(
  tool: AnyTool,
  raw: unknown,
  record: CallRecord,
): { ok: true; args: unknown } | { ok: false; result: CallToolResult } {
  // Input schemas are strict objects without transforms or defaults: valid arguments are their own parse result.
  const args = raw ?? {};
  if (passes(tool.input, args)) return { ok: true, args };
  const parsed = tool.input.safeParse(args, { reportInput: true });
  if (parsed.success) return { ok: true, args: parsed.data };
  return {
    ok: false,
    result: errorResult(
      'invalid_argument',
      describeIssues(parsed.error.issues, acceptedArguments(tool)),
      LOCAL_ARGUMENT_HINT,
      record,
    ),
  };
}

/** Tool calls of this process running right now (every surface passes through runTool). */
let running = 0;
export const callsInFlight = (): number => running;

/** Counts `work` among the calls in flight while it runs. */
export async function counted<T>(work: () => Promise<T>): Promise<T> {
  running++;
  try {
    return await work();
  } finally {
    running--;
  }
}

/**
 * Runs one call, of ours or of a bridged tool (run-hosted.ts), filling in `record` as it goes (the
 * caller's, to read once the call is done): the boundary every surface calls.
 */
export function runTool(
  tool: ExposedTool,
  rawArgs: unknown,
  context: ToolContext,
  record: CallRecord = newCallRecord(tool.name),
): Promise<CallToolResult> {
  return isHostedTool(tool)
    ? runHostedTool(tool, rawArgs, context, record)
    : runOwnTool(tool, rawArgs, context, record);
}

async function runOwnTool(
  tool: AnyTool,
  rawArgs: unknown,
  context: ToolContext,
  record: CallRecord,
): Promise<CallToolResult> {
  const parsed = parseArguments(tool, rawArgs, record);
  record.arguments = parsed.ok ? 'valid' : 'invalid';
  if (!parsed.ok) return parsed.result;
  running++;
  try {
    const result = await tool.call(parsed.args, { ...context, log: record });
    const provenance = buildProvenance(result, context.mode, tool.freshness?.(result.data));
    // Fiction is said first, before any figure, and in the same words in structuredContent.notices.
    const fiction = fictionNotice(provenance);
    const notices = fiction ? [fiction] : [];
    const body = `${tool.render(result.data, parsed.args, result)}\n${renderProvenance(provenance)}`;
    const text = fiction ? `${fiction}\n${body}` : body;
    return (record.result = {
      content: [{ type: 'text', text }],
      structuredContent: {
        data: result.data,
        meta: result.meta,
        provenance,
        ...(tool.extra ? { [tool.extra.key]: tool.extra.build(result.data, result) } : {}),
        ...(notices.length > 0 ? { notices } : {}),
      },
    });
  } catch (error) {
    return toErrorResult(error, tool, record, context);
  } finally {
    running--;
  }
}
