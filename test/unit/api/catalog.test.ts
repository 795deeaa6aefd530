/**
 * The deployed catalog: discovery read once and kept as its cache headers say, an operation it
 * does not list refused as not_deployed with nothing sent, and a discovery that fails, is rate
 * limited or is held by the API's cool-down never holding a tool up. Over a scripted upstream
 * (microtasks only), with fake timers where time matters.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CATALOG_RETRY_S, DeployedCatalog, freshnessS, operationOf } from '../../../src/api/deployed-catalog.js';
import { ApiClient } from '../../../src/api/client.js';
import { ApiError } from '../../../src/contract/errors.js';
import { RetryAfterGate } from '../../../src/api/retry-after-gate.js';
import { OPERATIONS } from '../../../src/contract/operations.js';
import { BASE, envelope, fakeUpstream, jobList, limited, makeJob, rejectionOf, unavailable } from './helpers.js';

const ALL = Object.values(OPERATIONS).map(({ method, path }) => ({ method, path, description: 'd' }));
const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', ...headers } });
const catalogOf = (
  endpoints: Array<{ method: string; path: string; description?: string }>,
  headers: Record<string, string> = { 'cache-control': 'max-age=60' },
) =>
  json(envelope({ endpoints: endpoints.map((e) => ({ description: 'd', ...e })), auth: {}, envelopes: {} }), headers);
const withoutMarketMap = () => catalogOf(ALL.filter((e) => !e.path.endsWith('/market-map')));

/** An upstream answering discovery with `discovery()` and every other path with a job list (or a job). */
function upstream(discovery: () => Response | Promise<Response>) {
  return fakeUpstream((_n, url) => {
    if (url.pathname === '/api/public/v1') return discovery();
    if (url.pathname.startsWith('/api/public/v1/jobs/')) return json(envelope(makeJob()));
    if (url.pathname === '/api/public/v1/market-map') return json(envelope({ dimensions: [] }));
    return json(jobList());
  });
}

const clientOver = (
  fetch: ReturnType<typeof fakeUpstream>['fetch'],
  options: Partial<ConstructorParameters<typeof ApiClient>[0]> = {},
) => new ApiClient({ baseUrl: BASE, fetch, random: () => 0.5, checkCatalog: true, ...options });

const paths = (calls: ReturnType<typeof fakeUpstream>['calls']) => calls.map((c) => c.url.pathname);

afterEach(() => {
  vi.useRealTimers();
});

describe('which operation a catalog endpoint is', () => {
  it.each([
    ['GET', '/api/public/v1/jobs/{jobId}', 'getPublicJob'],
    ['GET', '/api/public/v1/jobs/{job_id}', 'getPublicJob'],
    ['GET', '/api/public/v1/jobs/:jobId', 'getPublicJob'],
    ['get', '/api/public/v1/search/jobs/', 'searchPublicJobs'],
    ['GET, HEAD', '/api/public/v1/market-map', 'getPublicMarketMap'],
    ['GET', 'https://api.example.test/api/public/v1/mcp/health', 'getHostedMcpHealth'],
    ['GET', '/api/public/v1/', 'discoverPublicApi'],
    ['GET', '/api/public/v1/interview/company?slug=x', 'getCompanyInterviewBrief'],
  ])('%s %s is %s', (method, path, id) => {
    expect(operationOf({ method, path }, '')).toBe(id);
  });

  it.each([
    ['POST', '/api/public/v1/mcp'],
    ['POST', '/api/public/v1/jobs'],
    ['GET', '/openapi.json'],
    ['GET', '/api/public/v1/jobs/{jobId}/applications'],
    ['GET', '/api/public/v2/jobs'],
  ])('%s %s is none of ours', (method, path) => {
    expect(operationOf({ method, path }, '')).toBeUndefined();
  });

  it('a base URL with a path of its own matches with or without it', () => {
    expect(operationOf({ method: 'GET', path: '/proxy/api/public/v1/jobs' }, '/proxy')).toBe('listPublicJobs');
    expect(operationOf({ method: 'GET', path: '/api/public/v1/jobs' }, '/proxy')).toBe('listPublicJobs');
  });
});

describe('how long a catalog is kept', () => {
  const h = (headers: Record<string, string>) => new Headers(headers);
  it('max-age less Age; no-store and no-cache are 0; Expires less Date; 5 min without either; an hour at most', () => {
    expect(freshnessS(h({ 'cache-control': 'public, max-age=60' }))).toBe(60);
    expect(freshnessS(h({ 'cache-control': 'max-age=60', age: '25' }))).toBe(35);
    expect(freshnessS(h({ 'cache-control': 'no-store' }))).toBe(0);
    expect(freshnessS(h({ 'cache-control': 'no-cache, max-age=60' }))).toBe(0);
    expect(freshnessS(h({ expires: 'Thu, 01 Jan 2026 00:10:00 GMT', date: 'Thu, 01 Jan 2026 00:00:00 GMT' }))).toBe(
      600,
    );
    expect(freshnessS(h({ expires: 'yesterday' }))).toBe(0);
    expect(freshnessS(h({}))).toBe(300);
    expect(freshnessS(h({ 'cache-control': 'max-age=31536000' }))).toBe(3600);
  });
});

describe('an operation the deployed catalog does not list', () => {
  it('is not_deployed at once, naming the operation and what the catalog lists, with nothing sent to it', async () => {
    const api = upstream(withoutMarketMap);
    const client = clientOver(api.fetch);
    const error = await rejectionOf(client.getMarketMap());
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe('not_deployed');
    expect(error.message).toMatch(
      /^not_deployed: the deployed catalog \(GET \/api\/public\/v1\) does not list GET \/api\/public\/v1\/market-map \(getPublicMarketMap\), so nothing was sent to it; it lists "GET \/api\/public\/v1", "GET \/api\/public\/v1\/search\/jobs"/,
    );
    expect(paths(api.calls)).toEqual(['/api/public/v1']);
    // What it does list goes ahead, and says it was checked.
    const job = await client.getJob('job_ai_0001');
    expect(job.catalog).toEqual({ checked: true });
    expect(paths(api.calls)).toEqual(['/api/public/v1', '/api/public/v1/jobs/job_ai_0001']);
  });

  it('a long catalog is named in part, and counted', async () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ method: 'GET', path: `/api/public/v1/extra/${i}` }));
    const client = clientOver(upstream(() => catalogOf([ALL[1]!, ...many])).fetch);
    const error = await rejectionOf(client.getJob('x'));
    expect(error.message).toMatch(/ and 19 more$/);
  });

  it('a catalog that names none of our operations is not relied on: tools carry on, unchecked', async () => {
    const api = upstream(() => catalogOf([{ method: 'GET', path: '/v9/everything' }]));
    const result = await clientOver(api.fetch).getMarketMap();
    expect(result.catalog).toEqual({
      checked: false,
      reason: expect.stringMatching(/lists none of the operations this client knows/),
    });
    expect(paths(api.calls)).toEqual(['/api/public/v1', '/api/public/v1/market-map']);
  });
});

describe('discovery is read once', () => {
  it('for many calls, concurrent or not, while it is fresh; again once its max-age is over', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const api = upstream(() => catalogOf(ALL));
    const client = clientOver(api.fetch);
    await Promise.all(Array.from({ length: 5 }, () => client.searchJobs({ q: 'rust' })));
    for (let i = 0; i < 5; i++) await client.listJobs();
    expect(paths(api.calls).filter((p) => p === '/api/public/v1')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(59_000);
    await client.listJobs();
    expect(paths(api.calls).filter((p) => p === '/api/public/v1')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2_000);
    await client.listJobs();
    expect(paths(api.calls).filter((p) => p === '/api/public/v1')).toHaveLength(2);
  });

  it('a discover_api call refreshes it: no read of its own afterwards', async () => {
    const api = upstream(withoutMarketMap);
    const client = clientOver(api.fetch);
    const discovered = await client.discover();
    expect(discovered.endpointOperations).toContain('getPublicJob');
    expect(discovered.endpointOperations).not.toContain('getPublicMarketMap');
    expect((await rejectionOf(client.getMarketMap())).kind).toBe('not_deployed');
    expect(paths(api.calls)).toEqual(['/api/public/v1']);
  });

  it('no-store means read before every call', async () => {
    const api = upstream(() => catalogOf(ALL, { 'cache-control': 'no-store' }));
    const client = clientOver(api.fetch);
    await client.listJobs();
    const second = await client.listJobs();
    expect(second.catalog).toEqual({ checked: true });
    expect(paths(api.calls)).toEqual([
      '/api/public/v1',
      '/api/public/v1/jobs',
      '/api/public/v1',
      '/api/public/v1/jobs',
    ]);
  });
});

describe('when discovery cannot be read, tools carry on', () => {
  it('a 429 on discovery holds neither the tools nor waits: unchecked, and discovery is left alone for its Retry-After', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const api = upstream(() => limited('120'));
    const gate = new RetryAfterGate();
    const client = clientOver(api.fetch, { gate });
    const first = await client.listJobs();
    expect(first.catalog).toEqual({ checked: false, reason: 'discovery failed (rate_limited)' });
    expect(gate.open(), "the tools' gate stays open").toBeDefined();
    await client.getJob('job_ai_0001');
    await vi.advanceTimersByTimeAsync(100_000);
    await client.listJobs();
    expect(paths(api.calls).filter((p) => p === '/api/public/v1')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(21_000);
    await client.listJobs();
    expect(paths(api.calls).filter((p) => p === '/api/public/v1')).toHaveLength(2);
  });

  it('a 503 is asked once, not retried; discovery is asked again after a pause', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const api = upstream(() => unavailable());
    const client = clientOver(api.fetch);
    expect((await client.searchJobs()).catalog).toEqual({
      checked: false,
      reason: 'discovery failed (upstream_unavailable)',
    });
    expect(paths(api.calls)).toEqual(['/api/public/v1', '/api/public/v1/search/jobs']);
    await vi.advanceTimersByTimeAsync(CATALOG_RETRY_S * 1000 + 1);
    await client.searchJobs();
    expect(paths(api.calls).filter((p) => p === '/api/public/v1')).toHaveLength(2);
  });

  it('a discovery that never answers holds a call no longer than the client timeout (5 s at most)', async () => {
    const api = upstream(() => new Promise<Response>(() => {}));
    const result = await clientOver(api.fetch, { timeoutMs: 150 }).getJob('job_ai_0001');
    expect(result.catalog).toEqual({ checked: false, reason: 'discovery failed (timeout)' });
  });

  it('a body that breaks the contract is unchecked too (and does not reach the caller as an error)', async () => {
    const api = upstream(() => json(envelope({ endpoints: 'all of them' })));
    expect((await clientOver(api.fetch).getJob('job_ai_0001')).catalog).toEqual({
      checked: false,
      reason: 'discovery failed (upstream_contract)',
    });
  });

  it("while the API's own cool-down lasts, discovery is not asked either", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const api = upstream(() => catalogOf(ALL));
    const gate = new RetryAfterGate();
    gate.block(5);
    const pending = clientOver(api.fetch, { gate }).listJobs();
    await vi.advanceTimersByTimeAsync(5_000);
    const result = await pending;
    expect(result.catalog).toEqual({ checked: false, reason: expect.stringMatching(/asked for a pause \(429\)/) });
    expect(paths(api.calls)).toEqual(['/api/public/v1/jobs']);
  });
});

describe('cancellation', () => {
  it('a caller cancelled while the shared read is on its way is cancelled; the others get their answers', async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const api = upstream(async () => {
      await held;
      return catalogOf(ALL);
    });
    const client = clientOver(api.fetch);
    const leaving = new AbortController();
    const cancelled = client.listJobs({}, { signal: leaving.signal });
    const staying = client.searchJobs();
    await Promise.resolve();
    leaving.abort(new Error('gone'));
    expect((await rejectionOf(cancelled)).kind).toBe('cancelled');
    answer();
    expect((await staying).catalog).toEqual({ checked: true });
    expect(paths(api.calls)).toEqual(['/api/public/v1', '/api/public/v1/search/jobs']);
  });
});

describe('DeployedCatalog on its own', () => {
  it('logs the reason once per failure window, not once per call', async () => {
    let now = 0;
    const reasons: string[] = [];
    const catalog = new DeployedCatalog({
      basePath: '',
      read: () => Promise.reject(new Error('boom')),
      mayRead: () => true,
      onUnchecked: (reason) => reasons.push(reason),
      now: () => now,
    });
    for (let i = 0; i < 10; i++) await catalog.check('listPublicJobs');
    expect(reasons).toEqual(['discovery failed (unexpected error)']);
    now += CATALOG_RETRY_S * 1000;
    await catalog.check('listPublicJobs');
    expect(reasons).toHaveLength(2);
  });
});

/** The user's cache file, in memory, holding `text` at first: what one run writes, the next reads. */
function memoryFile(text?: string) {
  const file = { text, read: () => file.text, write: (t: string) => (file.text = t) };
  return file;
}

describe('the catalog kept between runs', () => {
  it("is taken up by the next run while its headers keep it fresh: that run's first call sends only its own request", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const file = memoryFile();
    const first = upstream(() => catalogOf(ALL, { 'cache-control': 'max-age=60' }));
    await clientOver(first.fetch, { keptCatalog: file }).getJob('job_ai_0001');
    expect(paths(first.calls)).toEqual(['/api/public/v1', '/api/public/v1/jobs/job_ai_0001']);
    expect(JSON.parse(file.text!)).toMatchObject({ freshUntil: Date.now() + 60_000 });

    vi.setSystemTime(Date.now() + 59_000);
    const next = upstream(() => catalogOf(ALL));
    const nextRun = clientOver(next.fetch, { keptCatalog: file });
    const job = await nextRun.getJob('job_ai_0001');
    expect(job.catalog).toEqual({ checked: true });
    expect(paths(next.calls)).toEqual(['/api/public/v1/jobs/job_ai_0001']);
    // Health says whose read it is, and when it was made.
    expect(nextRun.state().catalog).toEqual({ read: true, kept: true, at: Date.now() - 59_000 });

    // Past its freshness, a run reads discovery again, as it would with no file.
    vi.setSystemTime(Date.now() + 2_000);
    const later = upstream(() => catalogOf(ALL));
    await clientOver(later.fetch, { keptCatalog: file }).getJob('job_ai_0001');
    expect(paths(later.calls)).toEqual(['/api/public/v1', '/api/public/v1/jobs/job_ai_0001']);
  });

  it('one that does not list an operation refuses it as not_deployed, with nothing sent at all', async () => {
    const file = memoryFile();
    await clientOver(upstream(withoutMarketMap).fetch, { keptCatalog: file }).listJobs();
    const next = upstream(() => catalogOf(ALL));
    const error = await rejectionOf(clientOver(next.fetch, { keptCatalog: file }).getMarketMap());
    expect(error.kind).toBe('not_deployed');
    expect(next.calls).toEqual([]);
  });

  it.each([
    ['not JSON', () => '{"endpoints": ['],
    [
      'of another shape',
      () => JSON.stringify({ endpoints: [{ method: 'GET' }], at: Date.now(), freshUntil: Date.now() + 1e3 }),
    ],
    ['read in the future (the clock moved back)', () => kept(Date.now() + 10_000, Date.now() + 20_000)],
    ['fresh for longer than an hour', () => kept(Date.now(), Date.now() + 3_601_000)],
  ])('one %s is not taken up: discovery is read', async (_why, text) => {
    const file = memoryFile(text());
    const api = upstream(() => catalogOf(ALL));
    await clientOver(api.fetch, { keptCatalog: file }).getJob('job_ai_0001');
    expect(paths(api.calls)).toEqual(['/api/public/v1', '/api/public/v1/jobs/job_ai_0001']);
  });
});

function kept(at: number, freshUntil: number): string {
  return JSON.stringify({ endpoints: ALL.map(({ method, path }) => ({ method, path })), at, freshUntil });
}

describe('a server start with a kept catalog', () => {
  it('reads discovery all the same (it opens the connection), but a call made meanwhile does not wait for it', async () => {
    let answer!: (response: Response) => void;
    const api = upstream(() => new Promise<Response>((resolve) => (answer = resolve)));
    const client = clientOver(api.fetch, { keptCatalog: memoryFile(kept(Date.now(), Date.now() + 60_000)) });
    client.readAhead();
    const job = await client.getJob('job_ai_0001');
    expect(job.catalog).toEqual({ checked: true });
    expect(paths(api.calls)).toEqual(['/api/public/v1', '/api/public/v1/jobs/job_ai_0001']);
    answer(catalogOf(ALL));
  });

  it('a renewal that fails leaves the kept catalog in use: calls stay checked', async () => {
    const api = upstream(() => new Response('down', { status: 503 }));
    const client = clientOver(api.fetch, { keptCatalog: memoryFile(kept(Date.now(), Date.now() + 60_000)) });
    client.readAhead();
    await vi.waitFor(() => expect(client.state().catalog?.failure).toBeDefined());
    const job = await client.getJob('job_ai_0001');
    expect(job.catalog).toEqual({ checked: true });
    await expect(client.getMarketMap()).resolves.toBeDefined();
  });
});
