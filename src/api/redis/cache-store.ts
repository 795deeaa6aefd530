/**
 * One response cache for every replica: undici's CacheStore contract over Redis, so the same RFC
 * 9111 rules apply whichever replica stored an entry. Entries of one URL live under one key (their
 * Vary variants in a list), expiring with the last of them; a body over the entry limit is not
 * stored, and the total is bounded by Redis's `maxmemory` with an LRU policy (see the README). While
 * Redis is not there, the process's memory store answers, as without --redis-url.
 */
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { CACHE_LIMITS, type CacheKey, type CacheStore, type CacheValue, type GetResult } from '../cache.js';
import type { SharedRedis } from './connection.js';

interface Stored extends CacheValue {
  method: string;
  /** base64 */
  body: string;
}

function sameHeader(a: string | string[] | null | undefined, b: string | string[] | null | undefined): boolean {
  if (a == null || b == null) return a == null && b == null;
  return JSON.stringify(Array.isArray(a) ? a : [a]) === JSON.stringify(Array.isArray(b) ? b : [b]);
}

/** The entry a request may use: alive, same method, and every header its Vary names the same. */
function matching(entries: Stored[], key: CacheKey, now: number): Stored | undefined {
  return entries.find(
    (e) =>
      e.deleteAt > now &&
      e.method === key.method &&
      Object.entries(e.vary ?? {}).every(([name, value]) => sameHeader(key.headers?.[name], value)),
  );
}

export function sharedCacheStore(redis: SharedRedis, local: CacheStore, prefix: string): CacheStore {
  const keyOf = (key: CacheKey) =>
    `${prefix}:cache:${createHash('sha256').update(`${key.origin} ${key.path}`).digest('base64url')}`;
  const read = async (key: CacheKey): Promise<Stored[] | undefined> => {
    const text = await redis.get(keyOf(key));
    if (text === undefined) return undefined;
    try {
      const entries: unknown = JSON.parse(text);
      // Not ours to read (not JSON, or JSON of another shape): treated as empty, and overwritten by the next store.
      return Array.isArray(entries) ? (entries as Stored[]) : [];
    } catch {
      return [];
    }
  };

  return {
    get(key: CacheKey) {
      if (!redis.ready()) return local.get(key);
      return read(key).then((entries): GetResult | undefined | Promise<GetResult | undefined> => {
        if (entries === undefined && !redis.ready()) return local.get(key) ?? undefined;
        const entry = matching(entries ?? [], key, Date.now());
        if (!entry) return undefined;
        const { method: _method, body, ...value } = entry;
        return {
          ...value,
          cacheControlDirectives: value.cacheControlDirectives ?? {},
          body: Buffer.from(body, 'base64'),
        };
      });
    },

    createWriteStream(key: CacheKey, value: CacheValue) {
      if (!redis.ready()) return local.createWriteStream(key, value);
      const chunks: Buffer[] = [];
      let size = 0;
      return new Writable({
        write(chunk: Buffer | string, encoding, callback) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
          size += bytes.byteLength;
          // Too large to keep: given up, as the memory store gives up on it.
          if (size > CACHE_LIMITS.maxEntrySize) return this.destroy();
          chunks.push(bytes);
          callback();
        },
        final(callback) {
          const entry: Stored = { ...value, method: key.method, body: Buffer.concat(chunks).toString('base64') };
          void read(key)
            .then((entries = []) => {
              const now = Date.now();
              // The new entry replaces the one it would match (same method, same Vary values).
              const others = entries.filter(
                (e) =>
                  e.deleteAt > now &&
                  !(e.method === key.method && JSON.stringify(e.vary ?? null) === JSON.stringify(value.vary ?? null)),
              );
              const kept = [...others, entry];
              return redis.setUntil(keyOf(key), JSON.stringify(kept), Math.max(...kept.map((e) => e.deleteAt)));
            })
            // A failure is the stream's error, which undici's cache handler listens for: never an unhandled rejection.
            .then(
              () => callback(),
              (error: Error) => callback(error),
            );
        },
      });
    },

    delete(key: CacheKey) {
      local.delete(key);
      return redis.del(keyOf(key));
    },
  };
}
