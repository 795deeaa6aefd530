/**
 * The seam the client sends requests through: undici in production (dispatcher.ts), the
 * in-process offline API, msw in tests.
 */
import type { CacheHit } from './cache.js';

/** What the client reads of an answer. A Fetch Response is one; so is the production fetch's. */
export interface HttpAnswer {
  status: number;
  /** Where the answer came from, after any redirects ('' when unknown). */
  url: string;
  headers: Pick<Headers, 'get'>;
  /** Stopping an iteration early must cancel the body (a Fetch body and a Node Readable both do). */
  body: AsyncIterable<Uint8Array> | null;
}

/** An answer read whole: what the client's send loop hands on to be checked and parsed. */
export interface RawResponse {
  status: number;
  body: string;
  headers: Pick<Headers, 'get'>;
  url: string;
  /** Set when the response cache answered (the one place its marker is read: cache.ts). */
  cache?: CacheHit | undefined;
}

/** The fetch the client GETs with; each must end the request, body included, when `init.signal` aborts. */
export type FetchLike = ((url: string, init: FetchInit) => Promise<HttpAnswer>) & {
  /**
   * The response cache's own answer to this request, however stale (within cache.ts's last-answer
   * age), sending nothing: a marked hit, or an answer that is none. Absent, or undefined, where there
   * is no cache (--no-cache, the offline API, tests' fetches).
   */
  lastAnswer?: ((url: string, init: FetchInit) => Promise<HttpAnswer | undefined>) | undefined;
};

interface FetchInit extends RequestInit {
  /** On whose share of upstream requests this one goes (fair-share.ts); only the production fetch reads it. */
  caller?: string | undefined;
}
