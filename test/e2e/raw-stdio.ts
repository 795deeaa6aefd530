/**
 * The built binary over raw stdio, as a script drives it: lines written by hand, and every line
 * of stdout parsed as it completes (a line split across chunks included), so answers are matched
 * by JSON-RPC id, never counted by searching chunks for text.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { BIN, cleanEnv, ROOT } from './helpers.js';

export type Id = string | number | null;

export interface Message {
  jsonrpc: string;
  id?: Id;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown> & {
    content?: Array<{ text: string }>;
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
  error?: { code: number; message: string };
}

export interface RawOptions {
  env?: Record<string, string>;
  /** Keep each parsed line (default). Off for huge transcripts: only the ids answered are kept. */
  keep?: boolean;
}

export const INITIALIZE = {
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

export function rawStdio(args: string[], { env = cleanEnv(), keep = true }: RawOptions = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env,
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  }) as ChildProcessWithoutNullStreams;
  const messages: Message[] = [];
  /** Responses (a result or an error) seen for each id. */
  const responses = new Map<Id, number>();
  let lines = 0;
  let partial: Buffer[] = [];
  let stderr = '';
  const take = (line: Buffer) => {
    lines++;
    const message = JSON.parse(line.toString('utf8')) as Message;
    if (keep) messages.push(message);
    if (message.result !== undefined || message.error !== undefined)
      responses.set(message.id ?? null, (responses.get(message.id ?? null) ?? 0) + 1);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    let rest = chunk;
    let at: number;
    while ((at = rest.indexOf(0x0a)) >= 0) {
      take(partial.length === 0 ? rest.subarray(0, at) : Buffer.concat([...partial, rest.subarray(0, at)]));
      partial = [];
      rest = rest.subarray(at + 1);
    }
    if (rest.length > 0) partial.push(rest);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const line = (message: object) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
  return {
    child,
    exited,
    messages,
    responses,
    lines: () => lines,
    stderr: () => stderr,
    send: (message: object) => child.stdin.write(line(message)),
    line,
    answerTo: (id: Id) => messages.find((m) => m.id === id && (m.result !== undefined || m.error !== undefined)),
    /** The server's resident memory now, in MB (Linux). */
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
  };
}

/**
 * Ids answered other than exactly once, among `ids`: `{ missing, repeated }`, both empty when
 * every id has exactly one response.
 */
export function unmatched(responses: Map<Id, number>, ids: Iterable<Id>) {
  const missing: Id[] = [];
  const repeated: Id[] = [];
  for (const id of ids) {
    const count = responses.get(id) ?? 0;
    if (count === 0) missing.push(id);
    else if (count > 1) repeated.push(id);
  }
  return { missing, repeated };
}

export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** CPU time the process has used, in clock ticks (utime + stime of /proc/<pid>/stat). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Resolves once the process has used (almost) no CPU for a whole second: whatever it was going to
 * read and run on its own, it has. Judged by the work done, not by a fixed wait, so a slow machine
 * only takes longer.
 */
export async function quiescent(pid: number, onSample: () => void = () => {}, timeoutMs = 90_000): Promise<void> {
  const started = Date.now();
  let quietSince = Date.now();
  let last = cpuTicks(pid);
  while (Date.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    onSample();
    const now = cpuTicks(pid);
    // One tick (10 ms) of CPU in a tenth of a second is a timer or GC, not a call being served.
    if (now - last > 1) quietSince = Date.now();
    last = now;
    if (Date.now() - quietSince >= 1_000) return;
  }
  throw new Error(`the server was still busy after ${timeoutMs} ms`);
}
