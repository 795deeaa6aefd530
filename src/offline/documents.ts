/**
 * The descriptive documents of the offline API: discovery data, health, the agent index
 * (llms.txt), the tool-server card, the agent-skills index, the sitemap and the Markdown index
 * sent with a 404. Their wording says, everywhere, that this is a snapshot and not live data.
 */
import { TOOL_NAMES } from '../contract/tool-names.js';
import type { HealthResponse } from '../contract/schemas.js';
import type { Dataset } from './dataset.js';
import { API_PREFIX } from '../contract/operations.js';
import { OPERATIONS } from './params.js';

export const OFFLINE_NOTICE =
  'Offline snapshot of the public hiring-intelligence read API, embedded in service-mcp: fictional companies, fixed data, not live.';

const OTHER_ADDRESSES = [
  { path: '/openapi.json', method: 'GET', description: 'Machine-readable OpenAPI 3.1 description.' },
  { path: '/llms.txt', method: 'GET', description: 'Agent index (plain text).' },
  { path: '/.well-known/mcp/server-card.json', method: 'GET', description: 'Tool-server card.' },
  { path: '/.well-known/agent-skills/index.json', method: 'GET', description: 'Agent skills index.' },
  { path: '/sitemap.xml', method: 'GET', description: 'Sitemap.' },
  {
    path: `${API_PREFIX}/mcp`,
    method: 'POST',
    description:
      'Hosted tool protocol (stateless Streamable HTTP); surface=market (the default) is the read-only market surface. Served over HTTP by `service-mcp mock-api`, with the same tools as the local package.',
  },
];

export function discoveryData(dataset: Dataset): Record<string, unknown> {
  return {
    name: 'Public hiring-intelligence read API',
    version: 'v1',
    notice: OFFLINE_NOTICE,
    endpoints: [
      ...OPERATIONS.map((op) => ({ path: op.path, method: 'GET', description: `${op.summary}. ${op.description}` })),
      ...OTHER_ADDRESSES,
    ],
    auth: {
      public_reads: 'none: every GET operation in this catalog is public and needs no credentials',
      market_surface: 'none: the market surface of the hosted tool endpoint is public and read-only',
      candidate_workspace: 'explicit candidate connection and a bearer token; outside the public contract',
      token_handling:
        'never place a token in a URL or a transcript; never send candidate data in public search query strings',
    },
    envelopes: {
      success: '{"success": true, "data": {...}, "meta": {"source", "generated_at", "computed_at", ...}}',
      error: '{"success": false, "error": "<code>", "message": "<what was wrong>"}',
      health:
        'bare health response {"status": "ok"|"degraded", "mcp_endpoint", "probes": [...]}: 200 when all probes pass, 503 when any fails',
      rate_limit: '429 with the error envelope and a Retry-After header in whole seconds',
    },
    snapshot: {
      mode: 'offline',
      ...dataset.snapshot,
      active_jobs: dataset.jobs.filter((j) => j.active).length,
      companies_with_briefs: dataset.companies.length,
      market_map_generated_at: dataset.market_map.meta.generated_at,
    },
  };
}

export function healthBody(dataset: Dataset, origin: string): HealthResponse {
  const probes = [
    { name: 'jobs_read_model', ok: true, status: 200, path: `${API_PREFIX}/jobs?per_page=1`, ms: 3 },
    { name: 'market_map_read_model', ok: true, status: 200, path: `${API_PREFIX}/market-map`, ms: 2 },
    {
      name: 'interview_read_model',
      ok: true,
      status: 200,
      path: `${API_PREFIX}/interview/company?slug=${dataset.companies[0]?.slug ?? 'unknown'}`,
      ms: 2,
    },
  ];
  return {
    status: 'ok',
    mcp_endpoint: `${origin}${API_PREFIX}/mcp`,
    probes,
    checked_at: dataset.snapshot.computed_at,
    notice: OFFLINE_NOTICE,
  };
}

export function llmsTxt(dataset: Dataset): string {
  const lines = [
    '# Public hiring-intelligence read API (offline snapshot)',
    '',
    `> ${OFFLINE_NOTICE} Snapshot generated ${dataset.snapshot.generated_at}.`,
    '',
    'Public reads need no credentials. Check the HTTP status before reading a body. Keep disclosed, extracted and predicted salaries distinct (salary.source).',
    '',
    '## Operations',
    '',
    ...OPERATIONS.map((op) => `- GET ${op.path}: ${op.summary}. ${op.description}`),
    '',
    '## Other addresses',
    '',
    ...OTHER_ADDRESSES.map((a) => `- ${a.method} ${a.path}: ${a.description}`),
    '',
  ];
  return lines.join('\n');
}

export function serverCard(origin: string): Record<string, unknown> {
  return {
    name: 'hiring-intelligence-market',
    title: 'Hiring intelligence (market surface, offline snapshot)',
    description: `${OFFLINE_NOTICE} Read-only tools for jobs, the market map and company interview briefs.`,
    version: '1.0.0',
    transport: { type: 'streamable-http', url: `${origin}${API_PREFIX}/mcp?surface=market` },
    authentication: { required: false },
    capabilities: { tools: { listChanged: false } },
    tools: TOOL_NAMES.map((name) => ({ name, read_only: true })),
  };
}

export function agentSkillsIndex(): Record<string, unknown> {
  return {
    skills: [
      {
        name: 'job-market-search',
        description: 'Search and read public AI and web3 job postings with their salary evidence class.',
        entry: '/llms.txt',
      },
      {
        name: 'interview-prep',
        description: 'Prepare for an interview with a company brief.',
        entry: `${API_PREFIX}/interview/company`,
      },
    ],
  };
}

export function sitemapXml(origin: string): string {
  const urls = ['/llms.txt', '/openapi.json', API_PREFIX].map((path) => `  <url><loc>${origin}${path}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** The short Markdown discovery index sent with a 404 to clients that ask for Markdown. */
export function notFoundMarkdown(pathname: string): string {
  return [
    '# 404: not found',
    '',
    `Nothing is published at \`${pathname}\`. ${OFFLINE_NOTICE}`,
    '',
    '## Start here',
    '',
    `- [Discovery](${API_PREFIX}): the endpoint catalog`,
    ...OPERATIONS.slice(1).map((op) => `- \`GET ${op.path}\`: ${op.summary}`),
    '- [OpenAPI](/openapi.json) · [llms.txt](/llms.txt)',
    '',
  ].join('\n');
}
