/**
 * The store behind undici's cache interceptor (RFC 9111): a bounded MemoryCacheStore, seen so that
 * - an error response (4xx, 5xx, 429 included) is never kept: RFC 9111 lets a cache keep one that
 *   carries explicit freshness (a CDN's cached 503 page), and a tool must never answer from it;
 * - every response it hands back carries a marker header, so the client can tell a hit of this cache
 *   from a network answer (a CDN sends `Age` too); drawn per process, so no API can forge a hit;
 * - every answer is kept LAST_ANSWER_MAX_AGE_S, however short its freshness (within the store's own
 *   bounds, which evict as before), so that when the API cannot answer, a last-answer read (below)
 *   finds it. An answer that states no freshness at all is kept too (undici's `cacheByDefault`), but
 *   stale from the start: it is never a hit, only a last answer.
 * Upstream, an option to keep errors out and a documented sign of a hit would retire this wrapper.
 */
import type { interceptors } from 'undici';
import type { NoAnswerKind } from '../contract/provenance.js';
import { nodeCrypto } from '../lib/builtins.js';

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
let marker: string | undefined;
/** This process's own, made when the cache first answers (lib/builtins.ts says why not at start). */
const MARKER = () => (marker ??= nodeCrypto().randomUUID());

const mark = (result: GetResult | undefined) =>
  result && { ...result, headers: { ...result.headers, [MARKER_HEADER]: MARKER() } };

/**
 * How old a kept answer may be and still stand in for one the API could not give: a day. Job data is
 * dated in days (last_seen, generated_at, a weekly market map), so a day-old answer, dated, says more
 * than an error; past a day, whether a posting is still open is too uncertain to repeat it.
 */
export const LAST_ANSWER_MAX_AGE_S = 86_400;
const LAST_ANSWER_MAX_AGE_MS = LAST_ANSWER_MAX_AGE_S * 1000;
/** How long an entry is kept: a minute past that age, so that the age, not the store's expiry, decides. */
const KEPT_MS = LAST_ANSWER_MAX_AGE_MS + 60_000;

/**
 * The request header of a last-answer read: only a stored answer (RFC 9111 only-if-cached; undici
 * answers 504 itself when there is none), however stale, within the age above.
 */
export const LAST_ANSWER_READ = `only-if-cached, max-stale=${LAST_ANSWER_MAX_AGE_S}`;

/** The freshness the interceptor gives an answer that states none (`cacheByDefault`, in ms): the entry's span. */
export const UNSTATED_FRESHNESS_MS = LAST_ANSWER_MAX_AGE_MS;

/** Whether the API said anything of the answer's freshness (undici's own test for caching it). */
const statesFreshness = (headers: CacheValue['headers']) =>
  ['cache-control', 'expires', 'last-modified'].some((name) => headers[name] !== undefined);

/** Kept for a last-answer read; stale at once when the API stated no freshness. */
function keptLonger(value: CacheValue): CacheValue {
  if (!statesFreshness(value.headers)) return { ...value, staleAt: value.cachedAt, deleteAt: value.cachedAt + KEPT_MS };
  return { ...value, deleteAt: Math.max(value.deleteAt, value.cachedAt + KEPT_MS) };
}

/**
 * What a last-answer read may be given. Not an answer the API said must not be served stale
 * (no-cache, must-revalidate, proxy-revalidate, s-maxage: RFC 9111 §4.2.4). The one given is handed
 * over as fresh: undici revalidates a stale entry over the network even under only-if-cached, where
 * RFC 9111 §5.2.1.7 allows only a stored answer or a 504; honouring that upstream would retire this.
 */
function forLastAnswer(result: GetResult | undefined, now: number): GetResult | undefined {
  if (!result || now - result.cachedAt > LAST_ANSWER_MAX_AGE_MS) return undefined;
  const said = result.cacheControlDirectives ?? {};
  // A no-cache naming fields only strips them (undici did, when it stored the answer).
  if (
    said['no-cache'] === true ||
    said['must-revalidate'] ||
    said['proxy-revalidate'] ||
    said['s-maxage'] !== undefined
  )
    return undefined;
  return { ...result, staleAt: Infinity, deleteAt: Infinity };
}

/** `store` as the cache interceptor should see it (see above). */
export function markingStore(store: CacheStore): CacheStore {
  return {
    get(key: CacheKey) {
      const result = store.get(key);
      const seen =
        key.headers?.['cache-control'] === LAST_ANSWER_READ
          ? (found: GetResult | undefined) => mark(forLastAnswer(found, Date.now()))
          : mark;
      return result instanceof Promise ? result.then(seen) : seen(result);
    },
    createWriteStream: (key: CacheKey, value: CacheValue) =>
      value.statusCode >= 400 ? undefined : store.createWriteStream(key, keptLonger(value)),
    delete: (key: CacheKey) => store.delete(key),
  };
}

export interface CacheHit {
  hit: true;
  /** The age undici gives the stored answer, in seconds. */
  ageS: number;
  /** Set when the API could not answer and this stored answer stood in: its error's kind and message. */
  lastAnswer?: { kind: NoAnswerKind; message: string } | undefined;
}

/**
 * Set when the response came from this cache, else undefined. undici's cache interceptor documents
 * no sign of a hit (no option, handler or store hook tells the caller), so the store's marker is
 * read here, once per response, by send-loop.ts; everything else reads `RawResponse.cache`.
 */
export function cacheHitOf(headers: Pick<Headers, 'get'>): CacheHit | undefined {
  if (headers.get(MARKER_HEADER) !== MARKER()) return undefined;
  const age = Number(headers.get('age'));
  return { hit: true, ageS: Number.isFinite(age) && age >= 0 ? age : 0 };
}
