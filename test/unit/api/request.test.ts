/** What the client puts on the wire: paths, query serialization, method, headers. */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { buildQuery } from '../../../src/api/query.js';
import { USER_AGENT, VERSION } from '../../../src/contract/version.js';
import { BASE, discovery, envelope, health, jobList, makeClient, makeJob, makeServer } from './helpers.js';

const server = makeServer();
interface Seen {
  method: string;
  url: URL;
  headers: Headers;
  body: string;
}
let seen: Seen[] = [];

function answer(url: URL): Response {
  const path = url.pathname;
  if (path === '/api/public/v1' || path === '/api/public/v1/') return HttpResponse.json(discovery());
  if (path === '/api/public/v1/search/jobs' || path === '/api/public/v1/jobs') return HttpResponse.json(jobList());
  if (path.startsWith('/api/public/v1/jobs/')) return HttpResponse.json(envelope(makeJob()));
  if (path === '/api/public/v1/market-map' || path === '/api/public/v1/interview/company')
    return HttpResponse.json(envelope({ anything: true }));
  if (path === '/api/public/v1/mcp/health') return HttpResponse.json(health());
  if (path === '/openapi.json') return HttpResponse.json({ openapi: '3.1.0', info: { version: '1.0.0' } });
  if (path === '/llms.txt') return HttpResponse.text('# llms.txt\n');
  return HttpResponse.json({ success: false, error: 'not_found' }, { status: 404 });
}

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  seen = [];
});
afterAll(() => server.close());

function record() {
  server.use(
    http.all(`${BASE}/*`, async ({ request }) => {
      const url = new URL(request.url);
      seen.push({ method: request.method, url, headers: request.headers, body: await request.text() });
      return answer(url);
    }),
  );
}

function only(): Seen {
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe('buildQuery', () => {
  it('omits undefined, comma-joins arrays, drops empty arrays, writes booleans and numbers', () => {
    const text = buildQuery({
      q: 'rust engineer',
      skills: ['rust', 'go'],
      tags: [],
      remote_only: true,
      include_predicted_salaries: false,
      page: 2,
      per_page: 50,
      domain: undefined,
    });
    const params = new URLSearchParams(text.slice(1));
    expect(text.startsWith('?')).toBe(true);
    expect([...params.keys()]).toEqual([
      'q',
      'skills',
      'remote_only',
      'include_predicted_salaries',
      'page',
      'per_page',
    ]);
    expect(params.get('q')).toBe('rust engineer');
    expect(params.get('skills')).toBe('rust,go');
    expect(params.get('remote_only')).toBe('true');
    expect(params.get('include_predicted_salaries')).toBe('false');
    expect(params.get('page')).toBe('2');
    expect(params.get('per_page')).toBe('50');
  });

  it('returns an empty string when nothing is set', () => {
    expect(buildQuery({})).toBe('');
    expect(buildQuery({ a: undefined, b: [] })).toBe('');
  });

  it('escapes reserved characters so one value cannot inject another parameter', () => {
    const params = new URLSearchParams(buildQuery({ q: 'a&page=9#x' }).slice(1));
    expect(params.get('q')).toBe('a&page=9#x');
    expect(params.get('page')).toBeNull();
  });
});

describe('each method hits its REST operation with a bodiless GET', () => {
  const cases: Array<[string, (c: ApiClient) => Promise<unknown>, string]> = [
    ['discover', (c) => c.discover(), '/api/public/v1'],
    ['searchJobs', (c) => c.searchJobs({ q: 'ml' }), '/api/public/v1/search/jobs'],
    ['listJobs', (c) => c.listJobs(), '/api/public/v1/jobs'],
    ['getJob', (c) => c.getJob('job-1'), '/api/public/v1/jobs/job-1'],
    ['getMarketMap', (c) => c.getMarketMap(), '/api/public/v1/market-map'],
    [
      'getCompanyInterviewBrief',
      (c) => c.getCompanyInterviewBrief({ slug: 'acme-ai' }),
      '/api/public/v1/interview/company',
    ],
    ['getHealth', (c) => c.getHealth(), '/api/public/v1/mcp/health'],
    ['getOpenApi', (c) => c.getOpenApi(), '/openapi.json'],
    ['getLlmsTxt', (c) => c.getLlmsTxt(), '/llms.txt'],
  ];

  it.each(cases)('%s', async (_name, call, pathname) => {
    record();
    await call(makeClient());
    const request = only();
    expect(request.method).toBe('GET');
    expect(request.url.origin).toBe(BASE);
    expect(request.url.pathname).toBe(pathname);
    expect(request.body).toBe('');
    expect(request.headers.get('user-agent')).toBe(USER_AGENT);
    expect(USER_AGENT).toBe(`service-mcp/${VERSION}`);
    expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
    expect(request.headers.get('content-type')).toBeNull();
  });

  it('asks for JSON on the JSON operations', async () => {
    record();
    const client = makeClient();
    await client.discover();
    await client.listJobs();
    await client.getHealth();
    await client.getOpenApi();
    expect(seen.map((s) => s.headers.get('accept'))).toEqual([
      'application/json',
      'application/json',
      'application/json',
      'application/json',
    ]);
  });

  it('keeps a path prefix of the base URL and ignores its trailing slashes', async () => {
    server.use(
      http.all(`${BASE}/*`, ({ request }) => {
        seen.push({ method: request.method, url: new URL(request.url), headers: request.headers, body: '' });
        return HttpResponse.json(jobList());
      }),
    );
    await makeClient({ baseUrl: `${BASE}/prefix//` }).listJobs();
    expect(only().url.pathname).toBe('/prefix/api/public/v1/jobs');
  });
});

describe('query parameters on the wire', () => {
  it('searchJobs sends every search filter, serialized', async () => {
    record();
    await makeClient().searchJobs({
      q: 'ml engineer',
      domain: 'ai',
      skills: ['python', 'pytorch'],
      skill_match: 'all',
      company_type: 'startup',
      seniority_level: 'senior',
      remote_only: true,
      location_country: 'DE',
      min_salary_usd: 100000,
      max_salary_usd: 250000.5,
      page: 3,
      per_page: 100,
      include_predicted_salaries: false,
    });
    const query = Object.fromEntries(only().url.searchParams);
    expect(query).toEqual({
      q: 'ml engineer',
      domain: 'ai',
      skills: 'python,pytorch',
      skill_match: 'all',
      company_type: 'startup',
      seniority_level: 'senior',
      remote_only: 'true',
      location_country: 'DE',
      min_salary_usd: '100000',
      max_salary_usd: '250000.5',
      page: '3',
      per_page: '100',
      include_predicted_salaries: 'false',
    });
  });

  it('searchJobs with no parameters sends no query string', async () => {
    record();
    await makeClient().searchJobs();
    expect(only().url.search).toBe('');
  });

  it('searchJobs omits undefined members and an empty skills array', async () => {
    record();
    await makeClient().searchJobs({ q: 'x', skills: [], domain: undefined, remote_only: false });
    expect(Object.fromEntries(only().url.searchParams)).toEqual({ q: 'x', remote_only: 'false' });
  });

  it('listJobs never sends the search-only parameters, even when handed a search object', async () => {
    record();
    const searchOnly = { skill_match: 'all', company_type: 'dao', min_salary_usd: 1, max_salary_usd: 2 } as const;
    await makeClient().listJobs({ q: 'rust', skills: ['rust'], page: 2, ...searchOnly } as Parameters<
      ApiClient['listJobs']
    >[0]);
    const query = Object.fromEntries(only().url.searchParams);
    expect(query).toEqual({ q: 'rust', skills: 'rust', page: '2' });
    for (const key of Object.keys(searchOnly)) expect(query).not.toHaveProperty(key);
  });

  it('getJob path-encodes the id and sends include_predicted_salaries', async () => {
    const raw: string[] = [];
    server.use(
      http.all(`${BASE}/*`, ({ request }) => {
        raw.push(request.url);
        return HttpResponse.json(envelope(makeJob({ job_id: 'a/b c' })));
      }),
    );
    const result = await makeClient().getJob('a/b c', { include_predicted_salaries: true });
    expect(raw).toEqual([`${BASE}/api/public/v1/jobs/a%2Fb%20c?include_predicted_salaries=true`]);
    expect(result.path).toBe('/api/public/v1/jobs/a%2Fb%20c?include_predicted_salaries=true');
  });

  it('getJob encodes ? and # so they stay in the id', async () => {
    const raw: string[] = [];
    server.use(
      http.all(`${BASE}/*`, ({ request }) => {
        raw.push(request.url);
        return HttpResponse.json(envelope(makeJob()));
      }),
    );
    await makeClient().getJob('x?y#z');
    expect(raw).toEqual([`${BASE}/api/public/v1/jobs/x%3Fy%23z`]);
  });

  it.each(['', '.', '..'])(
    'getJob refuses the id %j, which would address another resource, without a request',
    async (id) => {
      record();
      await expect(makeClient().getJob(id)).rejects.toMatchObject({ name: 'ApiError', kind: 'invalid_argument' });
      expect(seen).toHaveLength(0);
    },
  );

  it('getMarketMap sends status and layer', async () => {
    record();
    await makeClient().getMarketMap({ status: 'ready', layer: 'skills' });
    expect(Object.fromEntries(only().url.searchParams)).toEqual({ status: 'ready', layer: 'skills' });
  });

  it('getCompanyInterviewBrief sends only the identifiers given', async () => {
    record();
    await makeClient().getCompanyInterviewBrief({ name: 'Acme AI & Co' });
    expect(Object.fromEntries(only().url.searchParams)).toEqual({ name: 'Acme AI & Co' });
  });
});

describe('results', () => {
  it('carry data, meta, status, path and a retrieval time', async () => {
    record();
    const result = await makeClient().listJobs({ page: 1 });
    expect(result.status).toBe(200);
    expect(result.path).toBe('/api/public/v1/jobs?page=1');
    expect(result.meta.source).toBe('jobs-read-model');
    expect(result.data.jobs[0]!.job_id).toBe('job_ai_0001');
    expect(Number.isNaN(Date.parse(result.retrievedAt))).toBe(false);
  });

  it('getLlmsTxt returns the text as is', async () => {
    record();
    await expect(makeClient().getLlmsTxt()).resolves.toBe('# llms.txt\n');
  });

  it('getOpenApi returns the JSON document', async () => {
    record();
    await expect(makeClient().getOpenApi()).resolves.toMatchObject({ openapi: '3.1.0' });
  });
});
