/**
 * stdio adapter. stdout is the JSON-RPC channel: the transport gets a private handle on it, and
 * every other write to process.stdout or console.* is sent to stderr, so no dependency's stray
 * output can corrupt the protocol.
 */
import { Writable } from 'node:stream';
import { format } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Backend } from '../backend.js';
import type { Logger } from '../log.js';
import { createServer } from '../server.js';

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

export async function runStdio(backend: Backend, logger: Logger): Promise<void> {
  const protocolOut = guardStdout();
  const server = createServer({ backend, logger });
  const transport = new StdioServerTransport(process.stdin, protocolOut);
  let closing = false;
  const shutdown = (why: string) => {
    if (closing) return;
    closing = true;
    logger.info(`stdio server stopping: ${why}`);
    // Exit promptly: open keep-alive sockets or a pending Retry-After wait must not hold the process.
    const force = setTimeout(() => process.exit(0), 500);
    force.unref();
    void server.close().finally(() => {
      protocolOut.end(() => process.exit(0));
    });
  };
  process.stdin.on('end', () => shutdown('stdin closed'));
  process.stdin.on('close', () => shutdown('stdin closed'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await server.connect(transport);
  logger.info(`stdio server ready (${backend.mode === 'offline' ? 'offline snapshot' : backend.baseUrl})`);
}
