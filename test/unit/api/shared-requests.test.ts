/**
 * Identical concurrent GETs share one upstream request; each caller keeps its own cancellation,
 * and the Retry-After gate and the error kinds are what they are without sharing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import type { GateWaitInfo } from '../../../src/api/http.js';
import { SharedRequests } from '../../../src/api/shared-requests.js';
import { createLogger } from '../../../src/log.js';
import { deferred, errorBody, fakeUpstream, limited, makeClient, okJobs, rejectionOf } from './helpers.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => vi.useRealTimers());

const tick = () => vi.advanceTimersByTimeAsync(0);
const shared = (fetch: ReturnType<typeof fakeUpstream>['fetch'], options = {}) => makeClient({ fetch, shareConcurrent: true, ...options });
const notFound = () => new Response(JSON.stringify(errorBody('not_found', 'gone')), { status: 404, headers: { 'content-type': 'application/json' } });

describe('sharing', () => {
  it('five identical concurrent calls send one request, and each caller parses its own copy', async () => {
    const held = deferred<Response>();
    const up = fakeUpstream(() => held.promise);
    const client = shared(up.fetch);
    const calls = Array.from({ length: 5 }, () => client.listJobs({ page: 1 }));
    await tick();
    expect(up.calls).toHaveLength(1);
    held.resolve(okJobs());
    const results = await Promise.all(calls);
    expect(results[1]!.data).toEqual(results[0]!.data);
    expect(results[1]!.data).not.toBe(results[0]!.data);
  });

  it('different paths, and calls after the shared one has settled, are requests of their own', async () => {
    const up = fakeUpstream(() => okJobs());
    const client = shared(up.fetch);
    await Promise.all([client.listJobs({ page: 1 }), client.listJobs({ page: 2 }), client.searchJobs({ page: 1 })]);
    expect(up.calls).toHaveLength(3);
    await client.listJobs({ page: 1 });
    expect(up.calls).toHaveLength(4);
  });

  it('is off for a client made without shareConcurrent (one request per call)', async () => {
    const up = fakeUpstream(() => okJobs());
    const client = makeClient({ fetch: up.fetch });
    await Promise.all([client.listJobs(), client.listJobs()]);
    expect(up.calls).toHaveLength(2);
  });

  it('an error reaches every caller with its kind', async () => {
    const up = fakeUpstream(() => notFound());
    const client = shared(up.fetch);
    const errors = await Promise.all([rejectionOf(client.getJob('job-9')), rejectionOf(client.getJob('job-9'))]);
    expect(up.calls).toHaveLength(1);
    for (const error of errors) expect(error).toMatchObject({ kind: 'not_found', status: 404, path: '/api/public/v1/jobs/job-9' });
  });
});

describe('cancellation', () => {
  it("a caller's abort detaches only that caller: it is cancelled at once, the request goes on for the other", async () => {
    const held = deferred<Response>();
    const up = fakeUpstream(() => held.promise);
    const client = shared(up.fetch);
    const controller = new AbortController();
    const leaving = rejectionOf(client.listJobs({}, { signal: controller.signal }));
    const staying = client.listJobs();
    await tick();
    controller.abort();
    const error = await leaving;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'cancelled', path: '/api/public/v1/jobs' });
    expect(up.calls[0]!.init.signal!.aborted).toBe(false);
    held.resolve(okJobs());
    await expect(staying).resolves.toMatchObject({ status: 200 });
  });

  it('when every caller has aborted, the shared request is aborted, and the next caller starts afresh', async () => {
    const up = fakeUpstream((n) => (n === 1 ? new Promise<Response>(() => {}) : okJobs()));
    const client = shared(up.fetch);
    const controllers = [new AbortController(), new AbortController()];
    const calls = controllers.map((c) => rejectionOf(client.listJobs({}, { signal: c.signal })));
    await tick();
    controllers[0]!.abort();
    await tick();
    expect(up.calls[0]!.init.signal!.aborted).toBe(false);
    controllers[1]!.abort();
    for (const error of await Promise.all(calls)) expect(error).toMatchObject({ kind: 'cancelled' });
    expect(up.calls[0]!.init.signal!.aborted).toBe(true);
    await expect(client.listJobs()).resolves.toMatchObject({ status: 200 });
    expect(up.calls).toHaveLength(2);
  });

  it('a caller already aborted sends nothing and joins nothing', async () => {
    const up = fakeUpstream(() => okJobs());
    const controller = new AbortController();
    controller.abort();
    expect(await rejectionOf(shared(up.fetch).listJobs({}, { signal: controller.signal }))).toMatchObject({ kind: 'cancelled' });
    expect(up.calls).toHaveLength(0);
  });
});

describe('with the Retry-After gate', () => {
  it('identical callers wait out one 429 together: one retry, and every caller is told about the wait, a late joiner the seconds left', async () => {
    const up = fakeUpstream((n) => (n === 1 ? limited('4') : okJobs()));
    const client = shared(up.fetch);
    const waits: Array<[string, GateWaitInfo]> = [];
    const first = client.listJobs({}, { onWait: (info) => waits.push(['first', info]) });
    await tick();
    const second = client.listJobs({}, { onWait: (info) => waits.push(['second', info]) });
    await vi.advanceTimersByTimeAsync(1000);
    const late = client.listJobs({}, { onWait: (info) => waits.push(['late', info]) });
    await vi.advanceTimersByTimeAsync(3000);
    await Promise.all([first, second, late]);
    expect(up.times()).toEqual([0, 4000]);
    expect(waits).toEqual([
      ['first', { seconds: 4, reason: 'rate_limited' }],
      ['second', { seconds: 4, reason: 'rate_limited' }],
      ['late', { seconds: 3, reason: 'rate_limited' }],
    ]);
  });

  it("a shared request's log lines reach each caller still sharing it, and no caller of another request", async () => {
    const up = fakeUpstream((n, url) => (url.pathname.endsWith('job-9') ? notFound() : n === 1 ? limited('2') : okJobs()));
    const client = shared(up.fetch, { logger: createLogger('debug', () => {}) });
    const lines: Record<string, string[]> = { first: [], second: [], other: [] };
    const sink = (name: string) => (_level: string, message: string) => void lines[name]!.push(message);
    const first = client.listJobs({}, { logSink: sink('first') });
    const second = client.listJobs({}, { logSink: sink('second') });
    await tick();
    const other = rejectionOf(client.getJob('job-9', {}, { logSink: sink('other') }));
    await vi.advanceTimersByTimeAsync(2000);
    await Promise.all([first, second, other]);
    const jobs = '/api/public/v1/jobs';
    expect(lines.first).toEqual([`GET ${jobs}`, `429 on ${jobs}: Retry-After 2s`, `GET ${jobs}`]);
    // The second caller joined with the first GET already sent: it hears every line from then on.
    expect(lines.second).toEqual(lines.first!.slice(1));
    expect(lines.other).toEqual([`GET ${jobs}/job-9`]);
  });

  it('a 429 longer than the budget fails every sharing caller with the seconds', async () => {
    const up = fakeUpstream(() => limited('60'));
    const client = shared(up.fetch, { maxRetryWaitS: 5 });
    const errors = await Promise.all([rejectionOf(client.listJobs()), rejectionOf(client.listJobs())]);
    expect(up.calls).toHaveLength(1);
    for (const error of errors) expect(error).toMatchObject({ kind: 'rate_limited', retryAfterS: 60 });
  });

  it('during a cool-down, 20 identical callers produce one request when it ends', async () => {
    const up = fakeUpstream((n) => (n === 1 ? limited('3') : okJobs()));
    const client = shared(up.fetch);
    // Another call provokes the cool-down and retries when it ends (its list body then breaks the job contract).
    const first = rejectionOf(client.getJob('other'));
    await tick();
    const burst = Array.from({ length: 20 }, () => client.listJobs());
    await vi.advanceTimersByTimeAsync(3000);
    await Promise.all(burst);
    expect(await first).toMatchObject({ kind: 'upstream_contract' });
    expect(up.times()).toEqual([0, 3000, 3000]);
  });
});

describe('SharedRequests', () => {
  it('forgets a key once its request settles, so nothing is held', async () => {
    const requests = new SharedRequests<number>();
    const held = deferred<number>();
    const a = requests.run('k', {}, () => held.promise, (r) => r);
    const b = requests.run('k', {}, () => Promise.resolve(2), (r) => r);
    expect(requests.size).toBe(1);
    held.resolve(1);
    expect(await Promise.all([a, b])).toEqual([1, 1]);
    expect(requests.size).toBe(0);
  });

  it('has forgotten the key by the time a caller resumes, so asking again starts a new request', async () => {
    const requests = new SharedRequests<number>();
    let started = 0;
    const start = () => Promise.resolve(++started);
    const again = await requests.run('k', {}, start, (r) => r).then(() => {
      expect(requests.size).toBe(0);
      return requests.run('k', {}, start, (r) => r);
    });
    expect(again).toBe(2);
    expect(started).toBe(2);
  });

  it('takes the failure of a request every caller has left, without an unhandled rejection', async () => {
    const requests = new SharedRequests<number>();
    let fail!: (error: Error) => void;
    const held = new Promise<number>((_resolve, reject) => (fail = reject));
    const controller = new AbortController();
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const call = requests.run('k', { signal: controller.signal }, () => held, (r) => r);
      controller.abort('gone');
      await expect(call).rejects.toBe('gone');
      fail(new Error('upstream failed after everyone left'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
      expect(requests.size).toBe(0);
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
