/**
 * Reads a request body with a hard size bound. The declared Content-Length is checked before a
 * byte is read, and the bytes that actually arrive are counted too, because a chunked body
 * declares nothing and a declared length can understate.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendRpcError } from './http-reply.js';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too_large' } | { ok: false; reason: 'aborted' };

/** True when the declared length alone is over the limit (so nothing need be read). */
export function declaredTooLarge(req: IncomingMessage, limit: number): boolean {
  const declared = req.headers['content-length'];
  return declared !== undefined && Number(declared) > limit;
}

export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  if (declaredTooLarge(req, limit)) return Promise.resolve({ ok: false, reason: 'too_large' });
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
    const onEnd = () => finish({ ok: true, text: Buffer.concat(chunks).toString('utf8') });
    const onAbort = () => finish({ ok: false, reason: 'aborted' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('aborted', onAbort);
  });
}

/**
 * Answers 413 and closes the connection. The rest of the body is discarded rather than left
 * unread (closing a socket with unread input resets it, and the client might never see the 413);
 * a client that keeps sending anyway is cut off a second after the answer.
 */
export function refuseTooLarge(req: IncomingMessage, res: ServerResponse, limit: number): void {
  req.resume();
  res.on('finish', () => {
    if (!req.complete) setTimeout(() => req.socket.destroy(), 1_000).unref();
  });
  sendRpcError(res, 413, `Payload Too Large: the request body must not exceed ${limit} bytes`, { connection: 'close' });
}
