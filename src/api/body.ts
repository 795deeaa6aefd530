/**
 * What a response body must pass before the client uses it: the size cap, checked against
 * Content-Length and then as the body streams in (never holding more than the cap), and a nesting
 * guard before JSON.parse. Data nested thousands deep parses, but every later step (validation,
 * rendering, the transport's JSON.stringify) recurses through it and overflows the stack.
 */
import { ApiError } from '../contract/errors.js';
import type { HttpAnswer } from './fetch-like.js';

export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
export const MAX_JSON_DEPTH = 64;

/** undici's code for a body past `maxResponseSize` (as sent) or the decompress interceptor's `maxSize` (decoded). */
const UNDICI_OVER_SIZE = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';

/**
 * Reads a body as UTF-8 text (as TextDecoder reads it: a BOM dropped, malformed bytes replaced),
 * refusing it when Content-Length or the bytes read pass `maxBytes`. On refusal the body is
 * cancelled, which ends its request.
 */
export async function readAnswerBody(answer: HttpAnswer, maxBytes: number, path: string): Promise<string> {
  const declared = Number(answer.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    cancel(answer.body);
    throw bodyTooLarge(answer.status, path, maxBytes, declared);
  }
  if (!answer.body) return '';
  const decoder = new TextDecoder();
  let total = 0;
  let text = '';
  try {
    // Leaving the loop early (the throw below) cancels the body.
    for await (const chunk of answer.body) {
      total += chunk.byteLength;
      if (total > maxBytes) throw bodyTooLarge(answer.status, path, maxBytes);
      text += decoder.decode(chunk, { stream: true });
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === UNDICI_OVER_SIZE) throw bodyTooLarge(answer.status, path, maxBytes);
    throw error;
  }
  return text + decoder.decode();
}

function cancel(body: HttpAnswer['body']): void {
  const stream = body as { cancel?: () => Promise<void>; destroy?: () => void } | null;
  if (stream?.destroy) stream.destroy();
  else stream?.cancel?.().catch(() => {}); // nothing to report: the body was refused already
}

/** The refusal of a body over the cap: by its Content-Length (`declared`), or as read. */
function bodyTooLarge(status: number, path: string, maxBytes: number, declared?: number): ApiError {
  const [size, how] =
    declared === undefined
      ? [`more than ${formatBytes(maxBytes)}`, 'reading stopped at the cap and the body was discarded']
      : [`${formatBytes(declared)} (Content-Length)`, 'refused without reading it'];
  return new ApiError(
    'upstream_contract',
    `upstream_contract: the response to ${path} is ${size}, over the ${formatBytes(maxBytes)} cap; ${how}`,
    { status, path },
  );
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** True when brackets outside strings nest deeper than `max` in `text` (linear; strings are skipped with indexOf). */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Jump to the closing quote: one not preceded by an odd run of backslashes.
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end === -1) return false; // unterminated: JSON.parse reports it
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        i = end;
        if (slashes % 2 === 0) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}
