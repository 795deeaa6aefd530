/**
 * The offline API: one function from a Fetch Request to a Response over the snapshot, implementing
 * the whole public read contract. The adapters (fetch.ts in-process, server.ts over node:http,
 * the msw helper in tests) all call it, so every way of reaching the offline API behaves alike.
 */
import { type Dataset, loadSnapshot } from './dataset.js';
import {
  agentSkillsIndex,
  discoveryData,
  healthBody,
  llmsTxt,
  notFoundMarkdown,
  serverCard,
  sitemapXml,
} from './documents.js';
import { withValidators } from './conditional.js';
import { applyFaults } from './fault-answers.js';
import { type FaultRule, FaultSet } from './faults.js';
import { interviewResponse } from './interview.js';
import { describeFilters, jobQueryFrom, projectJob, runJobQuery } from './jobs-query.js';
import { marketMapResponse } from './market-map.js';
import { buildOpenApi } from './openapi.js';
import { API_PREFIX } from '../contract/operations.js';
import {
  DETAIL_PARAMS,
  INTERVIEW_PARAMS,
  LIST_PARAMS,
  MARKET_MAP_PARAMS,
  type ParamSpec,
  SEARCH_PARAMS,
} from './params.js';
import { bytesResponse, errorResponse, jsonResponse, prefersMarkdown, successResponse } from './responses.js';
import { parseParams, type ParamValues } from './validate-params.js';
import { messageOf } from '../lib/cause-chain.js';

export interface OfflineEngine {
  handle(request: Request): Promise<Response>;
  /**
   * The fault a rule injects for this request (counted in the statistics), or undefined when none
   * answers it: for the handlers mounted beside the engine (mock-api's hosted tool endpoint).
   */
  intercept(request: Request): Promise<Response | undefined>;
  faults: FaultSet;
  dataset: Dataset;
}

/** Answers the hosted tool endpoint (POST /api/public/v1/mcp): the offline deployment's MCP surface. */
type HostedHandler = (request: Request) => Promise<Response>;

export interface OfflineEngineOptions {
  dataset?: Dataset;
  faults?: FaultRule[];
  /**
   * The hosted tool endpoint, given by whoever composes the engine with an MCP server
   * (app/offline-deployment.ts): the engine stays an API and only routes to it. Without one it answers 501.
   */
  hosted?: HostedHandler | undefined;
}

/** What `intercept` hands the fault rules as the answer nobody injected. */
const PASS = new Response(null, { status: 204 });

export async function createOfflineEngine(options: OfflineEngineOptions = {}): Promise<OfflineEngine> {
  const dataset = options.dataset ?? (await loadSnapshot());
  const faults = new FaultSet(options.faults ?? []);
  const { hosted } = options;
  return {
    dataset,
    faults,
    handle: (request) => applyFaults(faults, request, (r) => handleRequest(dataset, r, hosted)),
    intercept: async (request) => {
      const answer = await applyFaults(faults, request, async () => PASS);
      return answer === PASS ? undefined : answer;
    },
  };
}

interface RouteContext {
  dataset: Dataset;
  url: URL;
  /** The path segment after /jobs/, already percent-decoded. */
  jobId?: string;
}
type Handler = (ctx: RouteContext) => Response;

/** Parses the operation's parameters and hands them on, or answers 400 naming the one that is wrong. */
function withParams(
  specs: readonly ParamSpec[],
  handler: (ctx: RouteContext, values: ParamValues) => Response,
): Handler {
  return (ctx) => {
    const parsed = parseParams(ctx.url.searchParams, specs);
    if (!parsed.ok) return errorResponse(400, 'invalid_parameter', parsed.message, { parameter: parsed.parameter });
    return handler(ctx, parsed.values);
  };
}

function jobsMeta(dataset: Dataset, includePredicted: boolean): Record<string, unknown> {
  return { ...dataset.snapshot, predicted_salaries: includePredicted ? 'included' : 'excluded' };
}

function jobList(searchOnly: boolean): Handler {
  return withParams(searchOnly ? SEARCH_PARAMS : LIST_PARAMS, ({ dataset }, values) => {
    const query = jobQueryFrom(values);
    const { minSalaryUsd: min, maxSalaryUsd: max } = query;
    if (min !== undefined && max !== undefined && min > max) {
      const message = `min_salary_usd (${min}) must not exceed max_salary_usd (${max})`;
      return errorResponse(400, 'invalid_parameter', message, { parameter: 'min_salary_usd' });
    }
    const { jobs, pagination } = runJobQuery(dataset, query);
    return successResponse(
      { jobs, pagination, filters: describeFilters(query, searchOnly) },
      jobsMeta(dataset, query.includePredicted),
    );
  });
}

const jobDetail = withParams(DETAIL_PARAMS, ({ dataset, jobId }, values) => {
  const includePredicted = values.include_predicted_salaries === true;
  const stored = dataset.jobs.find((j) => j.job.job_id === jobId);
  // A closed job answers exactly like an unknown one: the public contract only exposes active jobs.
  if (!stored || !stored.active)
    return errorResponse(
      404,
      'not_found',
      `no active job with job_id ${JSON.stringify(jobId)}; it is absent or no longer active`,
    );
  return successResponse(projectJob(stored, includePredicted), jobsMeta(dataset, includePredicted));
});

const ROUTES: Record<string, Handler> = {
  [API_PREFIX]: ({ dataset }) => successResponse(discoveryData(dataset), { ...dataset.snapshot }),
  [`${API_PREFIX}/search/jobs`]: jobList(true),
  [`${API_PREFIX}/jobs`]: jobList(false),
  [`${API_PREFIX}/market-map`]: withParams(MARKET_MAP_PARAMS, marketMapResponse),
  [`${API_PREFIX}/interview/company`]: withParams(INTERVIEW_PARAMS, interviewResponse),
  [`${API_PREFIX}/mcp/health`]: ({ dataset, url }) => jsonResponse(200, healthBody(dataset, url.origin)),
  '/openapi.json': ({ url }) => jsonResponse(200, buildOpenApi(url.origin)),
  '/llms.txt': ({ dataset }) => bytesResponse(200, llmsTxt(dataset), 'text/plain; charset=utf-8'),
  '/.well-known/mcp/server-card.json': ({ url }) => jsonResponse(200, serverCard(url.origin)),
  '/.well-known/agent-skills/index.json': () => jsonResponse(200, agentSkillsIndex()),
  '/sitemap.xml': ({ url }) => bytesResponse(200, sitemapXml(url.origin), 'application/xml; charset=utf-8'),
};

const JOB_DETAIL_PREFIX = `${API_PREFIX}/jobs/`;
const MCP_PATH = `${API_PREFIX}/mcp`;

function findRoute(pathname: string, ctx: RouteContext): Handler | undefined {
  const exact = ROUTES[pathname];
  if (exact) return exact;
  if (pathname.startsWith(JOB_DETAIL_PREFIX)) {
    const segment = pathname.slice(JOB_DETAIL_PREFIX.length);
    if (segment === '' || segment.includes('/')) return undefined;
    try {
      ctx.jobId = decodeURIComponent(segment);
    } catch {
      return () =>
        errorResponse(
          404,
          'not_found',
          `no active job with job_id ${JSON.stringify(segment)} (the id is not valid percent-encoding)`,
        );
    }
    return jobDetail;
  }
  return undefined;
}

function notFound(request: Request, pathname: string): Response {
  if (prefersMarkdown(request.headers.get('accept')))
    return bytesResponse(404, notFoundMarkdown(pathname), 'text/markdown; charset=utf-8');
  return errorResponse(
    404,
    'not_found',
    `nothing is published at ${pathname}; start at ${API_PREFIX} for the endpoint catalog`,
  );
}

function route(dataset: Dataset, request: Request): Response {
  const url = new URL(request.url);
  // One trailing slash is tolerated everywhere, as the spec shows for discovery.
  const pathname = url.pathname.length > 1 && url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  const method = request.method.toUpperCase();
  if (pathname === MCP_PATH) {
    if (method === 'POST')
      return errorResponse(
        501,
        'not_implemented',
        'the tool endpoint is not part of the offline API itself: `service-mcp mock-api` serves it over HTTP, and the local package serves the same tools over stdio',
      );
    return errorResponse(405, 'method_not_allowed', `${MCP_PATH} accepts POST only`, {}, { allow: 'POST' });
  }
  const ctx: RouteContext = { dataset, url };
  const handler = findRoute(pathname, ctx);
  if (!handler) return notFound(request, url.pathname);
  if (method !== 'GET' && method !== 'HEAD')
    return errorResponse(
      405,
      'method_not_allowed',
      `${pathname} accepts GET (and HEAD) only; got ${method}`,
      {},
      { allow: 'GET, HEAD' },
    );
  return handler(ctx);
}

/** Pure routing over a dataset, without faults. HEAD answers like GET, without the body. */
async function handleRequest(dataset: Dataset, request: Request, hosted: HostedHandler | undefined): Promise<Response> {
  if (hosted && request.method.toUpperCase() === 'POST' && new URL(request.url).pathname === MCP_PATH)
    return hosted(request);
  let response: Response;
  try {
    response = await withValidators(request, new URL(request.url).pathname, route(dataset, request));
  } catch (error) {
    // A bug in the engine must still look like an HTTP answer, not a dropped connection.
    response = errorResponse(500, 'internal_error', `offline engine error: ${messageOf(error)}`);
  }
  if (request.method.toUpperCase() === 'HEAD')
    return new Response(null, { status: response.status, headers: response.headers });
  return response;
}
