/**
 * Every answer the client reads becomes an ApiResult here, remembering whether the API has ever
 * said its data is fictional; and the counts check_api_health reports.
 */
import type { CatalogCheck } from './deployed-catalog.js';
import { sourceSaysFictional } from './provenance-record.js';
import type { RawResponse } from './fetch-like.js';
import type { ApiResult } from './result.js';
import type { ResponseMeta } from '../contract/schemas.js';

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
