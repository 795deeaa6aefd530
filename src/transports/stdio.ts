/**
 * stdio adapter. stdout is the JSON-RPC channel: the transport gets a private handle on it, and
 * every other write to process.stdout or console.* is sent to stderr, so no dependency's stray
 * output can corrupt the protocol.
 *
 * Start-up imports nothing heavy: initialize and tools/list are answered from the answers recorded
 * at build time (stdio-front.ts) while the SDK server, the API client and their zod schemas are
 * not loaded yet; without them (running from sources) all of it is loaded first and the SDK server
 * answers everything.
 */
import { Writable, type Readable } from 'node:stream';
import { format } from 'node:util';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Backend } from '../backend.js';
import type { Logger } from '../log.js';
import { loadStaticAnswers, type StaticAnswers } from '../mcp/static-answers.js';
import { VERSION } from '../version.js';
import { REPLAY_ID, StdioFront } from './stdio-front.js';

/** Takes stdout for the protocol alone; returns the stream the transport must write to. */
export function guardStdout(): Writable {
  const stdout = process.stdout;
  const protocolWrite = stdout.write.bind(stdout) as (chunk: unknown, encoding: BufferEncoding, callback: (error?: Error | null) => void) => boolean;
  const toStderr = (...args: unknown[]) => {
    process.stderr.write(`${format(...args)}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.trace = toStderr;
  console.dir = (value: unknown) => toStderr(value);
  stdout.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => process.stderr.write(chunk as string, encoding as BufferEncoding, callback as () => void)) as typeof stdout.write;
  return new Writable({
    write(chunk, encoding, callback) {
      protocolWrite(chunk, encoding, callback);
    },
  });
}

/** Builds the backend, or loads what builds it; called once, when the SDK server is loaded. */
export type LoadBackend = () => Backend | Promise<Backend>;

/** Loads the SDK server and connects it, reading `input` and writing `output`; replies to REPLAY_ID are dropped. */
async function connectSdk(loadBackend: LoadBackend, logger: Logger, input: Readable, output: Writable): Promise<Server> {
  const [{ StdioServerTransport }, { createServer }, backend] = await Promise.all([import('@modelcontextprotocol/sdk/server/stdio.js'), import('../server.js'), loadBackend()]);
  const server = createServer({ backend, logger });
  const transport = new StdioServerTransport(input, output);
  const send = transport.send.bind(transport);
  // The replayed initialize was answered already, from the recorded answers.
  transport.send = (message) => ('id' in message && message.id === REPLAY_ID && !('method' in message) ? Promise.resolve() : send(message));
  await server.connect(transport);
  logger.info(`stdio server ready (${backend.mode === 'offline' ? 'offline snapshot' : backend.baseUrl})`);
  return server;
}

export async function runStdio(loadBackend: LoadBackend, logger: Logger, answers: StaticAnswers | undefined = loadStaticAnswers(VERSION)): Promise<void> {
  const protocolOut = guardStdout();
  let server: Server | undefined;
  let closing = false;
  const shutdown = (why: string) => {
    if (closing) return;
    closing = true;
    logger.info(`stdio server stopping: ${why}`);
    // Exit promptly: open keep-alive sockets or a pending Retry-After wait must not hold the process.
    const force = setTimeout(() => process.exit(0), 500);
    force.unref();
    void (server?.close() ?? Promise.resolve()).finally(() => {
      protocolOut.end(() => process.exit(0));
    });
  };
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  if (!answers) {
    server = await connectSdk(loadBackend, logger, process.stdin, protocolOut);
    return;
  }
  const front = new StdioFront({
    input: process.stdin,
    write: (line) => protocolOut.write(line),
    answers,
    connect: async (feed) => {
      server = await connectSdk(loadBackend, logger, feed, protocolOut);
      logger.debug('SDK server loaded');
    },
    onError: (error) => {
      logger.error(`could not load the MCP server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    },
  });
  front.start();
  logger.info('stdio server started (initialize and tools/list answered from the recorded answers)');
}
