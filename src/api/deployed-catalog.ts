/**
 * The deployed catalog: the spec says to call discovery before assuming an endpoint exists. The
 * client reads it, keeps it as long as its cache headers say, and refuses at once an operation it
 * does not list. Reading it never holds a tool up for long: when discovery fails or the API is
 * cooling down, tools carry on unchecked (and say so), and discovery is not asked again for a while.
 * A catalog read by an earlier run is kept in the user's cache directory and taken up for as long as
 * its cache headers allowed (as a browser's disk cache would), so that a first call right after a
 * start does not wait a round trip for the catalog.
 */
import { ApiError } from '../contract/errors.js';
import { raceAbort } from '../lib/abort.js';
import { describeOperation, OPERATIONS, type OperationId } from '../contract/operations.js';
import type { DiscoveryData } from '../contract/schemas.js';
import type { KeptFile } from '../lib/kept-file.js';
import { parseKept, type Endpoint, type KeptCatalog } from './kept-catalog.js';

export type CatalogCheck = { checked: true } | { checked: false; reason: string };

/** Without freshness information, how long a catalog is kept (RFC 9111 lets a cache choose). */
const DEFAULT_CATALOG_FRESHNESS_S = 300;
/** The longest a catalog is kept, whatever the headers say: a deploy should reach us within the hour. */
const MAX_CATALOG_FRESHNESS_S = 3_600;
/** After a failed read, how long tools go unchecked before discovery is asked again. */
export const CATALOG_RETRY_S = 30;
/** Most endpoints named in a not_deployed error; the rest are counted. */
const LISTED_IN_ERROR = 12;

/**
 * A path as compared: no origin, query or trailing slash, the base URL's own path removed, every path
 * parameter `{}`.
 */
function comparable(path: string, basePath: string): string {
  let p = path.trim();
  if (/^https?:\/\//i.test(p)) p = URL.canParse(p) ? new URL(p).pathname : p;
  p = p.split(/[?#]/, 1)[0]!.replace(/\/+$/, '') || '/';
  if (basePath !== '' && p.startsWith(`${basePath}/`)) p = p.slice(basePath.length);
  // {jobId}, {job_id} and :jobId all name a parameter.
  return p.replace(/\/(?:\{[^/}]*\}|:[A-Za-z_]\w*)(?=\/|$)/g, '/{}');
}

export function operationOf(endpoint: Endpoint, basePath: string): OperationId | undefined {
  const methods = endpoint.method.toUpperCase().split(/[^A-Z]+/);
  const path = comparable(endpoint.path, basePath);
  for (const [id, op] of Object.entries(OPERATIONS) as Array<[OperationId, (typeof OPERATIONS)[OperationId]]>) {
    if (methods.includes(op.method) && comparable(op.path, '') === path) return id;
  }
  return undefined;
}

/** Seconds a discovery answer stays fresh, by its Cache-Control (less its Age) or Expires. */
export function freshnessS(headers: Pick<Headers, 'get'>, now: number = Date.now()): number {
  const directives = (headers.get('cache-control') ?? '')
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  const age = Number(headers.get('age') ?? 0) || 0;
  let seconds: number | undefined;
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) seconds = 0;
  else {
    const maxAge = directives.find((d) => d.startsWith('max-age='));
    if (maxAge && /^\d+$/.test(maxAge.slice(8))) seconds = Number(maxAge.slice(8)) - age;
    else if (headers.get('expires') !== null) {
      const expires = Date.parse(headers.get('expires')!);
      const date = Date.parse(headers.get('date') ?? '');
      seconds = Number.isNaN(expires) ? 0 : (expires - (Number.isNaN(date) ? now : date)) / 1000 - age;
    }
  }
  return Math.min(MAX_CATALOG_FRESHNESS_S, Math.max(0, Math.floor(seconds ?? DEFAULT_CATALOG_FRESHNESS_S)));
}

export interface CatalogRead {
  data: DiscoveryData;
  headers: Pick<Headers, 'get'>;
}

export interface DeployedCatalogOptions {
  /** Reads discovery once, briefly bounded and without waiting out a 429. */
  read: () => Promise<CatalogRead>;
  /** False while the API is cooling down after a 429: discovery is not asked then either. */
  mayRead: () => boolean;
  /** The base URL's own path, which catalog paths may or may not include. */
  basePath: string;
  onUnchecked?: (reason: string, forS: number) => void;
  /** Where the catalog is kept for the next run (lib/kept-file.ts). */
  kept?: KeptFile | undefined;
  now?: () => number;
}

interface Known {
  listed: ReadonlySet<OperationId>;
  endpoints: readonly Endpoint[];
  freshUntil: number;
  /** Read by an earlier run and taken from its file. */
  kept: boolean;
}

export class DeployedCatalog {
  private known: Known | undefined;
  private failedUntil = 0;
  private failure = '';
  private learnedAt: number | undefined;
  private reading: Promise<Known | undefined> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: DeployedCatalogOptions) {
    this.now = options.now ?? (() => Date.now());
    // An earlier run's catalog, while its headers keep it fresh (a freshness beyond the longest we
    // allow, or a read in the future, says the clock moved: not taken).
    const kept = parseKept(options.kept?.read());
    const now = this.now();
    if (kept && kept.at <= now && now < kept.freshUntil && kept.freshUntil - kept.at <= MAX_CATALOG_FRESHNESS_S * 1000)
      this.take(kept, true);
  }

  /** Takes in a discovery answer (the discover_api tool's, or our own read). */
  learn({ data, headers }: CatalogRead): Known {
    const endpoints = data.endpoints.map(({ method, path }) => ({ method, path }));
    const at = this.now();
    const known = this.take({ endpoints, at, freshUntil: at + freshnessS(headers, at) * 1000 }, false);
    this.options.kept?.write(JSON.stringify({ endpoints, at, freshUntil: known.freshUntil }));
    return known;
  }

  private take({ endpoints, at, freshUntil }: KeptCatalog, kept: boolean): Known {
    const listed = new Set(
      endpoints.map((e) => operationOf(e, this.options.basePath)).filter((id): id is OperationId => id !== undefined),
    );
    this.failedUntil = 0;
    this.learnedAt = at;
    return (this.known = { listed, endpoints, freshUntil, kept });
  }

  /**
   * Whether `id` may be called: `checked` when the deployed catalog lists it, unchecked (with the
   * reason) when the catalog could not be read; throws `not_deployed` when it does not list it.
   */
  async check(id: OperationId, signal?: AbortSignal): Promise<CatalogCheck> {
    let known = this.fresh();
    if (!known) {
      const reading = this.read();
      if (typeof reading === 'string') return { checked: false, reason: reading };
      // Concurrent calls share one read; each waits for it only as long as its own signal allows.
      known = await raceAbort(reading, signal);
      if (!known) return { checked: false, reason: this.failure };
    }
    // A catalog that names none of the operations we know is one we cannot read, not an empty API.
    if (![...known.listed].some((listed) => listed !== 'discoverPublicApi')) {
      return {
        checked: false,
        reason: 'the catalog lists none of the operations this client knows, so it was not relied on',
      };
    }
    if (known.listed.has(id)) return { checked: true };
    throw notDeployed(id, known.endpoints);
  }

  /**
   * Reads the catalog ahead of the first call that needs it (a server starts it at start): a call
   * then finds it read, or being read, instead of waiting a round trip more for it. It reads even
   * while an earlier run's copy is fresh (which calls take meanwhile, without waiting): the read
   * opens the connection the first call then finds open, which over a real network saves that
   * call the handshakes, and it renews the kept copy.
   */
  readAhead(): void {
    void this.read();
  }

  private fresh(): Known | undefined {
    return this.known !== undefined && this.now() < this.known.freshUntil ? this.known : undefined;
  }

  /** The read under way, or a new one; or why discovery is not asked now. Never rejects. */
  private read(): Promise<Known | undefined> | string {
    if (this.now() < this.failedUntil) return this.failure;
    if (!this.options.mayRead()) return 'the API asked for a pause (429), so discovery was not asked either';
    return (this.reading ??= this.refresh().finally(() => (this.reading = undefined)));
  }

  /** Whether the deployed catalog was read, when last, and why not when its last read failed. */
  state(): { read: boolean; at?: number; kept?: boolean; failure?: string } {
    const failing = this.now() < this.failedUntil;
    return {
      read: this.known !== undefined,
      ...(this.known?.kept ? { kept: true } : {}),
      ...(this.learnedAt === undefined ? {} : { at: this.learnedAt }),
      ...(failing ? { failure: this.failure } : {}),
    };
  }

  private async refresh(): Promise<Known | undefined> {
    try {
      return this.learn(await this.options.read());
    } catch (error) {
      // Not asked again for a while (a 429's own Retry-After when longer): never hammer a failing API.
      const seconds =
        error instanceof ApiError && error.kind === 'rate_limited'
          ? Math.max(CATALOG_RETRY_S, error.retryAfterS ?? 0)
          : CATALOG_RETRY_S;
      // A renewal that fails leaves a catalog that is still fresh (an earlier run's) in use.
      if (!this.fresh()) this.known = undefined;
      this.failure = `discovery failed (${error instanceof ApiError ? error.kind : 'unexpected error'})`;
      this.failedUntil = this.now() + seconds * 1000;
      this.options.onUnchecked?.(this.failure, seconds);
      return undefined;
    }
  }
}

function notDeployed(id: OperationId, endpoints: readonly Endpoint[]): ApiError {
  const named = endpoints
    .slice(0, LISTED_IN_ERROR)
    .map((e) => JSON.stringify(`${e.method.slice(0, 10)} ${e.path.slice(0, 100)}`));
  const more = endpoints.length > LISTED_IN_ERROR ? ` and ${endpoints.length - LISTED_IN_ERROR} more` : '';
  return new ApiError(
    'not_deployed',
    `not_deployed: the deployed catalog (GET ${OPERATIONS.discoverPublicApi.path}) does not list ${describeOperation(id)} (${id}), so nothing was sent to it; it lists ${endpoints.length === 0 ? 'no endpoints' : `${named.join(', ')}${more}`}`,
    { path: OPERATIONS[id].path },
  );
}
