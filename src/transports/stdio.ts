/**
 * stdio mode: the SDK's `serveStdio` entry serves both protocol eras over our line transport
 * (stdio-transport.ts). stdout is the JSON-RPC channel: the transport gets the only handle on it,
 * and every other write to process.stdout or console.* is sent to stderr, so no dependency's
 * stray output can corrupt the protocol.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { startReads, type Backend } from '../tools/backend.js';
import type { Logger } from '../obs/log.js';
import { serverFactory } from '../mcp/server.js';
import { orAfter } from '../lib/abort.js';
import { nodeUtil } from '../lib/builtins.js';
import { telemetry } from '../obs/telemetry-hooks.js';
import { LineTransport, type LineOutput } from './stdio-transport.js';

/** Takes stdout for the protocol alone; returns the only way left to write to it. */
function guardStdout(): LineOutput & { flush(callback: () => void): void } {
  const stdout = process.stdout;
  const protocolWrite = stdout.write.bind(stdout) as (chunk: string, callback?: () => void) => boolean;
  const toStderr = (...args: unknown[]) => {
    process.stderr.write(`${nodeUtil().format(...args)}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.trace = toStderr;
  console.dir = (value: unknown) => toStderr(value);
  stdout.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) =>
    process.stderr.write(chunk as string, encoding as BufferEncoding, callback as () => void)) as typeof stdout.write;
  return {
    write: (chunk) => protocolWrite(chunk),
    once: (event, listener) => stdout.once(event, listener),
    // Callbacks of writes to one stream run in order, so this one runs after every earlier write's.
    flush: (callback) => void protocolWrite('', callback),
  };
}

/** How long shutdown may wait for stdout to take the last answers. */
const FORCED_EXIT_MS = 2_000;

/**
 * On SIGTERM or SIGINT, how long running calls may go on before they are stopped. Short because
 * MCP clients (the SDK's StdioClientTransport among them) send SIGKILL 2 s after SIGTERM: within
 * that, every call read gets its answer or an error.
 */
const STOP_GRACE_MS = 1_000;
/** After stopping the calls, how long their error results may take to come through the SDK. */
const STOPPED_ANSWER_MS = 250;

export interface StdioOptions {
  backend: Backend;
  logger: Logger;
  /** After stdin ends, how long to wait for the next answer before answering the rest with an error. */
  endGraceMs: number;
  /** Requests served at once; later ones wait (config.ts, --max-in-flight). */
  maxInFlight: number;
}

export function runStdio({ backend, logger, endGraceMs, maxInFlight }: StdioOptions): void {
  const out = guardStdout();
  const transport = new LineTransport(process.stdin, out, {
    endGraceMs,
    maxInFlight,
    onRefused: (reason) => logger.warn(reason),
  });
  const stopCalls = new AbortController();
  startReads(backend);
  // One long-lived server: its bridged tools follow the hosted list, each change announced.
  const handle = serveStdio(serverFactory({ backend, logger, stopping: stopCalls.signal, follow: true }), {
    transport,
    onerror: (error) => logger.debug(`stdio: ${error.message}`),
  });

  /** Resolves once no call is owed an answer, or after `ms`. */
  const settled = (ms: number) => orAfter(transport.settled(), ms, undefined);

  let stopping = false;
  const exit = () => {
    // A stdout nobody reads any more must not keep the process alive.
    setTimeout(() => process.exit(0), FORCED_EXIT_MS).unref();
    // Exit once every answer written has reached the pipe; open keep-alive sockets or a pending
    // Retry-After wait must not hold the process.
    void handle
      .close()
      .then(() => telemetry().flush())
      .finally(() => out.flush(() => process.exit(0)));
  };
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`stdio server stopping: ${why}; finishing ${transport.owed} call(s)`);
    transport.stopping(`Server error: the server is stopping (${why}); the request was not started`);
    await settled(STOP_GRACE_MS);
    if (transport.owed > 0) {
      stopCalls.abort(why);
      await settled(STOPPED_ANSWER_MS);
    }
    transport.answerRemaining(`Server error: the server stopped (${why}) before the request finished`);
    exit();
  };
  void transport.closedPromise.then(() => {
    if (stopping) return;
    stopping = true;
    logger.info('stdio server stopping: stdin closed');
    exit();
  });
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  logger.info(`stdio server ready (${backend.mode === 'embedded' ? 'embedded offline API' : backend.baseUrl})`);
}
