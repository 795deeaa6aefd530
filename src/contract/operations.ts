/**
 * The REST operations the client calls, by the spec's operation ids: one place for their method
 * and path, read by the client's requests and by the check against the deployed catalog.
 */
export const API_PREFIX = '/api/public/v1';

export const OPERATIONS = {
  discoverPublicApi: { method: 'GET', path: API_PREFIX },
  searchPublicJobs: { method: 'GET', path: `${API_PREFIX}/search/jobs` },
  listPublicJobs: { method: 'GET', path: `${API_PREFIX}/jobs` },
  getPublicJob: { method: 'GET', path: `${API_PREFIX}/jobs/{jobId}` },
  getPublicMarketMap: { method: 'GET', path: `${API_PREFIX}/market-map` },
  getCompanyInterviewBrief: { method: 'GET', path: `${API_PREFIX}/interview/company` },
  getHostedMcpHealth: { method: 'GET', path: `${API_PREFIX}/mcp/health` },
} as const;

export type OperationId = keyof typeof OPERATIONS;

/** `GET /api/public/v1/jobs/{jobId}`: how an operation is named to a reader. */
export function describeOperation(id: OperationId): string {
  return `${OPERATIONS[id].method} ${OPERATIONS[id].path}`;
}
