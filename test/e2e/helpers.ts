/**
 * End-to-end harness: spawns the built binary (never the sources), starts the embedded offline API
 * over real HTTP with `service-mcp mock-api`, and connects the SDK's real client over stdio.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));

if (!existsSync(new URL('../../dist/cli.js', import.meta.url))) {
  throw new Error(
    'dist/cli.js is missing: end-to-end tests run the built binary; run `npm run build` (npm test does it first)',
  );
}

/** Under the system's temporary directory, removed when this test process ends. */
const CACHE_HOMES = mkdtempSync(join(tmpdir(), 'service-mcp-e2e-'));
process.once('exit', () => rmSync(CACHE_HOMES, { recursive: true, force: true }));
let cacheHomes = 0;

/** A user cache directory of its own (XDG_CACHE_HOME), not yet created: a process that keeps a list there keeps it from no other. */
export function freshCacheHome(): string {
  return join(CACHE_HOMES, String(++cacheHomes));
}

let recordings = 0;

/**
 * A recording by one of the hooks beside this file (record-*.mjs), preloaded into the built binary
 * (NODE_OPTIONS=--import, after the test's own `nodeOptions`): it appends a line a record to the
 * file `variable` names, one of its own, written as it goes (a stdio server may end by signal).
 */
export function recording(hook: string, variable: string, nodeOptions = '') {
  const file = join(CACHE_HOMES, `recording-${++recordings}.txt`);
  const url = pathToFileURL(fileURLToPath(new URL(`./${hook}`, import.meta.url))).href;
  return {
    env: (extra: Record<string, string> = {}) =>
      cleanEnv({ NODE_OPTIONS: `${nodeOptions} --import=${url}`.trim(), [variable]: file, ...extra }),
    lines: () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []),
  };
}

/** The hosted list file a run keeps in `cacheHome` (src/hosted/kept-list.ts), once it is there (polled, not timed). */
export async function keptListIn(cacheHome: string): Promise<string> {
  const dir = join(cacheHome, 'service-mcp');
  for (;;) {
    const file = existsSync(dir) ? readdirSync(dir).find((name) => /^hosted-list-\w+\.json$/.test(name)) : undefined;
    if (file) return join(dir, file);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * An environment with none of the developer's SERVICE_MCP_*, OTEL_* or proxy settings leaking in,
 * and the bridge to the hosted surface off: each test here is about our own tools, and the bridge's
 * background reads would add requests to the counts and a wait to the first list. The bridge's own
 * tests (hosted-bridge.test.ts) turn it on with SERVICE_MCP_NO_BRIDGE=0. Each gets a cache directory
 * of its own, so that no run starts from a hosted list another left (pass XDG_CACHE_HOME to share one).
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      value === undefined ||
      key.startsWith('SERVICE_MCP_') ||
      key.startsWith('OTEL_') ||
      /^(https?|no|all)_proxy$/i.test(key)
    )
      continue;
    env[key] = value;
  }
  return { ...env, SERVICE_MCP_NO_BRIDGE: '1', XDG_CACHE_HOME: freshCacheHome(), ...extra };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Node arguments that make this Node 22 report `version` (e.g. v20.11.1), to play an older Node. */
export function pretendNode(version: string): string[] {
  return [
    '--import',
    `data:text/javascript,Object.defineProperty(process,'version',{value:'${version}'});Object.defineProperty(process.versions,'node',{value:'${version.slice(1)}'});`,
  ];
}

/** Runs the binary to completion; `nodeArgs` go to node itself, before the binary. */
export function runCli(
  args: string[],
  env: Record<string, string> = cleanEnv(),
  input?: string,
  nodeArgs: string[] = [],
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], {
      env,
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

export interface FaultRule {
  path: string;
  kind: string;
  retryAfter?: number;
  delayMs?: number;
  times?: number;
}

export interface MockApi {
  url: string;
  process: ChildProcess;
  setFaults(rules: FaultRule[]): Promise<void>;
  clearFaults(): Promise<void>;
  stats(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** `service-mcp mock-api --port 0`, waiting for its listening line. */
export function startMockApi(): Promise<MockApi> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mock-api', '--port', '0'], {
      env: cleanEnv(),
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`mock-api did not start: ${out} ${err}`)), 15_000);
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      const url = match[1]!;
      const control = async (method: string, body?: unknown) => {
        const response = await fetch(`${url}/__mock/faults`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        if (!response.ok)
          throw new Error(`mock-api fault control answered ${response.status}: ${await response.text()}`);
      };
      resolve({
        url,
        process: child,
        setFaults: (rules) => control('POST', rules),
        clearFaults: () => control('DELETE'),
        stats: async () => (await (await fetch(`${url}/__mock/stats`)).json()) as Record<string, unknown>,
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.on('exit', (code) => reject(new Error(`mock-api exited with ${code}: ${err}`)));
  });
}

export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  close(): Promise<void>;
}

/** The SDK's real Client over stdio to the built binary; `options` are the Client's (capabilities, era). */
export async function connectStdio(
  args: string[],
  env: Record<string, string> = cleanEnv(),
  options: ClientOptions = { capabilities: {} },
): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args],
    env,
    cwd: ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'service-mcp-e2e', version: '0.0.0' }, options);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, close: () => client.close() };
}

export function textOf(result: object): string {
  const content = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  return content.map((c) => c.text ?? '').join('\n');
}

/** A loopback port with nothing listening (fetch refuses the well-known "bad ports" like 9). */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
