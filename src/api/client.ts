/**
 * One typed method per REST operation of the public read API. Knows nothing of MCP: it returns
 * validated data with its meta, or throws an ApiError with a stable kind.
 */
import type { z } from 'zod';
import { isRecord } from '../is-record.js';
import { silentLogger, type Logger } from '../log.js';
import { cacheHitOf } from './cache.js';
import { DeployedCatalog, operationOf, type CatalogCheck } from './catalog.js';
import { contractError, envelopeSchema, parseJson, validate } from './decode.js';
import { ApiError } from './errors.js';
import { OPERATIONS, type OperationId } from './operations.js';
import { sourceSaysFictional } from './provenance.js';
import { buildQuery } from './query.js';
import {
  RequestPolicy,
  type CallOptions,
  type GetOptions,
  type RawResponse,
  type RequestPolicyOptions,
} from './request-policy.js';
import { RetryAfterGate } from './retry-after-gate.js';
import type { ShareState, UpstreamBudget } from './fair-share.js';
import {
  DiscoveryDataSchema,
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
import { statusError } from './status-errors.js';

/** How long a tool call may wait for the catalog read before it: discovery is one small document. */
const CATALOG_TIMEOUT_MS = 5_000;

/** A GET as the client asks for it: how it is sent, and the operation checked against the deployed catalog first. */
interface How extends GetOptions {
  operation?: OperationId;
}

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

export type InterviewBriefParams = {
  company_id?: string | undefined;
  slug?: string | undefined;
  name?: string | undefined;
};

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
  /** The API has said, in this answer's or an earlier one's meta.source (discovery's included), that its data is fictional. */
  fictional?: boolean | undefined;
  /** Discovery only: which operation of this client each catalog endpoint is, in the catalog's order. */
  endpointOperations?: Array<OperationId | undefined> | undefined;
}

export interface ApiClientOptions extends RequestPolicyOptions {
  /**
   * Check each operation against the deployed catalog (catalog.ts) before calling it. The backend
   * turns it on; off, every request the client sends is one its caller asked for (request-level tests).
   */
  checkCatalog?: boolean;
  /** The clock a result's retrievedAt (and so every age in it) reads: generated docs pass a fixed one. */
  now?: () => number;
  /** Each caller's share of upstream requests, as the production fetch keeps it: read here for the health tool. */
  budget?: UpstreamBudget | undefined;
}

/** What the client knows of its own state, for check_api_health: times in epoch ms, never a secret. */
export interface ClientState {
  coolDownUntil: number | undefined;
  lastRateLimit: { at: number; retryAfterS: number } | undefined;
  catalog: { read: boolean; at?: number; failure?: string } | undefined;
  answers: number;
  cacheHits: number;
  /** With --redis-url: whether Redis answers right now. */
  redisConnected: boolean | undefined;
}

export class ApiClient {
  readonly baseUrl: string;
  private readonly policy: RequestPolicy;
  private readonly logger: Logger;
  /** The base URL's origin followed by a slash: an answer from elsewhere is named in the result. */
  private readonly ownOrigin: string;
  /** The base URL's own path: every path the client names starts with it. */
  private readonly basePath: string;
  /** The health probe's own cool-down: the probe the error hints point to is never held by another endpoint's. */
  private readonly healthGate = new RetryAfterGate();
  /** Discovery's own, for the catalog reads: a 429 there must not hold the tools. */
  private readonly catalogGate = new RetryAfterGate();
  private readonly catalog: DeployedCatalog | undefined;
  /** Set once any answer's meta.source says the data is fictional: what the API says of itself holds for its health too. */
  private saidFictional = false;
  /** Answers read since start, and how many of them the response cache gave. */
  private answers = 0;
  private cacheHits = 0;
  private readonly now: () => number;
  private readonly budget: UpstreamBudget | undefined;

  constructor(options: ApiClientOptions) {
    this.now = options.now ?? Date.now;
    this.budget = options.budget;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.policy = new RequestPolicy({ ...options, baseUrl: this.baseUrl });
    this.logger = options.logger ?? silentLogger;
    const base = new URL(this.baseUrl);
    this.ownOrigin = `${base.origin}/`;
    this.basePath = base.pathname.replace(/\/+$/, '');
    this.catalog =
      options.checkCatalog !== true
        ? undefined
        : new DeployedCatalog({
            basePath: this.basePath,
            read: () => this.readCatalog(),
            mayRead: () => this.policy.gate.idle(),
            onUnchecked: (reason, forS) =>
              this.logger.info(`deployed catalog not read: ${reason}; tools run unchecked for ${forS} s`),
          });
  }

  state(): ClientState {
    return {
      coolDownUntil: this.policy.gate.coolDownUntil(),
      lastRateLimit: this.policy.lastRateLimit,
      catalog: this.catalog?.state(),
      answers: this.answers,
      cacheHits: this.cacheHits,
      redisConnected: this.policy.gate.sharedConnected(),
    };
  }

  /** The caller's share of upstream requests, when shares are kept and the call has a caller. */
  shareOf(caller: string | undefined): Promise<ShareState | undefined> {
    return caller === undefined || !this.budget ? Promise.resolve(undefined) : this.budget.state(caller);
  }

  async discover(options?: CallOptions): Promise<ApiResult<DiscoveryData>> {
    const { result, headers } = await this.getEnvelopeWithHeaders(
      OPERATIONS.discoverPublicApi.path,
      DiscoveryDataSchema,
      options,
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
  private async readCatalog(): Promise<{ data: DiscoveryData; headers: Pick<Headers, 'get'> }> {
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

  searchJobs(params: SearchJobsParams = {}, options?: CallOptions): Promise<ApiResult<JobListData>> {
    const {
      q,
      domain,
      skills,
      skill_match,
      company_type,
      seniority_level,
      remote_only,
      location_country,
      min_salary_usd,
      max_salary_usd,
      page,
      per_page,
      include_predicted_salaries,
    } = params;
    const query = buildQuery({
      q,
      domain,
      skills,
      skill_match,
      company_type,
      seniority_level,
      remote_only,
      location_country,
      min_salary_usd,
      max_salary_usd,
      page,
      per_page,
      include_predicted_salaries,
    });
    return this.getEnvelope(`${OPERATIONS.searchPublicJobs.path}${query}`, JobListDataSchema, options, {
      operation: 'searchPublicJobs',
    });
  }

  listJobs(params: JobListParams = {}, options?: CallOptions): Promise<ApiResult<JobListData>> {
    const {
      q,
      domain,
      skills,
      seniority_level,
      remote_only,
      location_country,
      page,
      per_page,
      include_predicted_salaries,
    } = params;
    const query = buildQuery({
      q,
      domain,
      skills,
      seniority_level,
      remote_only,
      location_country,
      page,
      per_page,
      include_predicted_salaries,
    });
    return this.getEnvelope(`${OPERATIONS.listPublicJobs.path}${query}`, JobListDataSchema, options, {
      operation: 'listPublicJobs',
    });
  }

  getJob(
    jobId: string,
    params: { include_predicted_salaries?: boolean | undefined } = {},
    options?: CallOptions,
  ): Promise<ApiResult<PublicJob>> {
    // '' would address the job list, and '.' / '..' are dot segments that URL parsing resolves
    // away (encoding cannot help: %2e counts as a dot), reaching discovery. Refuse, don't send.
    if (jobId === '' || jobId === '.' || jobId === '..') {
      return Promise.reject(
        new ApiError('invalid_argument', `invalid_argument: job_id ${JSON.stringify(jobId)} is not a job identifier`, {
          path: OPERATIONS.getPublicJob.path,
        }),
      );
    }
    const query = buildQuery({ include_predicted_salaries: params.include_predicted_salaries });
    return this.getEnvelope(
      `${OPERATIONS.getPublicJob.path.replace('{jobId}', () => encodeURIComponent(jobId))}${query}`,
      PublicJobSchema,
      options,
      { lookup: true, operation: 'getPublicJob' },
    );
  }

  getMarketMap(params: MarketMapParams = {}, options?: CallOptions): Promise<ApiResult<MarketMapData>> {
    return this.getEnvelope(
      `${OPERATIONS.getPublicMarketMap.path}${buildQuery({ status: params.status, layer: params.layer })}`,
      MarketMapDataSchema,
      options,
      { operation: 'getPublicMarketMap' },
    );
  }

  getCompanyInterviewBrief(
    params: InterviewBriefParams,
    options?: CallOptions,
  ): Promise<ApiResult<InterviewBriefData>> {
    const query = buildQuery({ company_id: params.company_id, slug: params.slug, name: params.name });
    return this.getEnvelope(`${OPERATIONS.getCompanyInterviewBrief.path}${query}`, InterviewBriefDataSchema, options, {
      lookup: true,
      operation: 'getCompanyInterviewBrief',
    });
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
      const body = parseJson(raw, path);
      // Tolerate a health body wrapped in the success envelope as well as the bare form.
      const wrapped = isRecord(body) && body.success === true && isRecord(body.data) && 'probes' in body.data;
      const data = validate(HealthResponseSchema, wrapped ? body.data : body, path, wrapped ? 'data' : '');
      const meta = wrapped
        ? validate(ResponseMetaSchema, (body as Record<string, unknown>).meta ?? {}, path, 'meta')
        : {};
      return {
        data,
        meta,
        status: raw.status,
        path,
        retrievedAt: new Date(this.now()).toISOString(),
        ...this.answerMembers(raw, meta),
        ...(catalog ? { catalog } : {}),
      };
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
    const body = parseJson(await this.policy.get(path, 'application/json', options), path);
    if (!isRecord(body)) throw contractError(path, '(root)', 'expected a JSON object');
    return body;
  }

  /** The agent index, as text. */
  async getLlmsTxt(options?: CallOptions): Promise<string> {
    return (await this.policy.get(`${this.basePath}/llms.txt`, 'text/plain, text/markdown;q=0.9', options)).body;
  }

  private async getEnvelope<T extends z.ZodType>(
    relative: string,
    dataSchema: T,
    options?: CallOptions,
    how: How = {},
  ): Promise<ApiResult<z.output<T>>> {
    return (await this.getEnvelopeWithHeaders(relative, dataSchema, options, how)).result;
  }

  private async getEnvelopeWithHeaders<T extends z.ZodType>(
    relative: string,
    dataSchema: T,
    options: CallOptions = {},
    how: How = {},
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
    const result: ApiResult<z.output<T>> = {
      data: envelope.data as z.output<T>,
      meta: envelope.meta,
      status: raw.status,
      path,
      retrievedAt: new Date(this.now()).toISOString(),
      ...this.answerMembers(raw, envelope.meta),
      ...(catalog ? { catalog } : {}),
    };
    return { result, headers: raw.headers };
  }

  private checkCatalog(operation: OperationId, path: string, options: CallOptions = {}): Promise<CatalogCheck> {
    return this.catalog!.check(operation, options.signal).catch((error: unknown) => {
      throw this.policy.abortError(path, options.signal, error);
    });
  }

  /** The result's `cache`, `answeredBy` and `fictional` members, each present only when it has something to say. */
  private answerMembers(
    raw: RawResponse,
    meta: ResponseMeta,
  ): Pick<ApiResult<unknown>, 'cache' | 'answeredBy' | 'fictional'> {
    const hit = cacheHitOf(raw.headers);
    this.answers++;
    if (hit) this.cacheHits++;
    const elsewhere = raw.url !== '' && !raw.url.startsWith(this.ownOrigin);
    this.saidFictional ||= sourceSaysFictional(meta.source);
    return {
      ...(hit ? { cache: hit } : {}),
      ...(elsewhere ? { answeredBy: new URL(raw.url).origin } : {}),
      ...(this.saidFictional ? { fictional: true } : {}),
    };
  }
}
