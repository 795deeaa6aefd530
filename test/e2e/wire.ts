/**
 * Raw protocol clients for tests that count answers: every stdout line is parsed and every answer
 * is recorded under its JSON-RPC id, so a test asserts "exactly one answer for each id" on parsed
 * messages, never on text counted in chunks. Also the heap probe: the heap used after a forced
 * full GC, read from outside the server through Node's inspector (Chrome DevTools Protocol), so the
 * binary under test is the one users run, with no test hook built into it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { BIN, cleanEnv, ROOT } from './helpers.js';

export type RequestId = string | number;

export interface RpcMessage {
  jsonrpc: '2.0';
  id?: RequestId | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown> & { content?: Array<{ text?: string }>; isError?: boolean };
  error?: { code: number; message: string };
}

export interface LineSession {
  child: ChildProcessWithoutNullStreams;
  /** Writes one message as one line. */
  send(message: object): void;
  /** Sends a request; resolves with its answer (the first one, should there be more). */
  request(id: RequestId, method: string, params?: object): Promise<RpcMessage>;
  /** Every answer (result or error) received for `id`, in order. */
  answersTo(id: RequestId): RpcMessage[];
  /** Ids that got an answer, with how many each. */
  answerCounts(): Map<RequestId | null, number>;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  exited: Promise<number | string | null>;
  /** The exit code, or undefined while it runs. */
  exitCode(): number | string | null | undefined;
}

/** The built binary over raw stdio; `nodeArgs` go to node itself. */
export function lineSession(
  args: string[],
  options: { env?: Record<string, string>; nodeArgs?: string[] } = {},
): LineSession {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
    env: options.env ?? cleanEnv(),
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const answers = new Map<RequestId | null, RpcMessage[]>();
  const waiters = new Map<RequestId, (message: RpcMessage) => void>();
  let buffered = '';
  let stderr = '';
  let code: number | string | null | undefined;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() === '') continue;
      const message = JSON.parse(line) as RpcMessage;
      if (message.result === undefined && message.error === undefined) continue; // a notification
      const id = message.id ?? null;
      const list = answers.get(id) ?? [];
      list.push(message);
      answers.set(id, list);
      if (id !== null) waiters.get(id)?.(message);
      if (id !== null) waiters.delete(id);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (exitCode, signal) => resolve((code = exitCode ?? signal))),
  );
  const send = (message: object) => void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  return {
    child,
    send,
    request: (id, method, params) =>
      new Promise((resolve) => {
        waiters.set(id, resolve);
        send({ id, method, ...(params ? { params } : {}) });
      }),
    answersTo: (id) => answers.get(id) ?? [],
    answerCounts: () => new Map([...answers].map(([id, list]) => [id, list.length])),
    stderr: () => stderr,
    exited,
    exitCode: () => code,
  };
}

const INITIALIZE_PARAMS = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'service-mcp-e2e-raw', version: '0' },
};

/** initialize, then notifications/initialized, as every 2025-era client does first. */
export async function initialize(session: LineSession, id: RequestId = 'init'): Promise<void> {
  const answer = await session.request(id, 'initialize', INITIALIZE_PARAMS);
  if (answer.error) throw new Error(`initialize failed: ${answer.error.message}`);
  session.send({ method: 'notifications/initialized' });
}

/** Node's flag that opens the inspector on a free loopback port (it prints the address on stderr). */
export const INSPECT = '--inspect=127.0.0.1:0';

export interface HeapProbe {
  /** Bytes of heap in use after two forced full collections. */
  heapUsedAfterGc(): Promise<number>;
  close(): void;
}

/**
 * Connects to the inspector of a process started with INSPECT, once `stderr()` shows its address.
 * Two collections: the first runs finalizers (FinalizationRegistry cleanups, which may free more),
 * the second collects what they released.
 */
export async function heapProbe(stderr: () => string): Promise<HeapProbe> {
  let address: string | undefined;
  for (let i = 0; i < 500 && !address; i++) {
    address = /Debugger listening on (ws:\/\/\S+)/.exec(stderr())?.[1];
    if (!address) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (!address) throw new Error(`no inspector address on stderr: ${stderr().slice(-500)}`);
  const socket = new WebSocket(address);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let nextId = 0;
  type Reply = { id?: number; result?: { result?: { value?: unknown } } };
  const pending = new Map<number, (message: Reply) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as Reply;
    if (message.id !== undefined) pending.get(message.id)?.(message);
    if (message.id !== undefined) pending.delete(message.id);
  });
  const command = (method: string, params: object = {}) =>
    new Promise<Reply>((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    async heapUsedAfterGc() {
      await command('HeapProfiler.collectGarbage');
      await command('HeapProfiler.collectGarbage');
      const answer = await command('Runtime.evaluate', {
        expression: 'process.memoryUsage().heapUsed',
        returnByValue: true,
      });
      return Number(answer.result?.result?.value);
    },
    close: () => socket.close(),
  };
}

/** A small seeded PRNG (mulberry32): a failing randomized run is replayed from its printed seed. */
export function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (below: number) => Math.floor(next() * below),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
