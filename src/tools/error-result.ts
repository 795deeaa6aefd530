/**
 * Every failure a tool call ends in becomes one `isError` result here: its stable kind first, the
 * message on one line, and a recovery hint, the only thing the model has to work with.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ApiError, internalError, stripKind, type ErrorKind } from '../contract/errors.js';
import { escapeInvisible, oneLine } from '../lib/text.js';
import type { CallRecord } from '../obs/call-record.js';
import type { AnyTool, FailureNote, ToolContext } from './define.js';

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
