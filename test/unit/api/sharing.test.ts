/**
 * Identical GETs in flight share one request (undici's deduplicate interceptor on the production
 * dispatcher), over real loopback HTTP. Each caller keeps its own cancellation: one leaving never
 * fails the others.
 */
import { describe, expect, it } from 'vitest';
import { jobList, productionClient, rejectionOf, sendJson, useLoopback } from './helpers.js';

const api = useLoopback();

/** Answers each request after `ms`, unless its connection has gone by then. */
const slowly = (ms: number, status = 200, body: unknown = jobList(), headers: Record<string, string> = {}) => {
  api.respond = (_req, res) => void setTimeout(() => res.destroyed || sendJson(res, status, body, headers), ms);
};
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('identical requests in flight', () => {
  it('five concurrent calls send one request, and each caller gets its own parsed copy', async () => {
    slowly(50);
    const client = productionClient(api.url);
    const results = await Promise.all(Array.from({ length: 5 }, () => client.listJobs({ q: 'ml' })));
    expect(api.seen).toHaveLength(1);
    expect(results.every((r) => r.data.jobs[0]!.job_id === 'job_ai_0001')).toBe(true);
    expect(results[0]!.data).not.toBe(results[1]!.data);
  });

  it('are shared with the cache off too, and only while in flight: another path, or a later call, is a request of its own', async () => {
    slowly(30);
    const client = productionClient(api.url, { cache: false });
    await Promise.all([client.listJobs(), client.listJobs(), client.listJobs({ page: 2 })]);
    expect(api.seen).toHaveLength(2);
    await client.listJobs();
    expect(api.seen).toHaveLength(3);
  });

  it('an error reaches every caller with its kind', async () => {
    slowly(30, 404, { success: false, error: 'not_found' });
    const client = productionClient(api.url);
    const errors = await Promise.all(Array.from({ length: 3 }, () => rejectionOf(client.getJob('gone'))));
    expect(errors.map((e) => e.kind)).toEqual(['not_found', 'not_found', 'not_found']);
    expect(api.seen).toHaveLength(1);
  });
});

describe('cancellation', () => {
  it.each([
    ['the caller that started the request', 0],
    ['a caller that joined it', 1],
  ])('%s leaving is cancelled at once, and the other still gets its answer', async (_name, leaving) => {
    slowly(150);
    const client = productionClient(api.url);
    const controllers = [new AbortController(), new AbortController()];
    const calls = controllers.map((controller) =>
      client.listJobs({}, { signal: controller.signal }).then(
        (r) => r.status,
        (e: { kind: string }) => e.kind,
      ),
    );
    await tick(50);
    controllers[leaving]!.abort(new Error('caller gave up'));
    const outcomes = await Promise.all(calls);
    expect(outcomes[leaving]).toBe('cancelled');
    expect(outcomes[1 - leaving]).toBe(200);
  });

  it('when every caller has left, the request is ended, and the next caller starts afresh', async () => {
    let closed = 0;
    api.respond = (req) => req.socket.once('close', () => closed++);
    const client = productionClient(api.url, { timeoutMs: 2000 });
    const controllers = [new AbortController(), new AbortController()];
    const calls = controllers.map((controller) => rejectionOf(client.listJobs({}, { signal: controller.signal })));
    await tick(50);
    for (const controller of controllers) controller.abort();
    expect((await Promise.all(calls)).map((e) => e.kind)).toEqual(['cancelled', 'cancelled']);
    await tick(50);
    expect(closed).toBe(1);
    slowly(0);
    expect((await client.listJobs()).status).toBe(200);
    expect(api.seen).toHaveLength(2);
  });
});

describe('with the Retry-After gate', () => {
  it('identical callers wait out one 429 together, then one probe and one shared request answer them all', async () => {
    let n = 0;
    api.respond = (_req, res) =>
      n++ === 0
        ? sendJson(res, 429, { success: false, error: 'rate_limited' }, { 'retry-after': '1' })
        : sendJson(res, 200, jobList());
    const client = productionClient(api.url, { cache: false, maxRetryWaitS: 5 });
    const waits: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 5 }, () => client.listJobs({}, { onWait: (info) => waits.push(info.seconds) })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(waits.length).toBeGreaterThanOrEqual(1);
    expect(api.seen.length).toBeLessThanOrEqual(3);
  });
});
