/**
 * stdio adapter. stdout is the JSON-RPC channel: the transport gets a private handle on it, and
 * every other write to process.stdout or console.* is sent to stderr, so no dependency's stray
 * output can corrupt the protocol.
 *
 * Start-up imports nothing heavy: initialize and tools/list are answered from the answers recorded
 * at build time (stdio-front.ts) while the SDK server, the API client and their zod schemas are
 * not loaded yet; without them (running from sources) all of it is loaded at once. After that,
 * tools/call requests are answered by the call lane (stdio-calls.ts) and everything else by the
 * SDK server.
 */
import type { Readable, Writable } from 'node:stream';
import { format } from 'node:util';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Backend } from '../backend.js';
import type { Logger } from '../log.js';
import { loadStaticAnswers, type StaticAnswers } from '../mcp/static-answers.js';
import { VERSION } from '../version.js';
import type { StdioCalls } from './stdio-calls.js';
import { MAX_LINE_BYTES, REPLAY_ID, StdioFront, type Feed } from './stdio-front.js';

/** The protocol's own way out to stdout: what the SDK's stdio transport and the fast start write with. */
export interface ProtocolOut {
  /** Writes one or more whole lines; false when stdout's buffer is full ('drain' follows). */
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
  /** Calls back once everything written so far has been handed to the system. */
  flush(callback: () => void): void;
}

/**
 * Takes stdout for the protocol alone; returns the only way left to write to it. Plain calls on
 * stdout itself rather than a Writable stream in front of it, which cost a stream hop per message.
 */
export function guardStdout(): ProtocolOut {
  const stdout = process.stdout;
  const protocolWrite = stdout.write.bind(stdout) as (chunk: string, encoding?: BufferEncoding | (() => void), callback?: () => void) => boolean;
  const toStderr = (...args: unknown[]) => {
    process.stderr.write(`${format(...args)}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.trace = toStderr;
  console.dir = (value: unknown) => toStderr(value);
  stdout.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => process.stderr.write(chunk as string, encoding as BufferEncoding, callback as () => void)) as typeof stdout.write;
  return {
    write: (chunk) => protocolWrite(chunk),
    once: (event, listener) => stdout.once(event, listener),
    // Callbacks of writes to one stream run in order, so this one runs after every earlier write's.
    flush: (callback) => void protocolWrite('', callback),
  };
}

/** Builds the backend, or loads what builds it; called once, when the SDK server is loaded. */
export type LoadBackend = () => Backend | Promise<Backend>;

/**
 * Loads the SDK server and connects it, reading `feed` and writing `output`; replies to REPLAY_ID
 * are dropped. tools/call requests are answered by the call lane, which runs the server's own
 * handler; everything else reaches the SDK server.
 */
async function connectSdk(loadBackend: LoadBackend, logger: Logger, feed: Feed, output: ProtocolOut): Promise<{ server: Server; calls: StdioCalls }> {
  const [{ StdioServerTransport }, { createServerParts }, { StdioCalls }, backend] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('../server.js'),
    import('./stdio-calls.js'),
    loadBackend(),
  ]);
  const { server, callTool } = createServerParts({ backend, logger });
  // The transport reads with on/off('data' | 'error') and pause, and writes with write and
  // once('drain'): a Feed and a ProtocolOut are all of that, without a stream in between.
  const transport = new StdioServerTransport(feed as unknown as Readable, output as unknown as Writable);
  const send = transport.send.bind(transport);
  // The replayed initialize was answered already, from the recorded answers.
  transport.send = (message) => ('id' in message && message.id === REPLAY_ID && !('method' in message) ? Promise.resolve() : send(message));
  await server.connect(transport);
  const calls = new StdioCalls({ callTool, notify: (notification, relatedRequestId) => server.notification(notification, { relatedRequestId }), write: (line) => output.write(line) });
  logger.info(`stdio server ready (${backend.mode === 'offline' ? 'offline snapshot' : backend.baseUrl})`);
  return { server, calls };
}

export async function runStdio(loadBackend: LoadBackend, logger: Logger, answers: StaticAnswers | undefined = loadStaticAnswers(VERSION)): Promise<void> {
  const protocolOut = guardStdout();
  let connected: { server: Server; calls: StdioCalls } | undefined;
  let closing = false;
  const shutdown = (why: string) => {
    if (closing) return;
    closing = true;
    logger.info(`stdio server stopping: ${why}`);
    // Exit promptly: open keep-alive sockets or a pending Retry-After wait must not hold the process.
    const force = setTimeout(() => process.exit(0), 500);
    force.unref();
    // Answers already finished still go out; calls still running are ended unanswered.
    connected?.calls.flush();
    connected?.calls.abortAll(new Error('the stdio session closed'));
    void (connected?.server.close() ?? Promise.resolve()).finally(() => {
      protocolOut.flush(() => process.exit(0));
    });
  };
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  // Without recorded answers (running from sources) the front hands over at once.
  const front = new StdioFront({
    input: process.stdin,
    write: (line) => protocolOut.write(line),
    answers,
    connect: async (feed) => {
      connected = await connectSdk(loadBackend, logger, feed, protocolOut);
      logger.debug('SDK server loaded');
      return (message) => connected!.calls.take(message);
    },
    onOversize: (bytes) => logger.warn(`dropped a message of ${bytes} bytes from stdin, over the ${MAX_LINE_BYTES}-byte limit; it cannot be answered`),
    onError: (error) => {
      logger.error(`could not load the MCP server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    },
  });
  front.start();
  logger.info(answers ? 'stdio server started (initialize and tools/list answered from the recorded answers)' : 'stdio server started');
}
