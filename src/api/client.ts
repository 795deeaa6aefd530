/**
 * One typed method per REST operation of the public read API. Knows nothing of MCP: it returns
 * validated data with its meta, or throws an ApiError with a stable kind.
 */
import { z } from 'zod';
import { isRecord } from '../is-record.js';
import { USER_AGENT } from '../version.js';
import { silentLogger, type Logger, type LogSink } from '../log.js';
import { DEFAULT_MAX_BODY_BYTES, jsonTooDeep, MAX_JSON_DEPTH, readBody } from './body.js';
import { cacheHitOf } from './cache.js';
import { DeployedCatalog, operationOf, type CatalogCheck } from './catalog.js';
import { passes } from './compiled.js';
import { ApiError, describeNetworkCause, internalError, isTransportFailure, kindForStatus } from './errors.js';
import { MAX_RETRY_AFTER_S, parseRetryAfter, RequestEnded, RetryAfterGate, sleep, withDeadline, type FetchLike, type GateWaitInfo } from './http.js';
import {
  DiscoveryDataSchema,
  envelopeOf,
  ErrorEnvelopeSchema,
  formatJsonPath,
  HealthResponseSchema,
  InterviewBriefDataSchema,
  JobListDataSchema,
  MarketMapDataSchema,
  PublicJobSchema,
  ResponseMetaSchema,
  type DiscoveryData,
  type HealthResponse,
  type InterviewBriefData,
  type JobListData,
  type MarketMapData,
  type PublicJob,
  type ResponseMeta,
} from './schemas.js';
import { OPERATIONS, type OperationId } from './operations.js';

interface GetOptions {
  /** A status (besides 2xx) whose body is an answer, not an error: health's 503. */
  acceptStatus?: (status: number) => boolean;
  /** The request asks for one record (a job, a company's brief): only then is a 404 `not_found`. */
  lookup?: boolean;
  gate?: RetryAfterGate;
  /** The operation, checked against the deployed catalog before anything is sent (discovery itself is not). */
  operation?: OperationId;
  /** One quick attempt: no wait for a Retry-After, no retry of a 503, this deadline instead of the client's. */
  quickMs?: number;
}
/** How long a tool call may wait for the catalog read before it: discovery is one small document. */
const CATALOG_TIMEOUT_MS = 5_000;
/** The pause after a 429 that names no (readable) Retry-After. */
const DEFAULT_429_PAUSE_S = 5;

export interface JobListParams {
  q?: string | undefined;
  domain?: 'ai' | 'web3' | undefined;
  skills?: readonly string[] | undefined;
  seniority_level?: string | undefined;
  remote_only?: boolean | undefined;
  location_country?: string | undefined;
  page?: number | undefined;
  per_page?: number | undefined;
  include_predicted_salaries?: boolean | undefined;
}

export interface SearchJobsParams extends JobListParams {
  skill_match?: 'any' | 'all' | undefined;
  company_type?: string | undefined;
  min_salary_usd?: number | undefined;
  max_salary_usd?: number | undefined;
}

export interface MarketMapParams {
  status?: 'all' | 'ready' | 'partial' | 'missing' | 'error' | undefined;
  layer?: string | undefined;
}

export type InterviewBriefParams = { company_id?: string | undefined; slug?: string | undefined; name?: string | undefined };

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Told when the call starts waiting out a Retry-After, so callers can report progress. */
  onWait?: ((info: GateWaitInfo) => void) | undefined;
  /** Also told every line logged for this call (the MCP layer forwards them to the calling client). */
  logSink?: LogSink | undefined;
}

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
  cache?: { hit: boolean; ageS: number } | undefined;
  /** The origin that answered, when redirects led away from the base URL's. */
  answeredBy?: string | undefined;
  /** Whether the deployed catalog was read and lists the operation (absent for discovery itself). */
  catalog?: CatalogCheck | undefined;
  /** Discovery only: which operation of this client each catalog endpoint is, in the catalog's order. */
  endpointOperations?: Array<OperationId | undefined> | undefined;
}

export interface ApiClientOptions {
  baseUrl: string;
  fetch: FetchLike;
  timeoutMs?: number;
  maxRetryWaitS?: number;
  maxBodyBytes?: number;
  /** 503 handling: retries after the first attempt, and the total time they may take. */
  unavailableRetries?: number;
  unavailableBudgetMs?: number;
  logger?: Logger;
  /** Shared Retry-After gate; one per process unless a test wants its own. */
  gate?: RetryAfterGate;
  /**
   * Check each operation against the deployed catalog (catalog.ts) before calling it. The backend
   * turns it on; off, every request the client sends is one its caller asked for (request-level tests).
   */
  checkCatalog?: boolean;
  random?: () => number;
}

type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

/** Serializes a query: undefined omitted, arrays comma-joined, booleans as true/false. */
export function buildQuery(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      params.append(key, value.join(','));
    } else {
      params.append(key, String(value));
    }
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

interface RawResponse {
  status: number;
  body: string;
  headers: Pick<Headers, 'get'>;
  url: string;
}

/** Envelope schemas, built once per data schema: zod compiles a schema on first use, so a fresh one per call costs every call. */
const envelopes = new WeakMap<z.ZodType, z.ZodType>();
function envelopeSchema<T extends z.ZodType>(data: T): ReturnType<typeof envelopeOf<T>> {
  let schema = envelopes.get(data);
  if (!schema) envelopes.set(data, (schema = envelopeOf(data)));
  return schema as ReturnType<typeof envelopeOf<T>>;
}

export class ApiClient {
  readonly baseUrl: string;
  private readonly fetchImpl: FetchLike;
  private readonly timeoutMs: number;
  private readonly maxRetryWaitS: number;
  private readonly maxBodyBytes: number;
  private readonly unavailableRetries: number;
  private readonly unavailableBudgetMs: number;
  private readonly logger: Logger;
  private readonly gate: RetryAfterGate;
  private readonly random: () => number;
  /** The base URL's origin followed by a slash: an answer from elsewhere is named in the result. */
  private readonly ownOrigin: string;
  /** The base URL's origin, and its own path: every path the client names starts with the latter. */
  private readonly origin: string;
  private readonly basePath: string;
  /** The health probe's own cool-down: the probe the error hints point to is never held by another endpoint's. */
  private readonly healthGate = new RetryAfterGate();
  /** Discovery's own, for the catalog reads: a 429 there must not hold the tools. */
  private readonly catalogGate = new RetryAfterGate();
  private readonly catalog: DeployedCatalog | undefined;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxRetryWaitS = options.maxRetryWaitS ?? 20;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.unavailableRetries = options.unavailableRetries ?? 2;
    this.unavailableBudgetMs = options.unavailableBudgetMs ?? 5_000;
    this.logger = options.logger ?? silentLogger;
    this.gate = options.gate ?? new RetryAfterGate();
    this.random = options.random ?? Math.random;
    const base = new URL(this.baseUrl);
    this.origin = base.origin;
    this.ownOrigin = `${base.origin}/`;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.catalog = options.checkCatalog !== true ? undefined : new DeployedCatalog({
      basePath: this.basePath,
      read: () => this.readCatalog(),
      mayRead: () => this.gate.idle(),
      onUnchecked: (reason, forS) => this.logger.info(`deployed catalog not read: ${reason}; tools run unchecked for ${forS} s`),
    });
  }

  async discover(options?: CallOptions): Promise<ApiResult<DiscoveryData>> {
    const { result, headers } = await this.getEnvelopeWithHeaders(OPERATIONS.discoverPublicApi.path, DiscoveryDataSchema, options);
    this.catalog?.learn({ data: result.data, headers });
    return { ...result, endpointOperations: result.data.endpoints.map((endpoint) => operationOf(endpoint, this.basePath)) };
  }

  /**
   * Discovery for the catalog check: briefly bounded, never waiting out a 429. It passes the tools'
   * gate without waiting (a cool-down another replica shares through Redis holds it too), but its
   * own 429 holds only its own gate, never the tools.
   */
  private async readCatalog(): Promise<{ data: DiscoveryData; headers: Pick<Headers, 'get'> }> {
    const ticket = this.gate.open() ?? (await this.gate.pass({ maxWaitS: 0 }));
    try {
      const { result, headers } = await this.getEnvelopeWithHeaders(OPERATIONS.discoverPublicApi.path, DiscoveryDataSchema, {}, { gate: this.catalogGate, quickMs: Math.min(this.timeoutMs, CATALOG_TIMEOUT_MS) });
      return { data: result.data, headers };
    } finally {
      ticket.settle();
    }
  }

  searchJobs(params: SearchJobsParams = {}, options?: CallOptions): Promise<ApiResult<JobListData>> {
    const { q, domain, skills, skill_match, company_type, seniority_level, remote_only, location_country, min_salary_usd, max_salary_usd, page, per_page, include_predicted_salaries } = params;
    const query = buildQuery({ q, domain, skills, skill_match, company_type, seniority_level, remote_only, location_country, min_salary_usd, max_salary_usd, page, per_page, include_predicted_salaries });
    return this.getEnvelope(`${OPERATIONS.searchPublicJobs.path}${query}`, JobListDataSchema, options, { operation: 'searchPublicJobs' });
  }

  listJobs(params: JobListParams = {}, options?: CallOptions): Promise<ApiResult<JobListData>> {
    const { q, domain, skills, seniority_level, remote_only, location_country, page, per_page, include_predicted_salaries } = params;
    const query = buildQuery({ q, domain, skills, seniority_level, remote_only, location_country, page, per_page, include_predicted_salaries });
    return this.getEnvelope(`${OPERATIONS.listPublicJobs.path}${query}`, JobListDataSchema, options, { operation: 'listPublicJobs' });
  }

  getJob(jobId: string, params: { include_predicted_salaries?: boolean | undefined } = {}, options?: CallOptions): Promise<ApiResult<PublicJob>> {
    // '' would address the job list, and '.' / '..' are dot segments that URL parsing resolves
    // away (encoding cannot help: %2e counts as a dot), reaching discovery. Refuse, don't send.
    if (jobId === '' || jobId === '.' || jobId === '..') {
      return Promise.reject(new ApiError('invalid_argument', `invalid_argument: job_id ${JSON.stringify(jobId)} is not a job identifier`, { path: OPERATIONS.getPublicJob.path }));
    }
    const query = buildQuery({ include_predicted_salaries: params.include_predicted_salaries });
    return this.getEnvelope(`${OPERATIONS.getPublicJob.path.replace('{jobId}', () => encodeURIComponent(jobId))}${query}`, PublicJobSchema, options, { lookup: true, operation: 'getPublicJob' });
  }

  getMarketMap(params: MarketMapParams = {}, options?: CallOptions): Promise<ApiResult<MarketMapData>> {
    return this.getEnvelope(`${OPERATIONS.getPublicMarketMap.path}${buildQuery({ status: params.status, layer: params.layer })}`, MarketMapDataSchema, options, { operation: 'getPublicMarketMap' });
  }

  getCompanyInterviewBrief(params: InterviewBriefParams, options?: CallOptions): Promise<ApiResult<InterviewBriefData>> {
    const query = buildQuery({ company_id: params.company_id, slug: params.slug, name: params.name });
    return this.getEnvelope(`${OPERATIONS.getCompanyInterviewBrief.path}${query}`, InterviewBriefDataSchema, options, { lookup: true, operation: 'getCompanyInterviewBrief' });
  }

  /** Health: the 200 and the 503 body are both the health response, never an error. */
  async getHealth(options?: CallOptions): Promise<ApiResult<HealthResponse>> {
    const path = `${this.basePath}${OPERATIONS.getHostedMcpHealth.path}`;
    const catalog = this.catalog ? await this.checkCatalog('getHostedMcpHealth', path, options) : undefined;
    const raw = await this.get(path, 'application/json', options, { acceptStatus: (status) => status === 503, gate: this.healthGate });
    try {
      const body = parseJson(raw, path);
      // Tolerate a health body wrapped in the success envelope as well as the bare form.
      const wrapped = isRecord(body) && body.success === true && isRecord(body.data) && 'probes' in body.data;
      const data = validate(HealthResponseSchema, wrapped ? body.data : body, path, wrapped ? 'data' : '');
      const meta = wrapped ? validate(ResponseMetaSchema, (body as Record<string, unknown>).meta ?? {}, path, 'meta') : {};
      return { data, meta, status: raw.status, path, retrievedAt: new Date().toISOString(), ...this.answerMembers(raw), ...(catalog ? { catalog } : {}) };
    } catch (error) {
      // Status before body: a 503 that is not the health response (a proxy's error page, an error
      // envelope) is the API being unavailable, not an API breaking its contract.
      if (raw.status === 503) throw statusError(raw, path, 0, undefined, error);
      throw error;
    }
  }

  /** The OpenAPI 3.1 description, as JSON. */
  async getOpenApi(options?: CallOptions): Promise<Record<string, unknown>> {
    const path = `${this.basePath}/openapi.json`;
    const body = parseJson(await this.get(path, 'application/json', options), path);
    if (!isRecord(body)) throw contractError(path, '(root)', 'expected a JSON object');
    return body;
  }

  /** The agent index, as text. */
  async getLlmsTxt(options?: CallOptions): Promise<string> {
    return (await this.get(`${this.basePath}/llms.txt`, 'text/plain, text/markdown;q=0.9', options)).body;
  }

  private async getEnvelope<T extends z.ZodType>(relative: string, dataSchema: T, options?: CallOptions, how: GetOptions = {}): Promise<ApiResult<z.output<T>>> {
    return (await this.getEnvelopeWithHeaders(relative, dataSchema, options, how)).result;
  }

  private async getEnvelopeWithHeaders<T extends z.ZodType>(relative: string, dataSchema: T, options: CallOptions = {}, how: GetOptions = {}) {
    const path = `${this.basePath}${relative}`;
    const catalog = how.operation && this.catalog ? await this.checkCatalog(how.operation, path, options) : undefined;
    const raw = await this.get(path, 'application/json', options, how);
    const envelope = validate(envelopeSchema(dataSchema), parseJson(raw, path), path, '');
    const result: ApiResult<z.output<T>> = { data: envelope.data as z.output<T>, meta: envelope.meta, status: raw.status, path, retrievedAt: new Date().toISOString(), ...this.answerMembers(raw), ...(catalog ? { catalog } : {}) };
    return { result, headers: raw.headers };
  }

  private checkCatalog(operation: OperationId, path: string, options: CallOptions = {}): Promise<CatalogCheck> {
    return this.catalog!.check(operation, options.signal).catch((error: unknown) => {
      throw this.abortError(path, options.signal, error);
    });
  }

  /** The result's `cache` and `answeredBy` members, each present only when it has something to say. */
  private answerMembers(raw: RawResponse): Pick<ApiResult<unknown>, 'cache' | 'answeredBy'> {
    const hit = cacheHitOf(raw.headers);
    const elsewhere = raw.url !== '' && !raw.url.startsWith(this.ownOrigin);
    return { ...(hit ? { cache: hit } : {}), ...(elsewhere ? { answeredBy: new URL(raw.url).origin } : {}) };
  }

  /**
   * One logical GET of `path` (the base URL's own path included): waits at the Retry-After gate,
   * sends, retries 429 within the caller's wait budget and 503 a bounded number of times, and
   * turns every other non-2xx into an ApiError.
   */
  private async get(path: string, accept: string, options: CallOptions = {}, how: GetOptions = {}): Promise<RawResponse> {
    const { acceptStatus, lookup = false, gate = this.gate, quickMs } = how;
    const maxRetryWaitS = quickMs === undefined ? this.maxRetryWaitS : 0;
    const started = Date.now();
    let unavailableAttempts = 0;
    for (;;) {
      const waitedS = (Date.now() - started) / 1000;
      const ticket = gate.open() ?? (await gate.pass({ maxWaitS: maxRetryWaitS - waitedS, signal: options.signal, onWait: options.onWait }).catch((error: unknown) => {
        if (error instanceof ApiError) {
          // The gate's fail-fast refusal knows the seconds but not which call it refused.
          throw new ApiError(error.kind, error.message, { status: error.status, path, retryAfterS: error.retryAfterS, cause: error });
        }
        throw this.abortError(path, options.signal, error);
      }));
      let response: RawResponse;
      let retryAfterS: number | undefined;
      try {
        response = await this.attempt(path, accept, options.signal, options.logSink, quickMs ?? this.timeoutMs);
        retryAfterS = heldRetryAfter(response.headers.get('retry-after'));
        // Shut the gate before settling the ticket, so callers waiting on this probe see the new
        // window the moment they wake rather than racing out ahead of it.
        // A 429 without a readable Retry-After still gets a pause: never hammer a limited API.
        if (response.status === 429) gate.block(retryAfterS ?? DEFAULT_429_PAUSE_S);
      } finally {
        ticket.settle();
      }
      const { status } = response;
      if ((status >= 200 && status < 300) || acceptStatus?.(status)) return response;

      if (status === 429) {
        const { upstreamError, upstreamMessage } = upstreamEnvelope(response.body);
        const seconds = retryAfterS ?? DEFAULT_429_PAUSE_S;
        const budgetS = maxRetryWaitS - (Date.now() - started) / 1000;
        this.logger.info(`429 on ${path}: Retry-After ${seconds}s`, { budgetS: Math.floor(budgetS) }, options.logSink);
        if (seconds <= budgetS) continue;
        const asked = seconds === MAX_RETRY_AFTER_S && (parseRetryAfter(response.headers.get('retry-after')) ?? 0) > MAX_RETRY_AFTER_S;
        const pause = asked ? `a pause longer than ${MAX_RETRY_AFTER_S} s (held to ${MAX_RETRY_AFTER_S} s, the longest this server honours)` : `a ${seconds}s pause`;
        throw new ApiError('rate_limited', `rate limited: the API asked for ${pause} before the next request`, { status, path, upstreamError, upstreamMessage, retryAfterS: seconds });
      }

      if (status === 503 || status === 502 || status === 504) {
        const backoffMs = retryAfterS !== undefined ? retryAfterS * 1000 : this.backoffMs(unavailableAttempts);
        const elapsed = Date.now() - started;
        if (quickMs === undefined && unavailableAttempts < this.unavailableRetries && elapsed + backoffMs <= this.unavailableBudgetMs) {
          unavailableAttempts++;
          this.logger.info(`${status} on ${path}; retry ${unavailableAttempts} of ${this.unavailableRetries} in ${backoffMs} ms`, undefined, options.logSink);
          await sleep(backoffMs, options.signal).catch((reason: unknown) => {
            throw this.abortError(path, options.signal, reason);
          });
          continue;
        }
      }

      throw statusError(response, path, unavailableAttempts, lookup ? undefined : this.baseUrl);
    }
  }

  private backoffMs(attempt: number): number {
    const base = 250 * 2 ** attempt;
    return Math.round(base / 2 + this.random() * (base / 2));
  }

  /**
   * One HTTP exchange, bounded by the per-request timeout and the caller's signal, which end it
   * with a RequestEnded of its own. A request that fails with another call's RequestEnded was
   * shared with that call (identical GETs in flight are sent once) and is sent again.
   */
  private attempt(path: string, accept: string, signal: AbortSignal | undefined, logSink: LogSink | undefined, timeoutMs: number): Promise<RawResponse> {
    return withDeadline(timeoutMs, (deadline) => this.exchange(path, accept, signal, logSink, timeoutMs, deadline));
  }

  private async exchange(path: string, accept: string, signal: AbortSignal | undefined, logSink: LogSink | undefined, timeoutMs: number, deadline: AbortSignal): Promise<RawResponse> {
    const ending = signal ? AbortSignal.any([signal, deadline]) : deadline;
    for (;;) {
      // A call cancelled before its turn sends nothing.
      if (signal?.aborted) throw this.abortError(path, signal, signal.reason);
      this.logger.debug(`GET ${path}`, undefined, logSink);
      const own = new AbortController();
      const end = () => own.abort(new RequestEnded());
      ending.addEventListener('abort', end, { once: true });
      try {
        const answer = await this.fetchImpl(this.origin + path, { method: 'GET', headers: { accept, 'user-agent': USER_AGENT }, signal: own.signal, redirect: 'follow' });
        const body = await readBody(answer, this.maxBodyBytes, path);
        return { status: answer.status, body, headers: answer.headers, url: answer.url };
      } catch (error) {
        if (error instanceof RequestEnded && !own.signal.aborted && !ending.aborted) continue;
        throw this.exchangeError(path, signal, deadline.aborted ? timeoutMs : undefined, error);
      } finally {
        ending.removeEventListener('abort', end);
      }
    }
  }

  /** What a failed exchange is, for the caller: a refusal as it is, else a timeout, a cancellation, a network failure or a defect. */
  private exchangeError(path: string, signal: AbortSignal | undefined, timedOutMs: number | undefined, error: unknown): ApiError {
    if (error instanceof ApiError) return error;
    if (timedOutMs !== undefined) return new ApiError('timeout', `timeout: GET ${path} took longer than ${timedOutMs} ms`, { path, cause: error });
    if (signal?.aborted) return this.abortError(path, signal, error);
    if (!isTransportFailure(error)) return internalError(`GET ${path}`, error, path);
    return new ApiError('network', `network: GET ${path} failed: ${describeNetworkCause(error)}`, { path, cause: error });
  }

  private abortError(path: string, signal: AbortSignal | undefined, cause: unknown): ApiError {
    if (cause instanceof ApiError) return cause;
    return new ApiError('cancelled', `cancelled: GET ${path} was cancelled by the caller`, { path, cause: signal?.reason ?? cause });
  }
}

/** The `error` and `message` of an upstream error envelope, when the body is one. */
function upstreamEnvelope(body: string): { upstreamError: string | undefined; upstreamMessage: string | undefined } {
  const envelope = ErrorEnvelopeSchema.safeParse(safeJson(body));
  return envelope.success ? { upstreamError: envelope.data.error, upstreamMessage: envelope.data.message } : { upstreamError: undefined, upstreamMessage: undefined };
}

/**
 * The typed error for a non-2xx status, from the status first and the body only for detail.
 * `notARecord` is the base URL when the request asked for no record: the API answers 404 only for
 * a job or company that is absent, so a 404 there means the address is wrong, not the data.
 */
function statusError(response: RawResponse, path: string, retries: number, notARecord?: string, cause?: unknown): ApiError {
  const { status } = response;
  const { upstreamError, upstreamMessage } = upstreamEnvelope(response.body);
  const retryAfterS = heldRetryAfter(response.headers.get('retry-after'));
  const detail = [upstreamError, upstreamMessage].filter(Boolean).join(': ');
  const message = `HTTP ${status} from GET ${path}${detail ? ` (${detail})` : ''}${retries > 0 ? ` after ${retries + 1} attempts` : ''}`;
  if (status === 404 && notARecord !== undefined) {
    return new ApiError('upstream_contract', `upstream_contract: ${message}, where the API has no record to miss: the base URL (${notARecord}) or a proxy in front of it is probably wrong`, {
      status,
      path,
      upstreamError,
      upstreamMessage,
      cause,
      hint: 'Check the base URL: it is the origin only (no /api/public/v1 in it), and any proxy in between must pass /api/public/v1 through; check_api_health and discover_api show what answers there.',
    });
  }
  return new ApiError(kindForStatus(status), message, { status, path, upstreamError, upstreamMessage, retryAfterS, cause });
}

/** Retry-After as seconds, held to MAX_RETRY_AFTER_S: one answer must not lock the process for years. */
function heldRetryAfter(value: string | null): number | undefined {
  const seconds = parseRetryAfter(value);
  return seconds === undefined ? undefined : Math.min(seconds, MAX_RETRY_AFTER_S);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // an error body that is not JSON still has its status; the caller reports that
  }
}

function contractError(path: string, jsonPath: string, problem: string, cause?: unknown): ApiError {
  return new ApiError('upstream_contract', `upstream_contract: GET ${path} answered with a body that breaks the API contract at ${jsonPath}: ${problem}`, { path, jsonPath, cause });
}

/** The parsed body, refused when nested too deep to handle safely (body.ts). */
function parseJson(raw: RawResponse, path: string): unknown {
  if (jsonTooDeep(raw.body)) {
    throw new ApiError('upstream_contract', `upstream_contract: GET ${path} answered HTTP ${raw.status} with JSON nested deeper than ${MAX_JSON_DEPTH} levels; refused rather than risk the stack`, { status: raw.status, path });
  }
  try {
    return JSON.parse(raw.body);
  } catch (error) {
    // Only a body that failed to parse needs its type, to say what it was instead.
    const type = raw.headers.get('content-type') ?? '';
    const hint = raw.body.trim() === '' ? 'the body is empty' : /json/i.test(type) ? 'the JSON is malformed or truncated' : `the body is not JSON (content-type ${type || 'missing'})`;
    throw new ApiError('upstream_contract', `upstream_contract: GET ${path} answered HTTP ${raw.status}, but ${hint}`, { status: raw.status, path, cause: error });
  }
}

function validate<T extends z.ZodType>(schema: T, value: unknown, path: string, prefix: string): z.output<T> {
  if (passes(schema, value)) return value;
  // Invalid: the ordinary parse names the first issue and its path, exactly as it always has.
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const jsonPath = formatJsonPath([...(prefix ? [prefix] : []), ...issue.path]);
  const more = parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more)` : '';
  throw contractError(path, jsonPath, `${issue.message}${more}`, parsed.error);
}
