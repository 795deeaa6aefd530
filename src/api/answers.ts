/**
 * What the API client hands back (ApiResult: a call's validated data with what is known of its
 * answer): every answer the client reads becomes one here, remembering whether the API has ever
 * said its data is fictional; and the counts check_api_health reports.
 */
import type { OperationId } from '../contract/operations.js';
import { sourceSaysFictional } from '../contract/provenance.js';
import type { ResponseMeta } from '../contract/schemas.js';
import type { CacheHit } from './cache.js';
import type { CatalogCheck } from './deployed-catalog.js';
import type { RawResponse } from './fetch-like.js';

export interface ApiResult<T> {
  data: T;
  meta: ResponseMeta;
  /** The HTTP status the API answered with (health: 200 or 503). */
  status: number;
  /** The request path and query (no origin). */
  path: string;
  /** When this client received the response (ISO 8601, UTC). */
  retrievedAt: string;
  /** Set when the response came from the response cache. */
  cache?: CacheHit | undefined;
  /** The origin that answered, when redirects led away from the base URL's. */
  answeredBy?: string | undefined;
  /** Whether the deployed catalog was read and lists the operation (absent for discovery itself). */
  catalog?: CatalogCheck | undefined;
  /**
   * The API has said, in this answer's or an earlier one's meta.source (discovery's included), that
   * its data is fictional.
   */
  fictional?: boolean | undefined;
  /** Discovery only: which operation of this client each catalog endpoint is, in the catalog's order. */
  endpointOperations?: Array<OperationId | undefined> | undefined;
}

export class Answers {
  /** Answers read since start, and how many of them the response cache gave. */
  count = 0;
  cacheHits = 0;
  /** What the API says of itself holds for its health too, so it is remembered. */
  private saidFictional = false;

  constructor(
    /** The base URL's origin followed by a slash. */
    private readonly ownOrigin: string,
    private readonly now: () => number,
  ) {}

  result<T>(data: T, meta: ResponseMeta, raw: RawResponse, path: string, catalog?: CatalogCheck): ApiResult<T> {
    this.count++;
    if (raw.cache) this.cacheHits++;
    const elsewhere = raw.url !== '' && !raw.url.startsWith(this.ownOrigin);
    this.saidFictional ||= sourceSaysFictional(meta.source);
    return {
      data,
      meta,
      status: raw.status,
      path,
      retrievedAt: new Date(this.now()).toISOString(),
      ...(raw.cache ? { cache: raw.cache } : {}),
      ...(elsewhere ? { answeredBy: new URL(raw.url).origin } : {}),
      ...(this.saidFictional ? { fictional: true } : {}),
      ...(catalog ? { catalog } : {}),
    };
  }
}
