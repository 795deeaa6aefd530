/**
 * Small writers for the HTTP server's own answers. Every refusal carries a JSON-RPC error body (id
 * null unless the request's was read), the shape MCP clients already parse for transport errors,
 * so a 403 or 413 reads the same as the SDK's own 400s and 406s.
 */
import type { ServerResponse } from 'node:http';
import type { RequestId } from '@modelcontextprotocol/server';
import { rpcError } from './server-error.js';

export type Headers = Record<string, string>;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Headers = {}): void {
  if (writeJson(res, status, body, headers)) res.end();
}

/**
 * Writes a whole JSON answer without ending the response: its length is declared, so a client
 * has all of it as soon as the bytes arrive, while the connection stays open until `res.end()`.
 * False when the head had already gone out (the response is destroyed instead).
 */
export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Headers = {}): boolean {
  if (res.headersSent) {
    res.destroy();
    return false;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.write(text);
  return true;
}

export function sendRpcError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Headers = {},
  id: RequestId | null = null,
): void {
  sendJson(res, status, rpcError(message, id), headers);
}
