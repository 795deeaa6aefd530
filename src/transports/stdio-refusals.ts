/**
 * The answers to a stdin line that is no JSON-RPC message, so a client is never left waiting for
 * one that cannot come: -32700 when it is not JSON, -32600 when it is JSON but no message (a batch
 * included, each of its requests answered) or too long to read, with the request's id when one can
 * be read. The SDK's
 * stdio transport drops such lines with an onerror; this is what it lacks.
 */
import { ProtocolErrorCode, type RequestId } from '@modelcontextprotocol/server';
import { isRecord } from '../lib/is-record.js';
import { rpcError, type ErrorAnswer } from '../lib/http-server.js';

/** How far into a line that is not JSON an id is looked for: it comes near the start. */
const ID_SCAN_CHARS = 200;

const isRequestId = (value: unknown): value is RequestId => typeof value === 'string' || typeof value === 'number';

/** The id of a line that is not (whole) JSON, when it can be read, as a client would match it. */
function recoverId(line: string): RequestId | null {
  const match = /"id"\s*:\s*(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.){0,100}")/.exec(line.slice(0, ID_SCAN_CHARS));
  if (!match) return null;
  try {
    const id: unknown = JSON.parse(match[1]!);
    return isRequestId(id) ? id : null;
  } catch {
    return null;
  }
}

export type Refusal = { answers: ErrorAnswer[]; note: string };

/** A line skipped unread for its length (stdio-lines.ts): its id cannot be known. */
export function oversized(maxLineBytes: number, length: number): Refusal {
  const message = `Invalid Request: a message of more than ${maxLineBytes} bytes cannot be read`;
  return {
    answers: [rpcError(message, null, ProtocolErrorCode.InvalidRequest)],
    note: `dropped a message of ${length} bytes from stdin, over the ${maxLineBytes}-byte limit`,
  };
}

export function notJson(line: string): Refusal {
  const answer = rpcError('Parse error: the line is not valid JSON', recoverId(line), ProtocolErrorCode.ParseError);
  return { answers: [answer], note: 'answered a line that is not JSON with -32700' };
}

/** JSON that is no JSON-RPC message by the SDK's guards. */
export function notAMessage(parsed: unknown): Refusal {
  const note = 'answered a line that is not a JSON-RPC message with -32600';
  if (Array.isArray(parsed)) {
    // MCP has no batches: each request in one is answered, so none is left waiting.
    const ids = parsed.filter((item) => isRecord(item) && isRequestId(item.id)).map((item) => item.id as RequestId);
    const message = 'Invalid Request: JSON-RPC batches are not supported; send one message per line';
    return {
      answers: (ids.length > 0 ? ids : [null]).map((id) => rpcError(message, id, ProtocolErrorCode.InvalidRequest)),
      note,
    };
  }
  const id = isRecord(parsed) && isRequestId(parsed.id) ? parsed.id : null;
  const why =
    id !== null && !Number.isSafeInteger(id) && typeof id !== 'string'
      ? 'an id must be a string or an integer'
      : 'a message has "jsonrpc": "2.0" and a method, or an id with a result or an error';
  const message = `Invalid Request: not a JSON-RPC 2.0 message (${why})`;
  return { answers: [rpcError(message, id, ProtocolErrorCode.InvalidRequest)], note };
}
