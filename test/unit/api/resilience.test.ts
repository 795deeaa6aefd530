/** 503 retries with backoff inside a budget, 4xx never retried, cancellation and timeouts mid-request. */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/contract/errors.js';
import {
  BASE,
  deferred,
  errorBody,
  fakeUpstream,
  jobList,
  makeClient,
  makeServer,
  okJobs,
  rejectionOf,
  unavailable,
} from './helpers.js';

describe('503 retries (fake timers, random = 0.5)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a bounded number of times with exponential backoff, then succeeds', async () => {
    const up = fakeUpstream((n) => (n <= 2 ? unavailable() : okJobs()));
    const call = makeClient({ fetch: up.fetch }).listJobs();
    await vi.advanceTimersByTimeAsync(187);
    expect(up.times()).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(up.times()).toEqual([0, 188]);
    await vi.advanceTimersByTimeAsync(375);
    await expect(call).resolves.toMatchObject({ status: 200 });
    // backoff = base/2 + random * base/2 with base 250 ms, 500 ms: 188, 375.
    expect(up.times()).toEqual([0, 188, 563]);
  });

  it('gives up after the retries with upstream_unavailable naming the attempts', async () => {
    const up = fakeUpstream(() => unavailable());
    const call = rejectionOf(makeClient({ fetch: up.fetch }).searchJobs({ q: 'x' }));
    await vi.advanceTimersByTimeAsync(10_000);
    const error = await call;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: 'upstream_unavailable',
      status: 503,
      upstreamError: 'read_model_unavailable',
      path: '/api/public/v1/search/jobs?q=x',
    });
    expect(error.message).toContain('after 3 attempts');
    expect(up.calls).toHaveLength(3);
  });

  it('honours Retry-After on a 503', async () => {
    const up = fakeUpstream((n) => (n === 1 ? unavailable('2') : okJobs()));
    const call = makeClient({ fetch: up.fetch }).listJobs();
    await vi.advanceTimersByTimeAsync(1999);
    expect(up.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(up.times()).toEqual([0, 2000]);
  });

  it('a 503 Retry-After beyond the budget gives up at once', async () => {
    const up = fakeUpstream(() => unavailable('30'));
    const error = await rejectionOf(makeClient({ fetch: up.fetch }).listJobs());
    expect(error).toMatchObject({ kind: 'upstream_unavailable', retryAfterS: 30 });
    expect(up.calls).toHaveLength(1);
  });

  it('stays inside the total time budget', async () => {
    // 188 ms fits a 400 ms budget; the next backoff (375 ms) would end at 563 ms, past it.
    const up = fakeUpstream(() => unavailable());
    const call = rejectionOf(
      makeClient({ fetch: up.fetch, unavailableRetries: 5, unavailableBudgetMs: 400 }).listJobs(),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await call).toMatchObject({ kind: 'upstream_unavailable' });
    expect(up.times()).toEqual([0, 188]);
  });

  it('jitter stays within [base/2, base]', async () => {
    for (const [random, expected] of [
      [0, 125],
      [1, 250],
    ] as const) {
      const up = fakeUpstream((n) => (n === 1 ? unavailable() : okJobs()));
      const call = makeClient({ fetch: up.fetch, random: () => random }).listJobs();
      await vi.advanceTimersByTimeAsync(250);
      await call;
      expect(up.calls[1]!.at - up.calls[0]!.at).toBe(expected);
    }
  });

  it.each([502, 504])('%i is retried like 503', async (status) => {
    const up = fakeUpstream((n) => (n === 1 ? new Response('bad gateway', { status }) : okJobs()));
    const call = makeClient({ fetch: up.fetch }).listJobs();
    await vi.advanceTimersByTimeAsync(188);
    await call;
    expect(up.calls).toHaveLength(2);
  });

  it.each([400, 404, 500, 403])('%i is never retried: exactly one request', async (status) => {
    const up = fakeUpstream(() => new Response(JSON.stringify(errorBody('x')), { status }));
    const call = rejectionOf(makeClient({ fetch: up.fetch }).getJob('j'));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await call).toMatchObject({ status });
    expect(up.calls).toHaveLength(1);
  });

  it('a cancellation during the backoff is cancelled, with nothing more sent', async () => {
    const up = fakeUpstream(() => unavailable());
    const controller = new AbortController();
    const call = rejectionOf(makeClient({ fetch: up.fetch }).listJobs({}, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    expect(await call).toMatchObject({ kind: 'cancelled' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(up.calls).toHaveLength(1);
  });
});

describe('cancellation mid-request (fake timers; deadlines on the production fetch: timeouts.test.ts)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an abort mid-request is cancelled, with the request signal aborted', async () => {
    const up = fakeUpstream(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const call = rejectionOf(makeClient({ fetch: up.fetch }).getJob('j', {}, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(500);
    controller.abort();
    const error = await call;
    expect(error).toMatchObject({ kind: 'cancelled', path: '/api/public/v1/jobs/j' });
    expect((up.calls[0]!.init.signal as AbortSignal).aborted).toBe(true);
  });
});

describe('timeout and cancellation through msw (real timers, short)', () => {
  const server = makeServer();
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());

  it('a handler that never answers is a timeout after timeoutMs', async () => {
    const hang = deferred<Response>();
    server.use(http.get(`${BASE}/*`, () => hang.promise));
    const started = performance.now();
    const error = await rejectionOf(makeClient({ timeoutMs: 60 }).listJobs());
    const elapsed = performance.now() - started;
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(elapsed).toBeGreaterThanOrEqual(55);
    // A timer is never early, so the lower bound is exact; the upper one only has to tell "ended by
    // its 60 ms timeout" from "hung until the handler answered" (never, here): 5 s is a margin
    // any loaded machine keeps.
    expect(elapsed).toBeLessThan(5_000);
    hang.resolve(HttpResponse.json(jobList()));
  });

  it('an abort while the handler is pending is cancelled', async () => {
    const hang = deferred<Response>();
    server.use(http.get(`${BASE}/*`, () => hang.promise));
    const controller = new AbortController();
    const call = rejectionOf(makeClient().listJobs({}, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 20);
    expect(await call).toMatchObject({ kind: 'cancelled' });
    hang.resolve(HttpResponse.json(jobList()));
  });
});
