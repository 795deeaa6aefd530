/**
 * HTTP-mode harness: spawns the built binary's `serve --http --port 0`, reads the listening line
 * it prints, and connects the SDK's real Streamable HTTP client. Raw requests go through
 * node:http, because fetch refuses to forge a Host header.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BIN, cleanEnv, closedPort, ROOT } from './helpers.js';

export interface HttpServerProcess {
  /** The MCP endpoint as printed, e.g. http://127.0.0.1:40123/mcp. */
  url: string;
  /** http://127.0.0.1:port */
  origin: string;
  port: number;
  process: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const LISTENING = /^service-mcp HTTP listening on (http:\/\/\S+:(\d+)\/mcp)$/m;

/** `service-mcp serve --http --port 0 <args>`, resolved once it prints its listening line; `nodeArgs` go to node itself. */
export function startHttpServer(
  args: string[] = [],
  env: Record<string, string> = cleanEnv(),
  nodeArgs: string[] = [],
): Promise<HttpServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, BIN, 'serve', '--http', '--port', '0', ...args], {
      env,
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let started = false;
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const timer = setTimeout(() => reject(new Error(`serve --http did not start: ${out} ${err}`)), 15_000);
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = LISTENING.exec(out);
      if (!match || started) return;
      started = true;
      clearTimeout(timer);
      const url = match[1]!;
      resolve({
        url,
        origin: new URL(url).origin,
        port: Number(match[2]),
        process: child,
        stdout: () => out,
        stderr: () => err,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    });
    void exited.then((code) => {
      if (started) return;
      clearTimeout(timer);
      reject(new Error(`serve --http exited with ${code}: ${err}`));
    });
  });
}

/** `serve --http` taking OAuth access tokens from `issuer` for scope mcp:read, on a port of its own (the audience names it). */
export async function startOAuthServer(
  issuer: string,
  extra: string[] = [],
): Promise<{ server: HttpServerProcess; audience: string }> {
  const port = await closedPort();
  const audience = `http://127.0.0.1:${port}/mcp`;
  const server = await startHttpServer([
    '--port',
    String(port),
    '--auth-issuer',
    issuer,
    '--auth-audience',
    audience,
    '--auth-scopes',
    'mcp:read',
    ...extra,
  ]);
  return { server, audience };
}

export interface HttpSession {
  client: Client;
  close(): Promise<void>;
}

/** The SDK's real client over Streamable HTTP. */
export async function connectHttp(url: string): Promise<HttpSession> {
  const client = new Client({ name: 'service-mcp-http-e2e', version: '0.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, close: () => client.close() };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json<T = unknown>(): T;
}

export interface RawRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body with chunked encoding (no Content-Length). */
  chunked?: boolean;
}

/** One request through node:http, with whatever headers the test wants (Host included). */
export function rawRequest(origin: string, options: RawRequest = {}): Promise<RawResponse> {
  const { port, hostname } = new URL(origin);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined && !options.chunked)
      headers['content-length'] ??= String(Buffer.byteLength(options.body));
    const req = request(
      { host: hostname, port, method: options.method ?? 'GET', path: options.path ?? '/mcp', headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: <T>() => JSON.parse(body) as T }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

/** Headers a well-behaved MCP POST carries. */
export const MCP_POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/** How many requests the mock API has seen for one exact path. */
/** An initialize POSTed to `path` with `headers` beside the MCP ones, as a raw request (the answer, whatever its status). */
export const postInitialize = (origin: string, headers: Record<string, string> = {}, path = '/mcp') =>
  rawRequest(origin, { method: 'POST', path, headers: { ...MCP_POST_HEADERS, ...headers }, body: INITIALIZE });

export async function hitsOf(api: { stats(): Promise<Record<string, unknown>> }, path: string): Promise<number> {
  const stats = (await api.stats()) as { data?: { hits?: Record<string, number> } };
  return stats.data?.hits?.[path] ?? 0;
}
