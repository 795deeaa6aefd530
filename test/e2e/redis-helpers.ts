/**
 * A real `redis-server` (Debian's package; `.ci/run` installs it) on a free loopback port, with
 * nothing saved to disk, stopped by the test that started it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { closedPort } from './helpers.js';

export interface RedisServer {
  url: string;
  port: number;
  /** With `tls`: the self-signed certificate, for NODE_EXTRA_CA_CERTS. */
  caFile?: string;
  process: ChildProcess;
  /** SIGKILL: Redis gone mid-run, as a crash or a lost node would leave it. */
  kill(): Promise<void>;
}

export async function startRedis(
  options: { password?: string; port?: number; tls?: boolean } = {},
): Promise<RedisServer> {
  const port = options.port ?? (await closedPort());
  const args = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'];
  let caFile: string | undefined;
  if (options.tls) {
    // A self-signed certificate for 127.0.0.1; only TLS is served (no plain port).
    const dir = mkdtempSync(join(tmpdir(), 'service-mcp-redis-tls-'));
    caFile = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        caFile,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    args.push(
      '--port',
      '0',
      '--tls-port',
      String(port),
      '--tls-cert-file',
      caFile,
      '--tls-key-file',
      join(dir, 'key.pem'),
      '--tls-ca-cert-file',
      caFile,
      '--tls-auth-clients',
      'no',
    );
  } else {
    args.push('--port', String(port));
  }
  if (options.password) args.push('--requirepass', options.password);
  // Without libfaketime's preload: the shifted-clock CI run (.ci/run) moves only our clock, and
  // redis-server does not start under it (its clock_gettime recursion). Redis keeps relative TTLs.
  const { LD_PRELOAD: _preload, ...env } = process.env;
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    const probe = setInterval(() => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        clearInterval(probe);
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', () => socket.destroy());
    }, 50);
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', (error) => {
      clearInterval(probe);
      clearTimeout(timer);
      reject(
        new Error(
          `redis-server could not be run (is Debian's redis-server installed? .ci/run installs it): ${error.message}`,
        ),
      );
    });
  });
  const auth = options.password ? `:${encodeURIComponent(options.password)}@` : '';
  return {
    url: `${options.tls ? 'rediss' : 'redis'}://${auth}127.0.0.1:${port}`,
    port,
    ...(caFile ? { caFile } : {}),
    process: child,
    kill: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

async function withClient<T>(
  url: string,
  op: (client: Awaited<ReturnType<typeof connected>>) => Promise<T>,
): Promise<T> {
  const client = await connected(url);
  try {
    return await op(client);
  } finally {
    await client.close();
  }
}

async function connected(url: string) {
  const { createClient } = await import('@redis/client');
  const client = createClient({ url });
  await client.connect();
  return client;
}

/** PTTL of a key, read with the official client (the product's own code is not what is checked). */
export const pttl = (url: string, key: string) => withClient(url, (client) => client.pTTL(key));

export const flushAll = (url: string) => withClient(url, (client) => client.flushAll());
