/**
 * One way to reach the built binary over either transport, so a scenario table is written once
 * and run over stdio and over `serve --http` alike: the SDK's real client on both, plus what a
 * test needs to watch the process (its pid, whether it is still alive, its stderr).
 */
import type { Client } from '@modelcontextprotocol/client';
import { cleanEnv, connectStdio } from './helpers.js';
import { connectHttp, startHttpServer } from './http-helpers.js';

export type TransportName = 'stdio' | 'http';

export interface Target {
  transport: TransportName;
  client: Client;
  /** The server process (for HTTP, the one serving every connection). */
  pid: number;
  alive(): boolean;
  stderr(): string;
  close(): Promise<void>;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts the binary with `args` (global options such as --base-url) and connects the SDK client. */
export async function startTarget(
  transport: TransportName,
  args: string[],
  env: Record<string, string> = cleanEnv(),
): Promise<Target> {
  if (transport === 'stdio') {
    const session = await connectStdio(args, env);
    const pid = session.transport.pid!;
    return {
      transport,
      client: session.client,
      pid,
      alive: () => running(pid),
      stderr: session.stderr,
      close: () => session.close(),
    };
  }
  const server = await startHttpServer(args, env);
  const session = await connectHttp(server.url);
  return {
    transport,
    client: session.client,
    pid: server.process.pid!,
    alive: () => server.process.exitCode === null && server.process.signalCode === null,
    stderr: server.stderr,
    close: async () => {
      await session.close().catch(() => {});
      await server.stop();
    },
  };
}

export const TRANSPORTS: readonly TransportName[] = ['stdio', 'http'];
