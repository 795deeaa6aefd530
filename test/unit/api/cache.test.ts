/**
 * The response cache, undici's cache interceptor on the production dispatcher, over real loopback
 * HTTP: hits are reported with their age, ETags are revalidated, errors are never kept, and
 * `cache: false` turns it all off.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { createApiFetch } from '../../../src/api/dispatcher.js';
import { startOfflineServer, type OfflineServer } from '../../../src/offline/server.js';
import { renderProvenance } from '../../../src/render/provenance-line.js';
import { buildProvenance } from '../../../src/api/provenance-record.js';
import { jobList, productionClient, sendJson, useLoopback } from './helpers.js';

const api = useLoopback();
let offline: OfflineServer;

beforeAll(async () => {
  offline = await startOfflineServer();
});
afterAll(() => offline.close());
afterEach(() => {
  offline.engine.faults.clear();
  offline.engine.faults.resetHits();
});

const client = (baseUrl: string, cache = true) => productionClient(baseUrl, { cache });

describe('against the offline API (ETag, public, max-age=60)', () => {
  it('a repeat call is served from the cache, reported as a hit with its age, and never reaches the API', async () => {
    const api = client(offline.url);
    const first = await api.getJob('job_ai_0001');
    expect(first.cache).toBeUndefined();
    for (let i = 0; i < 2; i++) {
      const again = await api.getJob('job_ai_0001');
      // The age counts from the response's Date header, which has whole seconds: 0 or 1 here.
      expect(again.cache).toEqual({ hit: true, ageS: expect.any(Number) });
      expect(again.cache!.ageS).toBeLessThanOrEqual(1);
      expect(again.data).toEqual(first.data);
    }
    expect(offline.engine.faults.hits('/api/public/v1/jobs/job_ai_0001')).toBe(1);
    // Freshness is never hidden: provenance and its rendering say it came from the cache.
    const second = await api.getJob('job_ai_0001');
    const provenance = buildProvenance(second, 'http');
    expect(provenance.cache).toEqual({ hit: true, age_s: second.cache!.ageS });
    expect(renderProvenance(provenance)).toContain(`from cache, ${second.cache!.ageS}s old`);
  });

  it('another query is another entry', async () => {
    const api = client(offline.url);
    await api.searchJobs({ per_page: 2 });
    expect((await api.searchJobs({ per_page: 3 })).cache).toBeUndefined();
    expect((await api.searchJobs({ per_page: 2 })).cache?.hit).toBe(true);
  });

  it('cache: false (--no-cache) sends every call and reports no cache member', async () => {
    const api = client(offline.url, false);
    await api.getJob('job_ai_0001');
    const second = await api.getJob('job_ai_0001');
    expect(second.cache).toBeUndefined();
    expect(offline.engine.faults.hits('/api/public/v1/jobs/job_ai_0001')).toBe(2);
  });

  it('health is no-store, so every health check reaches the API', async () => {
    const api = client(offline.url);
    await api.getHealth();
    expect((await api.getHealth()).cache).toBeUndefined();
    expect(offline.engine.faults.hits('/api/public/v1/mcp/health')).toBe(2);
  });
});

describe('against a scripted API', () => {
  it('revalidates a stale entry with If-None-Match, and a 304 serves the cached body as a hit', async () => {
    api.respond = (req, res) => {
      if (req.headers['if-none-match'] === '"v1"')
        return void res.writeHead(304, { etag: '"v1"', 'cache-control': 'max-age=0' }).end();
      sendJson(res, 200, jobList(), { etag: '"v1"', 'cache-control': 'max-age=0' });
    };
    const c = client(api.url);
    const first = await c.listJobs();
    expect(first.cache).toBeUndefined();
    const second = await c.listJobs();
    expect(api.seen).toHaveLength(2);
    expect(api.seen[1]!.headers['if-none-match']).toBe('"v1"');
    expect(second.cache).toMatchObject({ hit: true });
    expect(second.data).toEqual(first.data);
  });

  it('a changed resource (200 to the revalidation) is a fresh answer, not a hit', async () => {
    let version = 1;
    api.respond = (_req, res) =>
      sendJson(res, 200, jobList([], {}), { etag: `"v${version++}"`, 'cache-control': 'no-cache' });
    const c = client(api.url);
    await c.listJobs();
    const second = await c.listJobs();
    expect(api.seen[1]!.headers['if-none-match']).toBe('"v1"');
    expect(second.cache).toBeUndefined();
    // no-cache means ask every time: nothing is reused without the API's word.
    await c.listJobs();
    expect(api.seen).toHaveLength(3);
  });

  it('reuses a response only while it is fresh (max-age=1)', async () => {
    api.respond = (_req, res) => sendJson(res, 200, jobList(), { 'cache-control': 'max-age=1', etag: '"a"' });
    const c = client(api.url);
    await c.listJobs();
    expect((await c.listJobs()).cache?.hit).toBe(true);
    expect(api.seen).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await c.listJobs();
    expect(api.seen).toHaveLength(2);
    expect(api.seen[1]!.headers['if-none-match']).toBe('"a"');
  });

  it('an API cannot forge a hit with the marker header', async () => {
    api.respond = (_req, res) => sendJson(res, 200, jobList(), { 'x-service-mcp-cache': 'hit', age: '5' });
    const c = client(api.url);
    expect((await c.listJobs()).cache).toBeUndefined();
    expect((await c.listJobs()).cache).toBeUndefined();
    expect(api.seen).toHaveLength(2);
  });

  it('honours Expires when there is no max-age', async () => {
    api.respond = (_req, res) =>
      sendJson(res, 200, jobList(), {
        expires: new Date(Date.now() + 60_000).toUTCString(),
        date: new Date().toUTCString(),
      });
    const c = client(api.url);
    await c.listJobs();
    expect((await c.listJobs()).cache?.hit).toBe(true);
    expect(api.seen).toHaveLength(1);
  });

  it('serves nothing from the cache without freshness information (no Cache-Control, no Expires)', async () => {
    api.respond = (_req, res) => sendJson(res, 200, jobList());
    const c = client(api.url);
    await c.listJobs();
    expect((await c.listJobs()).cache).toBeUndefined();
    expect(api.seen).toHaveLength(2);
  });

  it.each([404, 410, 429, 500, 503])('never keeps a %i, even one that says public, max-age=300', async (status) => {
    api.respond = (_req, res) =>
      sendJson(
        res,
        status,
        { success: false, error: 'nope' },
        {
          'cache-control': 'public, max-age=300',
          expires: new Date(Date.now() + 300_000).toUTCString(),
          'last-modified': new Date(0).toUTCString(),
          'retry-after': '1',
        },
      );
    // One cache, but a client (and Retry-After gate) per call, so a 429 does not hold the second back.
    const fetch = createApiFetch({ timeoutMs: 5000 });
    const kinds = [];
    for (let i = 0; i < 2; i++)
      kinds.push(
        await new ApiClient({ baseUrl: api.url, fetch, unavailableRetries: 0, maxRetryWaitS: 0 }).getJob('job-1').then(
          () => 'ok',
          (e: { kind: string }) => e.kind,
        ),
      );
    expect(kinds[0]).not.toBe('ok');
    expect(kinds[1]).toBe(kinds[0]);
    expect(api.seen).toHaveLength(2);
  });

  it('an Age header from the API (a CDN) is not reported as a hit of this cache', async () => {
    api.respond = (_req, res) => sendJson(res, 200, jobList(), { age: '30' });
    expect((await client(api.url).listJobs()).cache).toBeUndefined();
  });

  it('keeps a compressed answer, and its hit reads the same', async () => {
    api.respond = (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'cache-control': 'max-age=60',
      });
      res.end(gzipSync(JSON.stringify(jobList())));
    };
    const c = client(api.url);
    const first = await c.listJobs();
    const hit = await c.listJobs();
    expect(hit.cache?.hit).toBe(true);
    expect(hit.data).toEqual(first.data);
    expect(api.seen).toHaveLength(1);
  });
});
