/**
 * Redirects on the production fetch (undici's redirect interceptor), over real loopback HTTP:
 * followed as fetch follows them (20 hops, http and https only), each hop asked once, and an
 * answer from another origin is named in the result and its provenance, and never cached as ours.
 */
import { describe, expect, it } from 'vitest';
import { buildProvenance } from '../../../src/api/provenance-record.js';
import { jobList, productionClient, rejectionOf, sendJson, useLoopback, type Loopback } from './helpers.js';

const api = useLoopback();
const mirror = useLoopback();

const JOBS = '/api/public/v1/jobs';
const client = (options: { cache?: boolean; maxBodyBytes?: number } = {}) =>
  productionClient(api.url, { cache: false, ...options });
const asked = (server: Loopback) => server.seen.map((req) => req.url);

describe('redirects', () => {
  it('are followed through every kind, each hop asked once, relative or absolute; the same origin is not named', async () => {
    const hops: Record<string, [number, string]> = {
      [JOBS]: [301, '/b'],
      '/b': [307, `${api.url}/c?x=1`],
      '/c?x=1': [308, 'd'],
      '/d': [303, '/final'],
    };
    api.respond = (req, res) => {
      const hop = hops[req.url!];
      if (hop)
        return void res
          .writeHead(hop[0], { location: hop[1], 'content-type': 'text/html' })
          .end('<a href="elsewhere">moved</a>');
      sendJson(res, 200, jobList());
    };
    const result = await client().listJobs();
    expect(result.data.jobs).toHaveLength(1);
    expect(asked(api)).toEqual([JOBS, '/b', '/c?x=1', '/d', '/final']);
    expect(result.answeredBy).toBeUndefined();
    expect(buildProvenance(result, 'http')).not.toHaveProperty('answered_by');
  });

  it('stop after 20 hops, as fetch: the 21st redirect is the answer, and not the contract', async () => {
    api.respond = (req, res) =>
      res.writeHead(302, { location: `/loop${Number(/\d+$/.exec(req.url!)?.[0] ?? 0) + 1}` }).end();
    const error = await rejectionOf(client().listJobs());
    expect(error).toMatchObject({ kind: 'upstream_contract', status: 302 });
    expect(api.seen).toHaveLength(21);
  });

  it('without a Location, a redirect is the answer itself', async () => {
    api.respond = (_req, res) => res.writeHead(302, { 'content-type': 'text/plain' }).end('no forwarding address');
    expect(await rejectionOf(client().listJobs())).toMatchObject({ kind: 'upstream_contract', status: 302 });
    expect(api.seen).toHaveLength(1);
  });

  it('keep the body cap and cancellation in force on every hop', async () => {
    api.respond = (req, res) => {
      if (req.url === JOBS) return void res.writeHead(302, { location: '/big' }).end();
      if (req.url === '/big')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(`{"pad":"${'x'.repeat(4096)}"}`);
      res.writeHead(200).write('{'); // never ends
    };
    expect(await rejectionOf(client({ maxBodyBytes: 1024 }).listJobs())).toMatchObject({
      kind: 'upstream_contract',
      status: 200,
    });
    api.respond = (req, res) =>
      req.url === JOBS ? res.writeHead(302, { location: '/stall' }).end() : res.writeHead(200).write('{');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    expect(await rejectionOf(client().listJobs({}, { signal: controller.signal }))).toMatchObject({
      kind: 'cancelled',
    });
  });

  it('to another origin are followed and that origin is named in the result and its provenance; the answer is not cached under our URL', async () => {
    api.respond = (req, res) =>
      res.writeHead(302, { location: `${mirror.url}${req.url}`, 'cache-control': 'max-age=60' }).end();
    mirror.respond = (_req, res) => sendJson(res, 200, jobList(), { 'cache-control': 'max-age=60' });
    const c = client({ cache: true });
    const result = await c.listJobs();
    expect(asked(mirror)).toEqual([JOBS]);
    expect(result.answeredBy).toBe(mirror.url);
    expect(buildProvenance(result, 'http').answered_by).toBe(mirror.url);
    // undici (8.13 on) keeps an answer under the URL asked for only when every hop stayed on its
    // origin: another origin must not be able to plant an entry under ours.
    const again = await c.listJobs();
    expect(again.cache?.hit).not.toBe(true);
    expect(again.answeredBy).toBe(mirror.url);
    expect(api.seen).toHaveLength(2);
    expect(mirror.seen).toHaveLength(2);
  });

  it('on the same origin are cached under the URL asked for, and a hit sends nothing', async () => {
    api.respond = (req, res) =>
      req.url === JOBS
        ? res.writeHead(301, { location: '/moved', 'cache-control': 'max-age=60' }).end()
        : sendJson(res, 200, jobList(), { 'cache-control': 'max-age=60' });
    const c = client({ cache: true });
    await c.listJobs();
    const hit = await c.listJobs();
    expect(hit.cache?.hit).toBe(true);
    expect(hit.answeredBy).toBeUndefined();
    expect(asked(api)).toEqual([JOBS, '/moved']);
  });

  it.each([
    'ftp://127.0.0.1/api/public/v1/jobs',
    'file:///etc/passwd',
    'data:application/json,{}',
    'javascript:alert(1)',
  ])('to %s are not followed: the call fails and names why', async (location) => {
    api.respond = (_req, res) => res.writeHead(302, { location }).end();
    const error = await rejectionOf(client().listJobs());
    expect(error).toMatchObject({ kind: 'network', path: JOBS });
    expect(error.message).toMatch(/http/i);
    expect(api.seen).toHaveLength(1);
  });
});
