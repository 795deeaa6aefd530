/**
 * What our node:http servers (the MCP server, the offline API, metrics) share: binding and naming
 * their address, and their own answers. The JSON-RPC error answers this server writes itself, when it refuses a line or a request before
 * the SDK sees it (HTTP: a limit, a guard or shutdown; stdio: a line that is no message, shutdown,
 * or no answer in time), and small writers for the HTTP server's own answers. Every HTTP refusal
 * carries such a body (id null unless the request's was read), the shape MCP clients already parse
 * for transport errors, so a 403 or 413 reads the same as the SDK's own 400s and 406s.
 * SERVER_ERROR is JSON-RPC's implementation-defined "server error" code, as the SDK's own HTTP
 * refusals use it; the SDK exports no name for it.
 */
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JSONRPC_VERSION, type JSONRPCErrorResponse, type RequestId } from '@modelcontextprotocol/server';

const SERVER_ERROR = -32000;

/** JSON-RPC 2.0 answers with a null id when the request's id cannot be read; the SDK's type has no null. */
export type ErrorAnswer = Omit<JSONRPCErrorResponse, 'id'> & { id: RequestId | null };

export function rpcError(message: string, id: RequestId | null = null, code = SERVER_ERROR): ErrorAnswer {
  return { jsonrpc: JSONRPC_VERSION, error: { code, message }, id };
}

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

/** Resolves with the port bound (the one asked for, or the ephemeral one given for 0); rejects when binding fails. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** The bracketed form URL and Host headers use for IPv6 literals. */
export function bracketed(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
