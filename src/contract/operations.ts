/**
 * The REST operations of the spec, by operation id: their method, path, summary and error statuses,
 * read by the client's requests, the check against the deployed catalog and the offline API.
 */
export const API_PREFIX = '/api/public/v1';

export const OPERATIONS = {
  discoverPublicApi: {
    method: 'GET',
    path: API_PREFIX,
    summary: 'Discover the public API',
    description:
      'Endpoint catalog, authentication boundary, envelope conventions and snapshot freshness. Also served at the trailing-slash form.',
    errors: [429],
  },
  searchPublicJobs: {
    method: 'GET',
    path: `${API_PREFIX}/search/jobs`,
    summary: 'Search jobs',
    description: 'Free-text and filtered job search with pagination.',
    errors: [400, 429, 503],
  },
  listPublicJobs: {
    method: 'GET',
    path: `${API_PREFIX}/jobs`,
    summary: 'List jobs',
    description: 'Paginated job list with the narrower filter set; search-only parameters are ignored.',
    errors: [400, 429, 503],
  },
  getPublicJob: {
    method: 'GET',
    path: `${API_PREFIX}/jobs/{jobId}`,
    summary: 'Get one job',
    description: 'One active job by its public identifier; 404 when it is absent or no longer active.',
    errors: [404, 429, 503],
  },
  getPublicMarketMap: {
    method: 'GET',
    path: `${API_PREFIX}/market-map`,
    summary: 'Get the market map',
    description: 'Dimension coverage by layer, with readiness and generation metadata.',
    errors: [400, 429, 503],
  },
  getCompanyInterviewBrief: {
    method: 'GET',
    path: `${API_PREFIX}/interview/company`,
    summary: 'Get a company interview brief',
    description: 'Interview-preparation package for one company, found by company_id, else slug, else name.',
    errors: [400, 404, 429, 503],
  },
  getHostedMcpHealth: {
    method: 'GET',
    path: `${API_PREFIX}/mcp/health`,
    summary: 'Hosted MCP health',
    description:
      '200 when all required probes pass, 503 when any fails; both bodies are the health response, not an envelope.',
    errors: [503],
  },
} as const;

export type OperationId = keyof typeof OPERATIONS;

/** `GET /api/public/v1/jobs/{jobId}`: how an operation is named to a reader. */
export function describeOperation(id: OperationId): string {
  return `${OPERATIONS[id].method} ${OPERATIONS[id].path}`;
}
