/**
 * The shared cache store reads what Redis holds under its keys, which another program (or an older
 * release) may have written: a value of another shape is no entry, and never a rejection that
 * nobody handles while a response is being stored.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheStores } from 'undici';
import { CACHE_LIMITS, type CacheKey, type CacheValue } from '../../../src/api/cache.js';
import { sharedCacheStore } from '../../../src/api/redis/cache-store.js';
import type { SharedRedis } from '../../../src/api/redis/connection.js';

let unhandled: unknown[] = [];
const record = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', record);
});
afterEach(() => void process.off('unhandledRejection', record));

/** Redis holding `value` under every key. */
function redisHolding(value: string): SharedRedis & { stored: string[] } {
  const stored: string[] = [];
  return {
    stored,
    ready: () => true,
    eval: async () => undefined,
    get: async () => value,
    setUntil: async (_key, text) => (stored.push(text), true),
    del: async () => {},
    close: async () => {},
  };
}

const key: CacheKey = { origin: 'http://api.example.test', method: 'GET', path: '/api/public/v1/jobs', headers: {} };
const value: CacheValue = {
  statusCode: 200,
  statusMessage: 'OK',
  headers: {},
  cachedAt: Date.now(),
  staleAt: Date.now() + 60_000,
  deleteAt: Date.now() + 60_000,
};

describe('a Redis value of another shape under our key', () => {
  it.each(['{}', '"text"', '42', 'null'])('%s is no entry, and storing over it replaces it', async (held) => {
    const redis = redisHolding(held);
    const store = sharedCacheStore(redis, new cacheStores.MemoryCacheStore(CACHE_LIMITS), 'test');
    expect(await store.get(key)).toBeUndefined();
    const stream = store.createWriteStream(key, value)!;
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.end(Buffer.from('{"success":true}'), () => resolve());
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
    expect(JSON.parse(redis.stored[0]!)).toEqual([expect.objectContaining({ statusCode: 200, method: 'GET' })]);
  });
});
