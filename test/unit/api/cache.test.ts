/**
 * The response cache on the production dispatcher, over real loopback HTTP (msw cannot see
 * undici's own requests): hits are reported with their age, ETags are revalidated, errors are
 * never kept, and `cache: false` turns it all off.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { createUndiciFetch } from '../../../src/api/http.js';
import { startOfflineServer, type OfflineServer } from '../../../src/offline/server.js';
import { buildProvenance } from '../../../src/tools/provenance.js';
import { renderProvenance } from '../../../src/render/provenance.js';
import { jobList } from './helpers.js';

const savedProxy = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy };
let offline: OfflineServer;

/** A scripted loopback server that records the requests it sees. */
let scripted: Server;
let scriptedUrl = '';
let respond: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
const seen: IncomingMessage[] = [];

beforeAll(async () => {
  delete process.env.HTTP_PROXY;
  delete process.env.http_proxy;
  offline = await startOfflineServer();
  scripted = createServer((req, res) => {
    seen.push(req);
    req.resume();
    respond(req, res);
  });
  await new Promise<void>((resolve) => scripted.listen(0, '127.0.0.1', resolve));
  scriptedUrl = `http://127.0.0.1:${(scripted.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await offline.close();
  await new Promise<void>((resolve) => scripted.close(() => resolve()));
  for (const [key, value] of Object.entries(savedProxy)) if (value !== undefined) process.env[key] = value;
});
afterEach(() => {
  seen.length = 0;
  offline.engine.faults.clear();
  offline.engine.faults.resetHits();
});

const client = (baseUrl: string, cache = true) => new ApiClient({ baseUrl, fetch: createUndiciFetch({ timeoutMs: 2000, cache }), unavailableRetries: 0, maxRetryWaitS: 0 });
const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('against the offline API (ETag, public, max-age=60)', () => {
  it('a repeat call is served from the cache, reported as a hit with its age, and never reaches the API', async () => {
    const api = client(offline.url);
    const first = await api.getJob('job_ai_0001');
    expect(first.cache).toBeUndefined();
    const second = await api.getJob('job_ai_0001');
    // The age counts from the response's Date header, which has whole seconds: 0 or 1 here.
    expect(second.cache).toEqual({ hit: true, ageS: expect.any(Number) });
    expect(second.cache!.ageS).toBeLessThanOrEqual(1);
    expect(second.data).toEqual(first.data);
    // Each hit is parsed and validated again: the response cache is the only store.
    const third = await api.getJob('job_ai_0001');
    expect(third.cache).toEqual({ hit: true, ageS: expect.any(Number) });
    expect(third.data).toEqual(second.data);
    expect(third.data).not.toBe(second.data);
    expect(offline.engine.faults.hits('/api/public/v1/jobs/job_ai_0001')).toBe(1);
    // Freshness is never hidden: provenance and its rendering say it came from the cache.
    const provenance = buildProvenance(second, 'live');
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
    let calls = 0;
    respond = (req, res) => {
      calls++;
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { etag: '"v1"', 'cache-control': 'max-age=0' });
        res.end();
        return;
      }
      json(res, 200, jobList(), { etag: '"v1"', 'cache-control': 'max-age=0' });
    };
    const api = client(scriptedUrl);
    const first = await api.listJobs();
    expect(first.cache).toBeUndefined();
    const second = await api.listJobs();
    expect(calls).toBe(2);
    expect(seen[1]!.headers['if-none-match']).toBe('"v1"');
    expect(second.cache).toMatchObject({ hit: true });
    expect(second.data).toEqual(first.data);
  });

  it('a changed resource (200 to the revalidation) is a fresh answer, not a hit', async () => {
    let version = 1;
    respond = (_req, res) => json(res, 200, jobList([], {}), { etag: `"v${version++}"`, 'cache-control': 'no-cache' });
    const api = client(scriptedUrl);
    await api.listJobs();
    const second = await api.listJobs();
    expect(seen[1]!.headers['if-none-match']).toBe('"v1"');
    expect(second.cache).toBeUndefined();
    // no-cache means ask every time: no result is reused without the API's word.
    await api.listJobs();
    expect(seen).toHaveLength(3);
  });

  it('reuses a response only while it is fresh (max-age=1)', async () => {
    respond = (_req, res) => json(res, 200, jobList(), { 'cache-control': 'max-age=1', etag: '"a"' });
    const api = client(scriptedUrl);
    await api.listJobs();
    await api.listJobs();
    expect((await api.listJobs()).cache?.hit).toBe(true);
    expect(seen).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await api.listJobs();
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers['if-none-match']).toBe('"a"');
  });

  it('an API cannot forge a hit with the internal marker header', async () => {
    respond = (_req, res) => json(res, 200, jobList(), { 'x-service-mcp-cache': 'hit' });
    const api = client(scriptedUrl);
    expect((await api.listJobs()).cache).toBeUndefined();
    expect((await api.listJobs()).cache).toBeUndefined();
    expect(seen).toHaveLength(2);
  });

  it('honours Expires when there is no max-age', async () => {
    respond = (_req, res) => json(res, 200, jobList(), { expires: new Date(Date.now() + 60_000).toUTCString(), date: new Date().toUTCString() });
    const api = client(scriptedUrl);
    await api.listJobs();
    expect((await api.listJobs()).cache?.hit).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('keeps nothing without freshness information (no Cache-Control, no Expires)', async () => {
    respond = (_req, res) => json(res, 200, jobList());
    const api = client(scriptedUrl);
    await api.listJobs();
    expect((await api.listJobs()).cache).toBeUndefined();
    expect(seen).toHaveLength(2);
  });

  it.each([404, 429, 500, 503])('never keeps a %i, even one that says public, max-age=300', async (status) => {
    respond = (_req, res) => json(res, status, { success: false, error: 'nope' }, { 'cache-control': 'public, max-age=300', expires: new Date(Date.now() + 300_000).toUTCString(), 'retry-after': '1' });
    // One cache, but a client (and Retry-After gate) per call, so a 429 does not hold the second back.
    const fetch = createUndiciFetch({ timeoutMs: 2000 });
    const kinds = [];
    for (let i = 0; i < 2; i++) kinds.push(await new ApiClient({ baseUrl: scriptedUrl, fetch, unavailableRetries: 0, maxRetryWaitS: 0 }).getJob('job-1').then(() => 'ok', (e: { kind: string }) => e.kind));
    expect(kinds[0]).toBe(kinds[1]);
    expect(seen).toHaveLength(2);
  });

  it('an Age header from the API (a CDN) is not reported as a hit of this cache', async () => {
    respond = (_req, res) => json(res, 200, jobList(), { age: '30' });
    expect((await client(scriptedUrl).listJobs()).cache).toBeUndefined();
  });

  it('decodes gzip and br bodies, which it advertises', async () => {
    const { gzipSync, brotliCompressSync } = await import('node:zlib');
    for (const [encoding, compress] of [['gzip', gzipSync], ['br', brotliCompressSync]] as const) {
      respond = (req, res) => {
        expect(req.headers['accept-encoding']).toBe('gzip, br');
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
        res.end(compress(Buffer.from(JSON.stringify(jobList()))));
      };
      expect((await client(scriptedUrl, false).listJobs()).data.jobs).toHaveLength(1);
    }
  });

  it('follows redirects, as fetch did', async () => {
    respond = (req, res) => {
      if (req.url === '/api/public/v1/jobs') {
        res.writeHead(302, { location: '/moved/jobs' });
        res.end();
        return;
      }
      json(res, 200, jobList());
    };
    const result = await client(scriptedUrl, false).listJobs();
    expect(result.data.jobs).toHaveLength(1);
    expect(seen.map((r) => r.url)).toEqual(['/api/public/v1/jobs', '/moved/jobs']);
  });
});
