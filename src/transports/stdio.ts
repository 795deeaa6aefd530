/**
 * stdio mode: the SDK's `serveStdio` entry serves both protocol eras over our line transport
 * (stdio-transport.ts). stdout is the JSON-RPC channel: the transport gets the only handle on it,
 * and every other write to process.stdout or console.* is sent to stderr, so no dependency's
 * stray output can corrupt the protocol.
 */
import { format } from 'node:util';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Backend } from '../backend.js';
import type { Logger } from '../log.js';
import { createServer } from '../server.js';
import { telemetry } from '../telemetry/hooks.js';
import { LineTransport, type LineOutput } from './stdio-transport.js';

/** Takes stdout for the protocol alone; returns the only way left to write to it. */
export function guardStdout(): LineOutput & { flush(callback: () => void): void } {
  const stdout = process.stdout;
  const protocolWrite = stdout.write.bind(stdout) as (chunk: string, callback?: () => void) => boolean;
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

/** How long shutdown may wait for stdout to take the last answers. */
const FORCED_EXIT_MS = 2_000;

export interface StdioOptions {
  backend: Backend;
  logger: Logger;
  /** How long calls still running when stdin ends may take to be answered. */
  endGraceMs: number;
}

export function runStdio({ backend, logger, endGraceMs }: StdioOptions): void {
  const out = guardStdout();
  const transport = new LineTransport(process.stdin, out, { endGraceMs, onRefused: (reason) => logger.warn(reason) });
  const handle = serveStdio(() => createServer({ backend, logger }), { transport, onerror: (error) => logger.debug(`stdio: ${error.message}`) });

  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`stdio server stopping: ${why}`);
    // A stdout nobody reads any more must not keep the process alive.
    setTimeout(() => process.exit(0), FORCED_EXIT_MS).unref();
    // Exit once every answer written has reached the pipe; open keep-alive sockets or a pending
    // Retry-After wait must not hold the process.
    void handle.close().then(() => telemetry().flush()).finally(() => out.flush(() => process.exit(0)));
  };
  void transport.closedPromise.then(() => stop('stdin closed'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  logger.info(`stdio server ready (${backend.mode === 'offline' ? 'offline snapshot' : backend.baseUrl})`);
}
