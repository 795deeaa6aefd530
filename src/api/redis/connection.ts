/**
 * The Redis connection behind --redis-url (`@redis/client`, loaded only then). Redis is shared
 * state, never a dependency of a call: every command is bounded by a short timeout and fails fast
 * while disconnected, a caller that gets no answer uses its own process's state, the client
 * reconnects by itself, and an outage is logged once when it starts and once when it ends.
 */
import type { Logger } from '../../obs/log.js';
import { orAfter, raceAbort } from '../../lib/abort.js';

/** The longest any call waits on Redis for one command. */
const REDIS_COMMAND_TIMEOUT_MS = 250;
/** How long start-up waits for a first connection before serving with local state meanwhile. */
const CONNECT_WAIT_MS = 2_000;

/** The URL with any password or user name replaced: safe for logs and errors. */
function redactRedisUrl(url: string): string {
  if (!URL.canParse(url)) return '(an unreadable Redis URL)';
  const parsed = new URL(url);
  if (parsed.username) parsed.username = '***';
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** A wrong password, an unknown user or an ACL refusal: the operator's to fix, not to retry. */
class RedisAuthError extends Error {
  override readonly name = 'RedisAuthError';
}

export interface SharedRedis {
  /** Connected and authenticated: only then is shared state consulted. */
  ready(): boolean;
  /** Runs a Lua script; undefined when Redis is not ready or did not answer in time. */
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  get(key: string): Promise<string | undefined>;
  /** SET key value PXAT at; false when it could not be stored. */
  setUntil(key: string, value: string, at: number): Promise<boolean>;
  del(key: string): Promise<void>;
  close(): Promise<void>;
}

const AUTH_FAILURE = /WRONGPASS|NOAUTH|NOPERM|invalid password|invalid username/i;

/**
 * `waitMs`: how long start-up waits for a first connection before serving on local state (a one-shot
 * call waits less).
 */
export async function connectRedis(url: string, logger: Logger, waitMs = CONNECT_WAIT_MS): Promise<SharedRedis> {
  // CommonJS: its exports are the module's default, as Node's import() gives them (and the bundle keeps).
  const { createClient } = (await import('@redis/client')).default;
  const shown = redactRedisUrl(url);
  let down = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_WAIT_MS,
      reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 3_000),
    },
  });
  const outage = (why: string) => {
    if (down) return;
    down = true;
    logger.warn(
      `Redis at ${shown} is unavailable (${why}): each replica uses its own cool-down and cache until it is back; reconnecting`,
    );
  };
  // The first error event: a refused login (the client retries it like a lost connection), or a
  // refused connection, known at once so that start-up need not wait out the rest of its time.
  let failed: (failure: Error | { refused: Error }) => void = () => {};
  const firstFailure = new Promise<Error | { refused: Error }>((resolve) => (failed = resolve));
  client.on('error', (error: Error) => {
    const message = error.message.split('\n')[0]!.replaceAll(url, shown);
    if (AUTH_FAILURE.test(message)) return failed({ refused: new Error(message) });
    outage(message);
    failed(new Error(message));
  });
  client.on('ready', () => {
    if (down) logger.warn(`Redis at ${shown} is back: the cool-down and the cache are shared again`);
    down = false;
  });
  const connected = client.connect().then(
    () => 'connected' as const,
    (error: Error) => error,
  );
  const first = await orAfter(Promise.race([connected, firstFailure]), waitMs, 'waiting' as const, true);
  if (typeof first === 'object' && 'refused' in first) {
    client.destroy();
    throw new RedisAuthError(
      `--redis-url: Redis at ${shown} refused the credentials (${first.refused.message}); check the user name and password in the URL`,
    );
  }
  if (first instanceof Error) outage(first.message.replaceAll(url, shown));
  else if (first === 'waiting') outage(`no connection within ${waitMs} ms`);
  // Not unref'd: a call awaiting Redis must keep the process alive. Every mode exits explicitly
  // when it is done (stdio at end of input, `call` after printing, HTTP on a signal).
  let slow = false;
  const attempt = async <T>(op: () => Promise<T>): Promise<T | undefined> => {
    if (!client.isReady) return undefined;
    try {
      // Raced rather than given to the client as a command timeout: that one only bounds a command
      // still waiting to be written, and a Redis that stopped answering has taken it already.
      const answer = await raceAbort(op(), AbortSignal.timeout(REDIS_COMMAND_TIMEOUT_MS));
      slow = false;
      return answer;
    } catch (error) {
      // A lost connection is reported through 'error'. A live one that did not answer in time is a
      // slow Redis: this call goes on with local state, and the streak is logged once.
      if (client.isReady && !slow) {
        slow = true;
        logger.warn(
          `Redis at ${shown} did not answer within ${REDIS_COMMAND_TIMEOUT_MS} ms (${(error as Error).message.split('\n')[0]}): calls go on with local state until it does`,
        );
      }
      return undefined;
    }
  };
  return {
    ready: () => client.isReady,
    eval: (script, keys, args) => attempt(() => client.eval(script, { keys, arguments: args })),
    get: async (key) => (await attempt(() => client.get(key))) ?? undefined,
    setUntil: async (key, value, at) =>
      (await attempt(() => client.set(key, value, { expiration: { type: 'PXAT', value: at } }))) === 'OK',
    del: async (key) => {
      await attempt(() => client.del(key));
    },
    close: async () => {
      if (client.isOpen) await client.close().catch(() => client.destroy());
    },
  };
}
