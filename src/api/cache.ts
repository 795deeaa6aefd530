/**
 * The store behind undici's cache interceptor (RFC 9111): a bounded MemoryCacheStore, seen so that
 * - an error response (4xx, 5xx, 429 included) is never kept: RFC 9111 lets a cache keep one that
 *   carries explicit freshness (a CDN's cached 503 page), and a tool must never answer from it;
 * - every response it hands back carries a marker header, so the client can tell a hit of this cache
 *   from a network answer (a CDN sends `Age` too); drawn per process, so no API can forge a hit.
 * Upstream, an option to keep errors out and a documented sign of a hit would retire this wrapper.
 */
import { randomUUID } from 'node:crypto';
import type { interceptors } from 'undici';

export type CacheStore = NonNullable<NonNullable<Parameters<typeof interceptors.cache>[0]>['store']>;
export type CacheKey = Parameters<CacheStore['get']>[0];
export type CacheValue = Parameters<CacheStore['createWriteStream']>[1];
export type GetResult = NonNullable<Awaited<ReturnType<CacheStore['get']>>>;

/** Small on purpose: the cache is for repeated questions within a conversation, not a mirror. */
export const CACHE_LIMITS = {
  maxCount: 256,
  maxSize: 8 * 1024 * 1024,
  /** A larger body is not cached at all. */
  maxEntrySize: 1024 * 1024,
};

const MARKER_HEADER = 'x-service-mcp-cache';
const MARKER = randomUUID();

const mark = (result: GetResult | undefined) =>
  result && { ...result, headers: { ...result.headers, [MARKER_HEADER]: MARKER } };

/** `store` as the cache interceptor should see it (see above). */
export function markingStore(store: CacheStore): CacheStore {
  return {
    get(key: CacheKey) {
      const result = store.get(key);
      return result instanceof Promise ? result.then(mark) : mark(result);
    },
    createWriteStream: (key: CacheKey, value: CacheValue) =>
      value.statusCode >= 400 ? undefined : store.createWriteStream(key, value),
    delete: (key: CacheKey) => store.delete(key),
  };
}

export interface CacheHit {
  hit: true;
  /** The age undici gives the stored answer, in seconds. */
  ageS: number;
}

/**
 * Set when the response came from this cache, else undefined. undici's cache interceptor documents
 * no sign of a hit (no option, handler or store hook tells the caller), so the store's marker is
 * read here, once per response, by send-loop.ts; everything else reads `RawResponse.cache`.
 */
export function cacheHitOf(headers: Pick<Headers, 'get'>): CacheHit | undefined {
  if (headers.get(MARKER_HEADER) !== MARKER) return undefined;
  const age = Number(headers.get('age'));
  return { hit: true, ageS: Number.isFinite(age) && age >= 0 ? age : 0 };
}
