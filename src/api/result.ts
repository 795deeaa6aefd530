/** What the API client hands back: a call's validated data with what is known of its answer. */
import type { CacheHit } from './cache.js';
import type { CatalogCheck } from './deployed-catalog.js';
import type { OperationId } from '../contract/operations.js';
import type { ResponseMeta } from '../contract/schemas.js';

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
