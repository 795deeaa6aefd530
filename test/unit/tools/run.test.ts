/** The tool boundary: argument refusal before any request, results, and every error kind. */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { RetryAfterGate } from '../../../src/api/retry-after-gate.js';
import { TOOLS } from '../../../src/tools/index.js';
import { findTool } from '../../helpers/tools.js';
import { newCallRecord } from '../../../src/obs/call-record.js';
import { outputSchemaOf, runTool } from '../../../src/tools/run.js';
import { jobListBody, makeJob } from '../../helpers/fixtures.js';

const BASE = 'https://api.example.test';
const server = setupServer();
let requests: URL[] = [];

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  requests = [];
});
afterAll(() => server.close());

function respond(handler: (url: URL) => Response | Promise<Response>) {
  server.use(
    http.get(`${BASE}/*`, ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      return handler(url);
    }),
  );
}

function context(overrides: Partial<ConstructorParameters<typeof ApiClient>[0]> = {}) {
  const client = new ApiClient({
    baseUrl: BASE,
    fetch: (url, init) => globalThis.fetch(url, init),
    maxRetryWaitS: 0,
    unavailableRetries: 0,
    gate: new RetryAfterGate(),
    ...overrides,
  });
  return { client, mode: 'http' as const };
}

const tool = (name: string) => findTool(name)!;
const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('bad arguments are refused by name, and nothing is sent', () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ['search_jobs', { per_page: 500 }, /^invalid_argument: per_page: must be at most 100, got 500/],
    ['search_jobs', { per_page: 0 }, /^invalid_argument: per_page: must be at least 1/],
    ['search_jobs', { page: 1.5 }, /^invalid_argument: page: must be an integer/],
    ['search_jobs', { q: '' }, /^invalid_argument: q: must be at least 1 character/],
    ['search_jobs', { q: 'x'.repeat(201) }, /^invalid_argument: q: must be at most 200 characters/],
    [
      'search_jobs',
      { q: 'reach me at jane.doe@example.com' },
      /^invalid_argument: q: must not contain an e-mail address/,
    ],
    ['search_jobs', { q: 'call +1 415 555 0100' }, /^invalid_argument: q: must not contain a phone number/],
    ['search_jobs', { location_country: 'USA' }, /^invalid_argument: location_country: must match/],
    ['search_jobs', { domain: 'bio' }, /^invalid_argument: domain: must be one of "ai", "web3", got "bio"/],
    ['search_jobs', { skill_match: 'some' }, /^invalid_argument: skill_match: must be one of "any", "all"/],
    ['search_jobs', { min_salary_usd: -1 }, /^invalid_argument: min_salary_usd: must be at least 0/],
    ['search_jobs', { skills: 'python' }, /^invalid_argument: skills: must be an array, got string/],
    ['search_jobs', { skills: ['a,b'] }, /^invalid_argument: skills\[0\]: must match/],
    ['search_jobs', { remote_only: 'yes' }, /^invalid_argument: remote_only: must be a boolean, got string/],
    [
      'search_jobs',
      { query: 'rust' },
      /^invalid_argument: query: is not an argument of this tool \(accepted: q, domain/,
    ],
    ['list_jobs', { min_salary_usd: 10 }, /^invalid_argument: min_salary_usd: is not an argument of this tool/],
    ['get_job', {}, /^invalid_argument: job_id: is required/],
    ['get_job', { job_id: '' }, /^invalid_argument: job_id: must be at least 1 character/],
    [
      'get_market_map',
      { status: 'done' },
      /^invalid_argument: status: must be one of "all", "ready", "partial", "missing", "error"/,
    ],
    ['get_company_interview_brief', {}, /^invalid_argument: company_id, slug or name: give exactly one \(none given\)/],
    [
      'get_company_interview_brief',
      { slug: 'acme', name: 'Acme' },
      /^invalid_argument: name: give exactly one of company_id, slug, name \(got slug and name\)/,
    ],
    ['get_company_interview_brief', { slug: 'Acme_Labs' }, /^invalid_argument: slug: must match/],
    [
      'get_company_interview_brief',
      { name: 'x'.repeat(161) },
      /^invalid_argument: name: must be at most 160 characters/,
    ],
  ];

  it.each(cases)('%s %j', async (name, args, expected) => {
    respond(() => HttpResponse.json({}));
    const result = await runTool(tool(name), args, context());
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(expected);
    expect(text(result)).toContain('Hint: Fix the argument named above');
    expect(requests).toHaveLength(0);
  });

  it('treats missing arguments as an empty object for tools without required ones', async () => {
    respond(() => HttpResponse.json(jobListBody([makeJob()])));
    const result = await runTool(tool('list_jobs'), undefined, context());
    expect(result.isError).toBeUndefined();
    expect(requests).toHaveLength(1);
  });

  it.each(['search_jobs', 'list_jobs'])('%s asks for 10 jobs a page when per_page is not given', async (name) => {
    respond(() => HttpResponse.json(jobListBody([makeJob()])));
    await runTool(tool(name), {}, context());
    await runTool(tool(name), { per_page: 20 }, context());
    expect(requests.map((url) => url.searchParams.get('per_page'))).toEqual(['10', '20']);
  });
});

describe('results', () => {
  it('structuredContent keeps data and meta as returned, unknown members included, and adds provenance', async () => {
    const body = jobListBody([makeJob({ future_member: { x: 1 } } as never)]);
    (body.meta as Record<string, unknown>).coverage = 'partial';
    respond(() => HttpResponse.json({ ...body, data: { ...body.data, facets: { ai: 1 } } }));
    const result = await runTool(
      tool('search_jobs'),
      { q: 'ml', skills: ['python', 'go'], remote_only: true },
      context(),
    );
    const structured = result.structuredContent as Record<string, any>;
    expect(structured.data.facets).toEqual({ ai: 1 });
    expect(structured.data.jobs[0].future_member).toEqual({ x: 1 });
    expect(structured.meta.coverage).toBe('partial');
    expect(structured.provenance).toMatchObject({
      source: 'jobs-read-model',
      generated_at_timezone: 'stated',
      reached: 'http',
      fictional: false,
      http_status: 200,
    });
    expect(outputSchemaOf(tool('search_jobs')).safeParse(structured).success).toBe(true);
    expect(requests[0]!.searchParams.get('skills')).toBe('python,go');
    expect(requests[0]!.searchParams.get('remote_only')).toBe('true');
    expect(text(result)).toMatch(
      // computed_at's age is said when it reads differently from generated_at's; the ages say when.
      /\nProvenance: source: jobs-read-model · generated_at: 2026-11-20T06:00:00Z \((?:\d+ (?:minute|hour|day)s? ago|just now)\) · computed_at: 2026-11-20T06:05:00Z(?: \((?:\d+ (?:minute|hour|day)s? ago|just now)\))? · reached: http · fictional: no \(the API does not say so\)$/,
    );
  });

  it('embedded results say first, before any figure, that the data is fictional; the last line keeps the full provenance', async () => {
    respond(() => HttpResponse.json(jobListBody([makeJob()])));
    const result = await runTool(tool('list_jobs'), {}, { ...context(), mode: 'embedded' });
    const lines = text(result).split('\n');
    expect(lines[0]).toBe("FICTIONAL sample data, by the API's own word: invented companies, jobs, salaries.");
    expect(lines[0]).not.toMatch(/\d/);
    expect(lines.at(-1)).toMatch(/^Provenance: source: .* · generated_at: .* · reached: embedded · fictional: yes$/);
    // The same words in structuredContent: the notice is the first line, the two facts apart.
    expect((result.structuredContent as any).provenance).toMatchObject({ reached: 'embedded', fictional: true });
    expect((result.structuredContent as any).notices).toEqual([lines[0]]);
    expect(outputSchemaOf(tool('list_jobs')).safeParse(result.structuredContent).success).toBe(true);
  });

  it('over HTTP, an API whose meta.source says fictional (mock-api) is http and fictional, in the text and structuredContent alike', async () => {
    const body = jobListBody([makeJob()]);
    (body.meta as Record<string, unknown>).source = 'offline-snapshot (served by mock-api: fictional sample data)';
    respond(() => HttpResponse.json(body));
    const result = await runTool(tool('list_jobs'), {}, context());
    const lines = text(result).split('\n');
    expect(lines[0]).toMatch(/^FICTIONAL sample data, by the API's own word: invented companies, jobs, salaries\.$/);
    expect(lines.at(-1)).toContain(' · reached: http · fictional: yes');
    expect(lines.at(-1)).not.toMatch(/\blive\b/);
    expect((result.structuredContent as any).provenance).toMatchObject({ reached: 'http', fictional: true });
    expect((result.structuredContent as any).notices).toEqual([lines[0]]);
  });

  it('results over HTTP that the API does not call fictional say so only in the last line: no notice', async () => {
    respond(() => HttpResponse.json(jobListBody([makeJob()])));
    const result = await runTool(tool('list_jobs'), {}, context());
    expect(text(result)).toMatch(/^Page 1 /);
    expect(text(result).match(/fictional/gi)).toEqual(['fictional']);
    expect(text(result)).toMatch(/ · fictional: no \(the API does not say so\)$/);
    expect((result.structuredContent as any).provenance).toMatchObject({ reached: 'http', fictional: false });
    expect(result.structuredContent).not.toHaveProperty('notices');
  });

  it('a 503 health is a result that says degraded, not an error', async () => {
    respond(() =>
      HttpResponse.json({ status: 'degraded', probes: [{ name: 'db', ok: false, status: 503 }] }, { status: 503 }),
    );
    const result = await runTool(tool('check_api_health'), {}, context());
    expect(result.isError).toBeUndefined();
    expect(text(result)).toContain('API health: DEGRADED (HTTP 503)');
    expect(text(result)).toContain('FAILING: db');
  });

  it('every tool result validates against its own output schema', async () => {
    respond((url) => {
      const path = url.pathname;
      const meta = { source: 's', generated_at: '2026-11-02 06:00:00', computed_at: null };
      if (path.endsWith('/mcp/health')) return HttpResponse.json({ status: 'ok', probes: [] });
      if (path.endsWith('/search/jobs') || path.endsWith('/jobs')) return HttpResponse.json(jobListBody([makeJob()]));
      if (path.includes('/jobs/')) return HttpResponse.json({ success: true, data: makeJob(), meta });
      if (path === '/api/public/v1')
        return HttpResponse.json({
          success: true,
          data: {
            endpoints: [{ path: '/x', method: 'GET', description: 'd' }],
            auth: { public: 'none' },
            envelopes: {},
          },
          meta,
        });
      return HttpResponse.json({
        success: true,
        data: { dimensions: [{ id: 'd', layer: 'models', readiness: 'ready' }] },
        meta,
      });
    });
    const args: Record<string, Record<string, unknown>> = {
      get_job: { job_id: 'job_ai_0001' },
      get_company_interview_brief: { slug: 'acme' },
    };
    for (const t of TOOLS) {
      const result = await runTool(t, args[t.name] ?? {}, context());
      expect(result.isError, `${t.name}: ${text(result)}`).toBeUndefined();
      expect(outputSchemaOf(t).safeParse(result.structuredContent).success, t.name).toBe(true);
      expect(text(result)).toMatch(/\nProvenance: /);
    }
  });
});

describe('errors start with their stable kind and carry a hint', () => {
  it.each([
    [
      404,
      {},
      /^not_found: HTTP 404 from GET \/api\/public\/v1\/jobs\/gone \(not_found: no such job\)\nHint: The record is absent/,
    ],
    [400, {}, /^invalid_argument: HTTP 400 .*\nHint: The API refused these parameters/],
    [503, {}, /^upstream_unavailable: HTTP 503 .*\nHint: The API is temporarily unavailable/],
    [429, { 'retry-after': '30' }, /^rate_limited: .*30s.*\(retry after 30 s\)\nHint: Wait 30 s/],
  ])('HTTP %i', async (status, headers, expected) => {
    respond(() =>
      HttpResponse.json(
        {
          success: false,
          error: status === 404 ? 'not_found' : 'e',
          message: status === 404 ? 'no such job' : undefined,
        },
        { status, headers },
      ),
    );
    const result = await runTool(tool('get_job'), { job_id: 'gone' }, context());
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(expected);
  });

  it('a tool can give a more specific hint for an error kind', async () => {
    respond(() => HttpResponse.json({ success: false, error: 'not_found' }, { status: 404 }));
    const result = await runTool(tool('get_company_interview_brief'), { name: 'Nobody' }, context());
    expect(text(result)).toMatch(
      /^not_found: .*\nHint: No brief for that company\. Use the company id or exact name from a job result/,
    );
  });

  it('a contract-breaking body is upstream_contract naming the JSON path', async () => {
    const job = makeJob();
    (job.salary as Record<string, unknown>).source = 7;
    respond(() => HttpResponse.json(jobListBody([makeJob(), job])));
    const result = await runTool(tool('search_jobs'), {}, context());
    expect(text(result)).toMatch(/^upstream_contract: .*data\.jobs\[1\]\.salary\.source/);
  });

  it('a hung upstream is a timeout', async () => {
    respond(() => new Promise<Response>(() => {}));
    const result = await runTool(tool('discover_api'), {}, context({ timeoutMs: 50 }));
    expect(text(result)).toMatch(/^timeout: GET \/api\/public\/v1 took longer than 50 ms\nHint:/);
  });

  it('an unreachable API is a network error naming the cause', async () => {
    const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9', fetch: (url, init) => globalThis.fetch(url, init) });
    server.use(http.get('http://127.0.0.1:9/*', () => HttpResponse.error()));
    const result = await runTool(tool('discover_api'), {}, { client, mode: 'http' });
    expect(text(result)).toMatch(/^network: GET \/api\/public\/v1 failed: /);
  });

  it('a bug in a renderer becomes an error result, not a crash', async () => {
    respond(() => HttpResponse.json({ status: 'ok', probes: [] }));
    const broken = {
      ...tool('check_api_health'),
      render: () => {
        throw new Error('boom');
      },
    };
    const result = await runTool(broken, {}, context());
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /^internal: a defect of this server \(service-mcp\), not the API's: the tool check_api_health failed inside service-mcp\/\S+ on Node\.js v\d+\.\d+\.\d+: Error: boom\nHint: This is a defect of service-mcp/,
    );
    expect(text(result)).not.toMatch(/connectivity|proxy|check the/i);
  });
});

describe('check_api_health explains this server whatever the API does, and says first whose problem it is', () => {
  const health = () => tool('check_api_health');
  const lines = (result: { content: unknown[] }) => text(result).split('\n');
  const SERVER_SECTION =
    /\nThis server \(service-mcp [^)]+\): 1 tool call\(s\) in flight, this one included\.\n- Rate limit: /;

  it('unreachable: a network error naming the API as the problem, then this server section', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
    });
    const result = await runTool(health(), {}, context({ fetch: () => Promise.reject(refused) }));
    expect(result.isError).toBe(true);
    expect(lines(result)[0]).toMatch(
      /^network: the API did not answer \(the problem is the API, or the way to it, not this server\): GET \/api\/public\/v1\/mcp\/health failed: .*ECONNREFUSED/,
    );
    expect(lines(result)[1]).toMatch(/^Hint: /);
    expect(text(result)).toMatch(SERVER_SECTION);
    expect(text(result)).toContain('- Cache: ');
  });

  it('failing: a 503 that is not the health response is the API failing, with this server section', async () => {
    respond(
      () => new HttpResponse('<html>bad gateway</html>', { status: 503, headers: { 'content-type': 'text/html' } }),
    );
    const result = await runTool(health(), {}, context());
    expect(result.isError).toBe(true);
    expect(lines(result)[0]).toMatch(
      /^\w+: the API's health endpoint (?:failed|broke its contract) \(the problem is the API's, not this server's\): /,
    );
    expect(text(result)).toMatch(SERVER_SECTION);
  });

  it("rate-limited: the API's limit, and this server's cool-down and last 429 in its section", async () => {
    respond(() =>
      HttpResponse.json({ success: false, error: 'rate_limited' }, { status: 429, headers: { 'retry-after': '30' } }),
    );
    const result = await runTool(health(), {}, context());
    expect(result.isError).toBe(true);
    expect(lines(result)[0]).toMatch(
      /^rate_limited: the API is rate-limiting this server \(the API's limit, not a fault here; this server waits as asked\): /,
    );
    expect(text(result)).toMatch(SERVER_SECTION);
    expect(text(result)).toMatch(/- Rate limit: .*; last 429 at \S+ \(Retry-After 30 s\)\./);
  });

  it('answered: the first line says which side has the problem, or that neither has', async () => {
    respond(() => HttpResponse.json({ status: 'ok', probes: [{ name: 'db', ok: true }] }));
    expect(lines(await runTool(health(), {}, context()))[0]).toBe(
      'API health: OK (HTTP 200); 1 of 1 probes passing. No problem on either side.',
    );
    respond(() => HttpResponse.json({ status: 'degraded', probes: [{ name: 'db', ok: false }] }, { status: 503 }));
    const degraded = await runTool(health(), {}, context());
    expect(lines(degraded)[0]).toBe(
      "API health: DEGRADED (HTTP 503); 0 of 1 probes passing. The problem is the API's, not this server's.",
    );
    expect(text(degraded)).toMatch(SERVER_SECTION);
  });
});

describe('one wording for every length limit', () => {
  it.each([
    [{ q: '' }, 'q: must be at least 1 character long'],
    [{ q: 'x'.repeat(201) }, 'q: must be at most 200 characters long'],
    [{ skills: [] }, 'skills: must have at least 1 item'],
    [{ skills: Array.from({ length: 21 }, (_, i) => `s${i}`) }, 'skills: must have at most 20 items'],
    [{ skills: ['x'.repeat(61)] }, 'skills[0]: must be at most 60 characters long'],
    [{ skills: [''] }, 'skills[0]: must be at least 1 character long'],
    [{ seniority_level: 'x'.repeat(61) }, 'seniority_level: must be at most 60 characters long'],
    [{ company_type: 'x'.repeat(61) }, 'company_type: must be at most 60 characters long'],
  ])('%j', async (args, expected) => {
    const result = await runTool(tool('search_jobs'), args, context());
    expect(text(result).split('\n')[0]).toBe(`invalid_argument: ${expected}`);
  });

  // Our own bounds where the spec gives none: not listed in tools/list (registry.test.ts), refused all the same.
  it.each([
    ['get_job', { job_id: 'x'.repeat(201) }, 'job_id: must be at most 200 characters long'],
    ['get_market_map', { layer: 'x'.repeat(61) }, 'layer: must be at most 60 characters long'],
    ['get_company_interview_brief', { slug: 'a'.repeat(161) }, 'slug: must be at most 160 characters long'],
    ['get_company_interview_brief', { company_id: '1'.repeat(201) }, 'company_id: must be at most 200 characters long'],
  ])('%s %j', async (name, args, expected) => {
    const result = await runTool(tool(name), args, context());
    expect(text(result).split('\n')[0]).toBe(`invalid_argument: ${expected}`);
  });
});

describe('the call record', () => {
  it('holds what a call learned as data: arguments, each upstream request, the error kind and the result', async () => {
    respond(() => HttpResponse.json({ success: false, error: 'not_found' }, { status: 404 }));
    const record = newCallRecord('get_job');
    const result = await runTool(tool('get_job'), { job_id: 'gone' }, context(), record);
    expect(record).toMatchObject({
      tool: 'get_job',
      arguments: 'valid',
      upstream: [{ operation: 'getPublicJob', status: 404, cacheHit: false }],
      waitsS: [],
      error: { kind: 'not_found' },
    });
    expect(record.result).toBe(result);
    expect(text(result).startsWith(record.error!.message)).toBe(true);
  });

  it('says when the arguments were refused, and that nothing was sent', async () => {
    const record = newCallRecord('search_jobs');
    await runTool(tool('search_jobs'), { per_page: 500 }, context(), record);
    expect(record).toMatchObject({ arguments: 'invalid', upstream: [], error: { kind: 'invalid_argument' } });
  });

  it('a success has no error, and its result is the one returned', async () => {
    respond(() => HttpResponse.json(jobListBody([makeJob()])));
    const record = newCallRecord('list_jobs');
    const result = await runTool(tool('list_jobs'), {}, context(), record);
    expect(record.error).toBeUndefined();
    expect(record.upstream).toEqual([{ operation: 'listPublicJobs', status: 200, cacheHit: false }]);
    expect(record.result).toBe(result);
  });
});
