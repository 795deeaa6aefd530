/**
 * One typed method per REST operation of the public read API. Knows nothing of MCP: it returns
 * validated data with its meta, or throws an ApiError with a stable kind.
 */
import type * as z from 'zod';
import { isRecord } from '../lib/is-record.js';
import { Answers, type ApiResult } from './answers.js';
import { silentLogger, type Logger } from '../obs/log.js';
import { DeployedCatalog, operationOf, type CatalogCheck, type CatalogRead } from './deployed-catalog.js';
import { contractError, decodeHealth, envelopeSchema, parseJson, validate } from './decode.js';
import { ApiError } from '../contract/errors.js';
import { OPERATIONS, type OperationId } from '../contract/operations.js';
import { jobListShape } from '../contract/params.js';
import type { InterviewBriefParams, JobListParams, MarketMapParams, SearchJobsParams } from '../contract/params.js';
import { buildQuery } from './query.js';
import { RequestPolicy, type GetOptions, type RequestPolicyOptions } from './request-policy.js';
import { abortError, type CallOptions } from './send-loop.js';
import { RetryAfterGate } from './retry-after-gate.js';
import type { ShareState, UpstreamBudget } from './fair-share.js';
import {
  DiscoveryDataSchema,
  InterviewBriefDataSchema,
  JobListDataSchema,
  MarketMapDataSchema,
  PublicJobSchema,
  type DiscoveryData,
  type HealthResponse,
  type InterviewBriefData,
  type JobListData,
  type MarketMapData,
  type PublicJob,
} from '../contract/schemas.js';
import { statusError } from './status-errors.js';
import type { KeptFile } from '../lib/kept-file.js';

/** How long a tool call may wait for the catalog read before it: discovery is one small document. */
const CATALOG_TIMEOUT_MS = 5_000;

export interface ApiClientOptions extends RequestPolicyOptions {
  /** Check each operation against the deployed catalog first; off, the client sends only what it is asked. */
  checkCatalog?: boolean;
  /** Where the deployed catalog is kept between runs (deployed-catalog.ts). */
  keptCatalog?: KeptFile | undefined;
  /** The clock a result's retrievedAt (and so every age in it) reads: generated docs pass a fixed one. */
  now?: () => number;
  /** Each caller's share of upstream requests, as the production fetch keeps it: read here for the health tool. */
  budget?: UpstreamBudget | undefined;
}

export class ApiClient {
  readonly baseUrl: string;
  private readonly policy: RequestPolicy;
  private readonly logger: Logger;
  /** The base URL's own path: every path the client names starts with it. */
  private readonly basePath: string;
  /** The health probe's own cool-down: the probe the error hints point to is never held by another endpoint's. */
  private readonly healthGate = new RetryAfterGate();
  /** Discovery's own, for the catalog reads: a 429 there must not hold the tools. */
  private readonly catalogGate = new RetryAfterGate();
  private readonly catalog: DeployedCatalog | undefined;
  private readonly answers: Answers;
  private readonly budget: UpstreamBudget | undefined;

  constructor(options: ApiClientOptions) {
    this.budget = options.budget;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.policy = new RequestPolicy({ ...options, baseUrl: this.baseUrl });
    this.logger = options.logger ?? silentLogger;
    const base = new URL(this.baseUrl);
    this.answers = new Answers(`${base.origin}/`, options.now ?? Date.now);
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.catalog =
      options.checkCatalog !== true
        ? undefined
        : new DeployedCatalog({
            basePath: this.basePath,
            read: () => this.readCatalog(),
            mayRead: () => this.policy.gate.idle(),
            kept: options.keptCatalog,
            onUnchecked: (reason, forS) =>
              this.logger.info(`deployed catalog not read: ${reason}; tools run unchecked for ${forS} s`),
          });
  }

  /** What the client knows of its own state, for check_api_health: times in epoch ms, never a secret. */
  state() {
    return {
      coolDownUntil: this.policy.gate.coolDownUntil(),
      lastRateLimit: this.policy.lastRateLimit,
      catalog: this.catalog?.state(),
      answers: this.answers.count,
      cacheHits: this.answers.cacheHits,
      redisConnected: this.policy.gate.sharedConnected(),
    };
  }

  /** The caller's share of upstream requests, when shares are kept and the call has a caller. */
  shareOf(caller: string | undefined): Promise<ShareState | undefined> {
    return caller === undefined || !this.budget ? Promise.resolve(undefined) : this.budget.state(caller);
  }

  /**
   * Reads the deployed catalog now, which loads the HTTP client too, so that neither is on the first
   * call's path (deployed-catalog.ts).
   */
  readAhead(): void {
    this.catalog?.readAhead();
  }

  async discover(options?: CallOptions): Promise<ApiResult<DiscoveryData>> {
    const { result, headers } = await this.getEnvelopeWithHeaders(
      OPERATIONS.discoverPublicApi.path,
      DiscoveryDataSchema,
      options,
      { lastAnswer: true },
    );
    this.catalog?.learn({ data: result.data, headers });
    return {
      ...result,
      endpointOperations: result.data.endpoints.map((endpoint) => operationOf(endpoint, this.basePath)),
    };
  }

  /**
   * Discovery for the catalog check: briefly bounded, never waiting out a 429. It passes the tools'
   * gate without waiting (a cool-down another replica shares through Redis holds it too), but its
   * own 429 holds only its own gate, never the tools.
   */
  private async readCatalog(): Promise<CatalogRead> {
    const ticket = this.policy.gate.open() ?? (await this.policy.gate.pass({ maxWaitS: 0 }));
    try {
      const { result, headers } = await this.getEnvelopeWithHeaders(
        OPERATIONS.discoverPublicApi.path,
        DiscoveryDataSchema,
        {},
        { gate: this.catalogGate, quickMs: Math.min(this.policy.timeoutMs, CATALOG_TIMEOUT_MS) },
      );
      return { data: result.data, headers };
    } finally {
      ticket.settle();
    }
  }

  // The tools have checked every argument against the strict zod objects these types come from.
  searchJobs(params: SearchJobsParams = {}, options?: CallOptions): Promise<ApiResult<JobListData>> {
    return this.getEnvelope('searchPublicJobs', buildQuery(params), JobListDataSchema, options);
  }

  listJobs(params: JobListParams = {}, options?: CallOptions): Promise<ApiResult<JobListData>> {
    // Only its own: a search object handed here never sends the search-only filters to the list.
    const own = Object.fromEntries(Object.keys(jobListShape).map((key) => [key, params[key as keyof JobListParams]]));
    return this.getEnvelope('listPublicJobs', buildQuery(own), JobListDataSchema, options);
  }

  getJob(
    jobId: string,
    params: Pick<JobListParams, 'include_predicted_salaries'> = {},
    options?: CallOptions,
  ): Promise<ApiResult<PublicJob>> {
    // '' would address the job list, and '.' / '..' are dot segments that URL parsing resolves
    // away (encoding cannot help: %2e counts as a dot), reaching discovery. Refuse, don't send.
    if (jobId === '' || jobId === '.' || jobId === '..') {
      const message = `invalid_argument: job_id ${JSON.stringify(jobId)} is not a job identifier`;
      return Promise.reject(new ApiError('invalid_argument', message, { path: OPERATIONS.getPublicJob.path }));
    }
    const how = { lookup: true, pathParam: jobId };
    return this.getEnvelope('getPublicJob', buildQuery(params), PublicJobSchema, options, how);
  }

  getMarketMap(params: MarketMapParams = {}, options?: CallOptions): Promise<ApiResult<MarketMapData>> {
    return this.getEnvelope('getPublicMarketMap', buildQuery(params), MarketMapDataSchema, options);
  }

  getCompanyInterviewBrief(params: InterviewBriefParams, opts?: CallOptions): Promise<ApiResult<InterviewBriefData>> {
    const query = buildQuery(params);
    return this.getEnvelope('getCompanyInterviewBrief', query, InterviewBriefDataSchema, opts, { lookup: true });
  }

  /**
   * Health: the 200 and the 503 body are both the health response, never an error. `unchecked`
   * skips the deployed-catalog check: the bridge reads health only for its mcp_endpoint, and falls
   * back to the hosted path's default when health is not there.
   */
  async getHealth(options?: CallOptions, { unchecked = false } = {}): Promise<ApiResult<HealthResponse>> {
    const path = `${this.basePath}${OPERATIONS.getHostedMcpHealth.path}`;
    const catalog =
      this.catalog && !unchecked ? await this.checkCatalog('getHostedMcpHealth', path, options) : undefined;
    const raw = await this.policy.get(path, 'application/json', options, {
      acceptStatus: (status) => status === 503,
      gate: this.healthGate,
      operation: 'getHostedMcpHealth',
    });
    try {
      const { data, meta } = decodeHealth(raw, path);
      return this.answers.result(data, meta, raw, path, catalog);
    } catch (error) {
      // Status before body: a 503 that is not the health response (a proxy's error page, an error
      // envelope) is the API being unavailable, not an API breaking its contract.
      if (raw.status === 503) throw statusError(raw, path, 0, undefined, error);
      throw error;
    }
  }

  async getOpenApi(options?: CallOptions): Promise<Record<string, unknown>> {
    const path = `${this.basePath}/openapi.json`;
    const body = parseJson(await this.policy.get(path, 'application/json', options), path);
    if (!isRecord(body)) throw contractError(path, '(root)', 'expected a JSON object');
    return body;
  }

  async getLlmsTxt(options?: CallOptions): Promise<string> {
    return (await this.policy.get(`${this.basePath}/llms.txt`, 'text/plain, text/markdown;q=0.9', options)).body;
  }

  /** A GET of `operation` (its path parameter, if any, filled in) with `query`, checked against the catalog first. */
  private async getEnvelope<T extends z.ZodType>(
    operation: OperationId,
    query: string,
    dataSchema: T,
    options?: CallOptions,
    { pathParam = '', ...how }: GetOptions & { pathParam?: string } = {},
  ): Promise<ApiResult<z.output<T>>> {
    const relative = OPERATIONS[operation].path.replace(/\{\w+\}/, () => encodeURIComponent(pathParam)) + query;
    const asked = { ...how, operation, lastAnswer: true };
    return (await this.getEnvelopeWithHeaders(relative, dataSchema, options, asked)).result;
  }

  private async getEnvelopeWithHeaders<T extends z.ZodType>(
    relative: string,
    dataSchema: T,
    options: CallOptions = {},
    how: GetOptions & { operation?: OperationId } = {},
  ) {
    const path = `${this.basePath}${relative}`;
    const catalog = how.operation && this.catalog ? await this.checkCatalog(how.operation, path, options) : undefined;
    // A 404 says a job or company is gone only where the API is known to answer: with the catalog
    // unread, it may as well be a wrong base URL, and "gone" would send the reader the wrong way.
    const unconfirmed = how.lookup && catalog && !catalog.checked ? (catalog.reason ?? 'no reason given') : undefined;
    const raw = await this.policy.get(
      path,
      'application/json',
      options,
      unconfirmed === undefined ? how : { ...how, lookup: false, unconfirmedBase: unconfirmed },
    );
    const envelope = validate(envelopeSchema(dataSchema), parseJson(raw, path), path, '');
    const result = this.answers.result(envelope.data as z.output<T>, envelope.meta, raw, path, catalog);
    return { result, headers: raw.headers };
  }

  private checkCatalog(operation: OperationId, path: string, options: CallOptions = {}): Promise<CatalogCheck> {
    return this.catalog!.check(operation, options.signal).catch((error: unknown) => {
      throw abortError(`GET ${path}`, path, options.signal, error);
    });
  }
}
