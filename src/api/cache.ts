/**
 * The in-memory response cache: undici's own RFC 9111 cache interceptor (Cache-Control, Expires,
 * ETag/If-None-Match revalidation) over a bounded MemoryCacheStore. Three additions:
 * - how a hit is recognised: the store marks what it hands back, so a response served from this
 *   cache (fresh, or revalidated with a 304) carries a marker header. An `Age` header alone would
 *   not do: a CDN in front of the API sends one too.
 * - network responses lose any header by the marker's names, so an API cannot forge a hit;
 * - error responses are never stored, whatever their headers say.
 */
import type { cacheStores, Dispatcher, interceptors } from 'undici';
import { deferWrites } from './cache-writes.js';

export type Store = InstanceType<typeof cacheStores.MemoryCacheStore>;
export type CacheKey = Parameters<Store['get']>[0];
export type CacheValue = Parameters<Store['createWriteStream']>[1];
type GetResult = NonNullable<Awaited<ReturnType<Store['get']>>>;

/** Internal headers on responses served from this cache; never sent anywhere. */
export const CACHE_MARKER_HEADER = 'x-service-mcp-cache';
const INTERNAL_HEADERS = [CACHE_MARKER_HEADER];

const withoutInternal = <T extends Record<string, unknown>>(headers: T): T => {
  if (!INTERNAL_HEADERS.some((name) => name in headers)) return headers;
  const copy = { ...headers };
  for (const name of INTERNAL_HEADERS) delete copy[name];
  return copy;
};

export interface CacheLimits {
  /** Most responses kept. */
  maxCount: number;
  /** Most body bytes kept in all. */
  maxSize: number;
  /** A larger body is not cached at all. */
  maxEntrySize: number;
}

/** Small on purpose: the cache is for repeated questions within a conversation, not a mirror. */
export const DEFAULT_CACHE_LIMITS: CacheLimits = { maxCount: 256, maxSize: 8 * 1024 * 1024, maxEntrySize: 1024 * 1024 };

function mark(result: GetResult): GetResult {
  return { ...result, headers: { ...result.headers, [CACHE_MARKER_HEADER]: 'hit' } };
}

/** Wraps a store so that every entry it hands back is marked, and no marker is ever stored. */
export function markingStore(store: Store): Store {
  return {
    get(key: CacheKey) {
      const result = store.get(key);
      if (result && typeof (result as Promise<unknown>).then === 'function') return (result as Promise<GetResult | undefined>).then((r) => (r ? mark(r) : r));
      return result ? mark(result as GetResult) : result;
    },
    createWriteStream(key: CacheKey, value: CacheValue) {
      // On a 304 undici stores the cached headers again, marker included; keep the store clean.
      return store.createWriteStream(key, { ...value, headers: withoutInternal(value.headers) });
    },
    delete: (key: CacheKey) => store.delete(key),
  } as Store;
}

type Handler = Dispatcher.DispatchHandler;
type Controller = Dispatcher.DispatchController;

/**
 * Sits between the cache and the network. An error status (4xx, 5xx, 429 included) is marked
 * `no-store`: RFC 9111 lets a cache keep an error that carries explicit freshness (a CDN's cached
 * 404 or 503 page), and a tool must never answer from one. And the marker headers are removed, so
 * only this cache can set them.
 */
class FromNetwork implements Handler {
  constructor(private readonly handler: Handler) {}
  onRequestStart(controller: Controller, context: unknown) {
    this.handler.onRequestStart?.(controller, context);
  }
  onRequestUpgrade(controller: Controller, statusCode: number, headers: Parameters<NonNullable<Handler['onRequestUpgrade']>>[2], socket: Parameters<NonNullable<Handler['onRequestUpgrade']>>[3]) {
    this.handler.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }
  onResponseStart(controller: Controller, statusCode: number, headers: Parameters<NonNullable<Handler['onResponseStart']>>[2], statusMessage?: string) {
    headers = withoutInternal(headers);
    if (statusCode >= 400) {
      const { expires: _expires, ...rest } = headers;
      headers = { ...rest, 'cache-control': 'no-store' };
    }
    this.handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }
  onResponseData(controller: Controller, chunk: Buffer) {
    this.handler.onResponseData?.(controller, chunk);
  }
  onResponseEnd(controller: Controller, trailers: Parameters<NonNullable<Handler['onResponseEnd']>>[1]) {
    this.handler.onResponseEnd?.(controller, trailers);
  }
  onResponseError(controller: Controller, error: Error) {
    this.handler.onResponseError?.(controller, error);
  }
  onResponseStarted() {
    this.handler.onResponseStarted?.();
  }
  onBodySent(chunk: Buffer) {
    this.handler.onBodySent?.(chunk);
  }
  onRequestSent() {
    this.handler.onRequestSent?.();
  }
}

const fromNetwork: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (options, handler) => dispatch(options, new FromNetwork(handler));

/** The dispatcher with the cache interceptor composed onto it (see FromNetwork for what reaches it). */
export function withResponseCache(undici: { cacheStores: Pick<typeof cacheStores, 'MemoryCacheStore'>; interceptors: Pick<typeof interceptors, 'cache'> }, dispatcher: Dispatcher, limits: CacheLimits = DEFAULT_CACHE_LIMITS): Dispatcher {
  const store = markingStore(deferWrites(new undici.cacheStores.MemoryCacheStore(limits), limits.maxEntrySize));
  // 'shared': HTTP mode answers many clients from one cache, so `private` responses stay out of it.
  return dispatcher.compose(fromNetwork).compose(undici.interceptors.cache({ store, methods: ['GET'], type: 'shared' }));
}

/** `{ hit: true, ageS }` when the response came from this cache, else undefined. */
export function cacheHitOf(headers: Pick<Headers, 'get'>): { hit: true; ageS: number } | undefined {
  if (headers.get(CACHE_MARKER_HEADER) !== 'hit') return undefined;
  const age = Number(headers.get('age'));
  return { hit: true, ageS: Number.isFinite(age) && age >= 0 ? age : 0 };
}
