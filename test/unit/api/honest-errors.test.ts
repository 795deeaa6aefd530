/**
 * Errors that say what happened: a 404 is a missing record only where a record was asked for, a
 * path shown in an error is the one really requested (the base URL's own path included), and one
 * extreme Retry-After cannot lock the process, nor another endpoint's cool-down lock the health probe.
 */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RETRY_AFTER_S } from '../../../src/api/retry-after-gate.js';
import { BASE, errorBody, health, jobList, makeClient, makeServer, rejectionOf } from './helpers.js';

const server = makeServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('a 404', () => {
  beforeEach(() => server.use(http.get(`${BASE}/*`, () => HttpResponse.json(errorBody('not_found'), { status: 404 }))));

  it.each([
    ['search', (c: ReturnType<typeof makeClient>) => c.searchJobs({ q: 'x' })],
    ['list', (c: ReturnType<typeof makeClient>) => c.listJobs()],
    ['market map', (c: ReturnType<typeof makeClient>) => c.getMarketMap()],
    ['discovery', (c: ReturnType<typeof makeClient>) => c.discover()],
    ['health', (c: ReturnType<typeof makeClient>) => c.getHealth()],
  ])(
    'from %s is upstream_contract: no record was asked for, so the base URL or a proxy is probably wrong',
    async (_name, call) => {
      const error = await rejectionOf(call(makeClient()));
      expect(error).toMatchObject({ kind: 'upstream_contract', status: 404 });
      expect(error.message).toMatch(/base URL .*or a proxy/);
      expect(error.hint).toMatch(/base URL/);
    },
  );

  it.each([
    ['a job', (c: ReturnType<typeof makeClient>) => c.getJob('gone')],
    ['an interview brief', (c: ReturnType<typeof makeClient>) => c.getCompanyInterviewBrief({ slug: 'gone' })],
  ])('for %s is not_found', async (_name, call) => {
    expect(await rejectionOf(call(makeClient()))).toMatchObject({ kind: 'not_found', status: 404 });
  });
});

describe('the path an error names', () => {
  it('includes the base URL’s own path, so a doubled prefix shows', async () => {
    server.use(http.get(`${BASE}/*`, () => HttpResponse.json(errorBody('not_found'), { status: 404 })));
    const error = await rejectionOf(makeClient({ baseUrl: `${BASE}/api/public/v1` }).listJobs());
    expect(error.path).toBe('/api/public/v1/api/public/v1/jobs');
    expect(error.message).toContain('GET /api/public/v1/api/public/v1/jobs');
  });
});

describe('an extreme Retry-After', () => {
  it.each([
    ['99999999999 seconds', '99999999999'],
    ['an HTTP-date in year 9999', 'Fri, 31 Dec 9999 23:59:59 GMT'],
  ])('(%s) is held to the ceiling, and the error says the API asked for longer', async (_name, retryAfter) => {
    server.use(
      http.get(`${BASE}/api/public/v1/jobs`, () =>
        HttpResponse.json(errorBody('rate_limited'), { status: 429, headers: { 'retry-after': retryAfter } }),
      ),
    );
    const client = makeClient({ maxRetryWaitS: 1 });
    const error = await rejectionOf(client.listJobs());
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterS: MAX_RETRY_AFTER_S });
    expect(error.message).toMatch(new RegExp(`asked for a pause longer than ${MAX_RETRY_AFTER_S} s`));
  });
});

describe('the health probe', () => {
  it('is not held by another endpoint’s cool-down', async () => {
    let healthRequests = 0;
    server.use(
      http.get(`${BASE}/api/public/v1/jobs`, () =>
        HttpResponse.json(errorBody('rate_limited'), { status: 429, headers: { 'retry-after': '600' } }),
      ),
      http.get(`${BASE}/api/public/v1/mcp/health`, () => {
        healthRequests++;
        return HttpResponse.json(health('ok'));
      }),
    );
    const client = makeClient({ maxRetryWaitS: 1 });
    expect(await rejectionOf(client.listJobs())).toMatchObject({ kind: 'rate_limited' });
    // The cool-down holds the other operations...
    expect(await rejectionOf(client.searchJobs())).toMatchObject({ kind: 'rate_limited' });
    // ...but not the probe the error hints point to.
    expect((await client.getHealth()).data.status).toBe('ok');
    expect(healthRequests).toBe(1);
  });

  it('keeps a cool-down of its own when the health endpoint itself answers 429, and holds nothing else', async () => {
    let healthRequests = 0;
    server.use(
      http.get(`${BASE}/api/public/v1/mcp/health`, () => {
        healthRequests++;
        return HttpResponse.json(errorBody('rate_limited'), { status: 429, headers: { 'retry-after': '600' } });
      }),
      http.get(`${BASE}/api/public/v1/jobs`, () => HttpResponse.json(jobList([]))),
    );
    const client = makeClient({ maxRetryWaitS: 1 });
    expect(await rejectionOf(client.getHealth())).toMatchObject({ kind: 'rate_limited' });
    expect(await rejectionOf(client.getHealth())).toMatchObject({ kind: 'rate_limited' });
    expect(healthRequests).toBe(1);
    expect((await client.listJobs()).data.jobs).toEqual([]);
  });
});
