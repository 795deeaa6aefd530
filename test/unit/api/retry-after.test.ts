/**
 * The client-wide Retry-After cool-down, driven by fake timers: no test sleeps for real.
 * Most tests use a microtask-only scripted upstream so times are exact to the millisecond; the
 * first block runs the same client through msw.
 */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/contract/errors.js';
import { parseRetryAfter, RetryAfterGate } from '../../../src/api/retry-after-gate.js';
import {
  BASE,
  deferred,
  errorBody,
  fakeUpstream,
  jobList,
  limited,
  makeClient,
  makeServer,
  okJobs,
  productionClient,
  rejectionOf,
  sendJson,
  until,
  useLoopback,
} from './helpers.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs pending promise callbacks (and timers due now) without moving the clock. */
const tick = () => vi.advanceTimersByTimeAsync(0);

describe('through msw', () => {
  const server = makeServer();
  let sent: number[] = [];
  let t0 = 0;
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  beforeEach(() => {
    t0 = Date.now();
    sent = [];
  });
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());

  function script(...responses: Array<() => Response>) {
    let i = 0;
    server.use(
      http.get(`${BASE}/*`, () => {
        sent.push(Date.now() - t0);
        return responses[Math.min(i++, responses.length - 1)]!();
      }),
    );
  }
  const ok = () => HttpResponse.json(jobList());
  const limitedFor = (retryAfter: string) => () =>
    HttpResponse.json(errorBody('rate_limited'), { status: 429, headers: { 'retry-after': retryAfter } });

  it('a 429 with Retry-After: 3 is waited out exactly, retried right after, and then succeeds', async () => {
    script(limitedFor('3'), ok);
    const waits: number[] = [];
    const call = makeClient().listJobs({}, { onWait: (info) => waits.push(info.seconds) });
    // msw answers after real event-loop turns; the fake clock stays put until the client is waiting.
    await until(() => waits.length === 1, 'the client to start waiting');
    expect(sent).toEqual([0]);
    await vi.advanceTimersByTimeAsync(2999);
    expect(sent).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(call).resolves.toMatchObject({ status: 200 });
    expect(sent).toEqual([0, 3000]);
    expect(waits).toEqual([3]);
  });

  it('the HTTP-date form is accepted', async () => {
    // A whole second, since HTTP-dates have no milliseconds.
    vi.setSystemTime(Math.ceil(Date.now() / 1000) * 1000);
    t0 = Date.now();
    script(limitedFor(new Date(Date.now() + 5000).toUTCString()), ok);
    const waits: number[] = [];
    const call = makeClient().listJobs({}, { onWait: (info) => waits.push(info.seconds) });
    await until(() => waits.length === 1, 'the client to start waiting');
    expect(waits).toEqual([5]);
    await vi.advanceTimersByTimeAsync(4999);
    expect(sent).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(call).resolves.toMatchObject({ status: 200 });
    expect(sent).toEqual([0, 5000]);
  });

  it('a Retry-After beyond max-retry-wait fails at once with rate_limited carrying the seconds, and nothing more is sent', async () => {
    script(limitedFor('30'), ok);
    const error = await rejectionOf(makeClient({ maxRetryWaitS: 20 }).listJobs());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterS: 30, path: '/api/public/v1/jobs' });
    expect(error.message).toContain('30s');
    expect(Date.now() - t0).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toEqual([0]);
  });
});

describe('on the production fetch (real timers, loopback)', () => {
  const api = useLoopback();
  beforeEach(() => {
    vi.useRealTimers();
  });

  it('after a 429, one probe goes when the cool-down ends, and the other calls only once it has its status', async () => {
    const at: number[] = [];
    const t0 = Date.now();
    api.respond = (_req, res) => {
      at.push(Date.now() - t0);
      if (at.length === 1)
        return sendJson(res, 429, errorBody('rate_limited'), {
          'retry-after': '1',
          'cache-control': 'public, max-age=60',
        });
      setTimeout(() => sendJson(res, 200, jobList()), 100);
    };
    const client = productionClient(api.url, { maxRetryWaitS: 5 });
    const first = client.listJobs();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const others = Array.from({ length: 4 }, (_, i) => client.listJobs({ page: i + 2 }));
    const results = await Promise.all([first, ...others]);
    expect(results.every((r) => r.status === 200 && r.cache === undefined)).toBe(true);
    expect(at).toHaveLength(6);
    expect(at[1]).toBeGreaterThanOrEqual(950);
    expect(Math.min(...at.slice(2))).toBeGreaterThanOrEqual(at[1]! + 90);
  });
});

describe('429 handling', () => {
  it('a 429 without Retry-After still pauses (5 s) before the retry: never hammers', async () => {
    const up = fakeUpstream((n) => (n === 1 ? limited() : okJobs()));
    const call = makeClient({ fetch: up.fetch }).listJobs();
    await vi.advanceTimersByTimeAsync(4999);
    expect(up.times()).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(call).resolves.toMatchObject({ status: 200 });
    expect(up.times()).toEqual([0, 5000]);
  });

  it.each(['soon', '-5', '1.5', ''])('an unreadable Retry-After (%j) is treated like a missing one', async (value) => {
    const up = fakeUpstream((n) => (n === 1 ? limited(value) : okJobs()));
    const call = makeClient({ fetch: up.fetch }).listJobs();
    await vi.advanceTimersByTimeAsync(5000);
    await call;
    expect(up.times()).toEqual([0, 5000]);
  });

  it('keeps retrying, one request per window, while the budget lasts; then fails with rate_limited', async () => {
    const up = fakeUpstream(() => limited('4'));
    const call = rejectionOf(makeClient({ fetch: up.fetch, maxRetryWaitS: 10 }).listJobs());
    await vi.advanceTimersByTimeAsync(8000);
    const error = await call;
    expect(error).toMatchObject({
      kind: 'rate_limited',
      retryAfterS: 4,
      upstreamError: 'rate_limited',
      upstreamMessage: 'slow down',
    });
    // 0 s, 4 s, 8 s; another wait (to 12 s) would pass the 10 s budget, so the third 429 fails at once.
    expect(up.times()).toEqual([0, 4000, 8000]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(up.calls).toHaveLength(3);
  });

  it('a Retry-After exactly equal to the budget is waited out', async () => {
    const up = fakeUpstream((n) => (n === 1 ? limited('20') : okJobs()));
    const call = makeClient({ fetch: up.fetch, maxRetryWaitS: 20 }).listJobs();
    await vi.advanceTimersByTimeAsync(20_000);
    await expect(call).resolves.toMatchObject({ status: 200 });
    expect(up.times()).toEqual([0, 20_000]);
  });

  it('max-retry-wait 0 never waits', async () => {
    const up = fakeUpstream(() => limited('1'));
    expect(await rejectionOf(makeClient({ fetch: up.fetch, maxRetryWaitS: 0 }).listJobs())).toMatchObject({
      kind: 'rate_limited',
      retryAfterS: 1,
    });
    expect(up.calls).toHaveLength(1);
  });
});

describe('the cool-down is client-wide', () => {
  it('another method called during the window does not go upstream until the window ends', async () => {
    const up = fakeUpstream((n) => (n === 1 ? limited('3') : okJobs()));
    const client = makeClient({ fetch: up.fetch });
    const first = client.listJobs();
    await vi.advanceTimersByTimeAsync(1000);
    const other = client.searchJobs({ q: 'x' });
    await vi.advanceTimersByTimeAsync(1999);
    expect(up.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([first, other]);
    expect(up.times()).toEqual([0, 3000, 3000]);
  });

  it('after a window too long to wait, every call fails fast with the seconds left and sends nothing until it ends', async () => {
    const up = fakeUpstream((n) => (n === 1 ? limited('30') : okJobs()));
    const client = makeClient({ fetch: up.fetch, maxRetryWaitS: 20 });
    expect(await rejectionOf(client.listJobs())).toMatchObject({ kind: 'rate_limited', retryAfterS: 30 });
    await vi.advanceTimersByTimeAsync(5000);
    const error = await rejectionOf(client.getJob('job-1'));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterS: 25, path: '/api/public/v1/jobs/job-1' });
    expect(error.message).toContain('25s');
    expect(up.calls).toHaveLength(1);
    // 15 s in, 15 s are left: within the budget, so this caller waits and then goes.
    await vi.advanceTimersByTimeAsync(10_000);
    const late = client.listJobs().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(up.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await late;
    expect(up.times()).toEqual([0, 30_000]);
  });

  it('a shared gate applies across clients, each by its own budget', async () => {
    const up = fakeUpstream((n) => (n === 1 ? limited('10') : okJobs()));
    const gate = new RetryAfterGate();
    const patient = makeClient({ fetch: up.fetch, gate, maxRetryWaitS: 20 });
    const hurried = makeClient({ fetch: up.fetch, gate, maxRetryWaitS: 5 });
    const first = patient.listJobs();
    await vi.advanceTimersByTimeAsync(2000);
    expect(await rejectionOf(hurried.getJob('x'))).toMatchObject({ kind: 'rate_limited', retryAfterS: 8 });
    expect(up.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(8000);
    await first;
    expect(up.times()).toEqual([0, 10_000]);
  });

  it('20 concurrent callers during a window produce exactly one request when it ends (the probe), then the rest proceed', async () => {
    const probe = deferred<Response>();
    const up = fakeUpstream((n) => (n === 1 ? limited('3') : n === 2 ? probe.promise : okJobs()));
    const client = makeClient({ fetch: up.fetch });
    const first = client.listJobs();
    await vi.advanceTimersByTimeAsync(500);
    const burst = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0 ? client.listJobs({ page: i + 1 }) : client.getMarketMap().catch(() => 'contract'),
    );
    await vi.advanceTimersByTimeAsync(2499);
    expect(up.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(200);
    // The window is over: one request (the probe) is in flight and the rest wait for its status.
    expect(up.calls).toHaveLength(2);
    expect(up.calls[1]!.at).toBe(3000);
    probe.resolve(okJobs());
    await tick();
    await Promise.all([first, ...burst]);
    expect(up.calls).toHaveLength(22);
    expect(up.calls.slice(2).every((c) => c.at === 3200)).toBe(true);
  });

  it('if the probe is limited again, the others keep waiting: one upstream request per window', async () => {
    // 1st: a 2 s window; the probe at 2 s: another 2 s; the probe at 4 s: ok; then the rest.
    const up = fakeUpstream((n) => (n <= 2 ? limited('2') : okJobs()));
    const client = makeClient({ fetch: up.fetch });
    const first = client.listJobs();
    await tick();
    const others = Array.from({ length: 20 }, () => client.listJobs());
    await vi.advanceTimersByTimeAsync(2000);
    expect(up.times()).toEqual([0, 2000]);
    await vi.advanceTimersByTimeAsync(1999);
    expect(up.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([first, ...others]);
    expect(up.calls).toHaveLength(23);
    expect(
      up
        .times()
        .slice(2)
        .every((at) => at === 4000),
    ).toBe(true);
  });

  it('a probe that fails for another reason (network) releases the others', async () => {
    const up = fakeUpstream((n) =>
      n === 1
        ? limited('1')
        : n === 2
          ? Promise.reject(new TypeError('fetch failed', { cause: new Error('socket hang up') }))
          : okJobs(),
    );
    const client = makeClient({ fetch: up.fetch });
    const first = rejectionOf(client.listJobs());
    await tick();
    const others = Array.from({ length: 5 }, () => client.listJobs());
    await vi.advanceTimersByTimeAsync(1000);
    expect(await first).toMatchObject({ kind: 'network' });
    await Promise.all(others);
    expect(up.calls).toHaveLength(7);
    expect(
      up
        .times()
        .slice(1)
        .every((at) => at === 1000),
    ).toBe(true);
  });
});

describe('cancellation while waiting', () => {
  it.each([
    ['abort()', (c: AbortController) => c.abort()],
    ['abort(reason)', (c: AbortController) => c.abort(new Error('user pressed stop'))],
  ])('%s mid-wait rejects promptly with kind cancelled and sends no request', async (_name, abort) => {
    const up = fakeUpstream((n) => (n === 1 ? limited('10') : okJobs()));
    const controller = new AbortController();
    const call = rejectionOf(makeClient({ fetch: up.fetch }).listJobs({}, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(2000);
    let done = false;
    void call.then(() => (done = true));
    abort(controller);
    await tick();
    // Prompt: settled without the clock moving on.
    expect(done).toBe(true);
    const error = await call;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'cancelled', path: '/api/public/v1/jobs' });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(up.calls).toHaveLength(1);
  });

  it('a second caller cancelled at the shared gate is cancelled, and the first still proceeds', async () => {
    const up = fakeUpstream((n) => (n === 1 ? limited('5') : okJobs()));
    const client = makeClient({ fetch: up.fetch });
    const first = client.listJobs();
    await tick();
    const controller = new AbortController();
    const second = rejectionOf(client.getJob('x', {}, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(1000);
    controller.abort(new Error('user pressed stop'));
    expect(await second).toMatchObject({ kind: 'cancelled', path: '/api/public/v1/jobs/x' });
    await vi.advanceTimersByTimeAsync(4000);
    await expect(first).resolves.toMatchObject({ status: 200 });
    expect(up.times()).toEqual([0, 5000]);
  });

  it('a caller cancelled while waiting for the probe is cancelled without a request', async () => {
    const probe = deferred<Response>();
    const up = fakeUpstream((n) => (n === 1 ? limited('1') : n === 2 ? probe.promise : okJobs()));
    const client = makeClient({ fetch: up.fetch });
    const first = client.listJobs();
    await tick();
    const controller = new AbortController();
    const second = rejectionOf(client.listJobs({}, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(up.calls).toHaveLength(2);
    controller.abort();
    expect(await second).toMatchObject({ kind: 'cancelled' });
    probe.resolve(okJobs());
    await first;
    expect(up.calls).toHaveLength(2);
  });

  it('an already aborted signal sends nothing', async () => {
    const up = fakeUpstream(() => okJobs());
    expect(
      await rejectionOf(makeClient({ fetch: up.fetch }).listJobs({}, { signal: AbortSignal.abort() })),
    ).toMatchObject({ kind: 'cancelled' });
    expect(up.calls).toHaveLength(0);
  });
});

describe('RetryAfterGate', () => {
  it('lets calls straight through when no window is open', async () => {
    const gate = new RetryAfterGate();
    const ticket = await gate.pass({ maxWaitS: 0 });
    expect(ticket.waitedMs).toBe(0);
    ticket.settle();
    expect(gate.open()).toBeDefined();
  });

  it('tells a caller it refuses the whole seconds left, and a block never shortens a longer window', async () => {
    const gate = new RetryAfterGate();
    const secondsLeft = async () => ((await rejectionOf(gate.pass({ maxWaitS: 0 }))) as ApiError).retryAfterS;
    gate.block(10);
    vi.advanceTimersByTime(2500);
    expect(await secondsLeft()).toBe(8);
    gate.block(1);
    expect(await secondsLeft()).toBe(8);
    gate.block(20);
    expect(await secondsLeft()).toBe(20);
  });

  it('waitedMs is in milliseconds', async () => {
    const gate = new RetryAfterGate();
    gate.block(2);
    const pass = gate.pass({ maxWaitS: 5 });
    await vi.advanceTimersByTimeAsync(2000);
    const ticket = await pass;
    expect(ticket.waitedMs).toBe(2000);
    ticket.settle();
    ticket.settle();
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it.each([
    ['3', 3],
    [' 120 ', 120],
    ['0', 1],
    ['Wed, 01 Jan 2025 00:00:10 GMT', 10],
    ['Wednesday, 01-Jan-25 00:00:09 GMT', 9],
    ['Tue, 31 Dec 2024 23:59:00 GMT', 1],
  ] as const)('%j -> %i', (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });

  it.each([null, '', 'soon', '-5', '1.5', '3s', '2025-01-01T00:00:10Z'])('%j -> undefined', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
