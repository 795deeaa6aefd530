/**
 * Reads a request body with a hard size bound. The declared Content-Length is checked before a
 * byte is read, and the bytes that actually arrive are counted too, because a chunked body
 * declares nothing and a declared length can understate.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, writeJson } from './http-server.js';

export type BodyResult = { ok: true; bytes: Buffer } | { ok: false; reason: 'too_large' | 'aborted' };

export function readRequestBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  // Over the limit by its declared length alone: nothing need be read.
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.resolve({ ok: false, reason: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('aborted', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) finish({ ok: false, reason: 'too_large' });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ ok: true, bytes: Buffer.concat(chunks) });
    const onAbort = () => finish({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('aborted', onAbort);
  });
}

/** After a refusal (413, 401), how much of the unread body is read and thrown away, in body limits. */
const DRAIN_AFTER_413_LIMITS = 4;

/**
 * Answers a request whose body is not read (413, or a caller refused before any work: 401, 403),
 * closing the connection unless `keepAlive`. Closing a socket whose input is unread resets it, and a
 * client still writing then gets EPIPE or ECONNRESET, often before it has read the answer; so the
 * whole answer is written at once (its length declared) and the response ended only once the body
 * has come in and been thrown away. A client that sends more than DRAIN_AFTER_413_LIMITS times
 * `limit` after the refusal, or is still sending `drainMs` after it, is cut off.
 */
export function refuseUnread(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  answer: unknown,
  headers: Record<string, string>,
  { limit, drainMs, keepAlive = false }: { limit: number; drainMs: number; keepAlive?: boolean },
): void {
  // A body within bounds is read to its end, after which the connection can serve the next request.
  const all = keepAlive ? headers : { ...headers, connection: 'close' };
  if (req.complete) return sendJson(res, status, answer, all);
  if (!writeJson(res, status, answer, all)) return;
  let discarded = 0;
  const stop = (how: () => void) => () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', ended);
    how();
  };
  const ended = stop(() => res.end());
  const cutOff = stop(() => req.socket.destroy());
  const timer = setTimeout(cutOff, drainMs).unref();
  const onData = (chunk: Buffer) => {
    discarded += chunk.byteLength;
    if (discarded > DRAIN_AFTER_413_LIMITS * limit) cutOff();
  };
  req.on('data', onData);
  req.once('end', ended);
  req.once('close', () => clearTimeout(timer));
  req.resume();
}
