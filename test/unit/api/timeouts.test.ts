/**
 * Deadlines and cancellation on the production fetch, over real loopback HTTP: the per-request
 * timeout (AbortSignal.timeout) and the caller's signal end a call wherever it is (waiting for
 * headers, mid-body, queued for a connection), and a dropped connection is a network error.
 */
import { describe, expect, it } from 'vitest';
import { backstopMs } from '../../../src/api/dispatcher.js';
import { productionClient, rejectionOf, useLoopback } from './helpers.js';

const api = useLoopback();

const client = (options: { timeoutMs?: number; connections?: number } = {}) =>
  productionClient(api.url, { cache: false, ...options });

/** Headers, then the start of a body that never ends. */
const stallMidBody = () => {
  api.respond = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"success":');
  };
};

describe('the per-request timeout', () => {
  it("is the call's own over a second too: undici's timeouts, a coarser clock, come a second after", () => {
    // undici times anything over a second on a clock that ticks every 499 ms and may fire a tick
    // early; first, its UND_ERR_HEADERS_TIMEOUT read as a network failure for 1 call in 8 against a
    // hung upstream at a 1.2 s deadline (0 in 16 with the second).
    for (const timeoutMs of [1_001, 2_000, 15_000, 600_000])
      expect(backstopMs(timeoutMs)).toBeGreaterThanOrEqual(timeoutMs + 2 * 499);
  });

  it('ends a call whose headers never come, and the call is not retried', async () => {
    api.respond = () => {};
    const started = Date.now();
    const error = await rejectionOf(client({ timeoutMs: 200 }).listJobs());
    expect(error).toMatchObject({ kind: 'timeout', path: '/api/public/v1/jobs' });
    expect(error.message).toContain('200 ms');
    // Bounded only against "never ends" (the server never answers): 15 times the timeout.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(api.seen).toHaveLength(1);
  });

  it('ends a call whose body stalls mid-stream', async () => {
    stallMidBody();
    const started = Date.now();
    expect(await rejectionOf(client({ timeoutMs: 300 }).getJob('x'))).toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('cancellation', () => {
  it('mid-body ends the call as cancelled, with the caller’s reason as its cause', async () => {
    stallMidBody();
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    setTimeout(() => controller.abort(reason), 100);
    const error = await rejectionOf(client().getJob('x', {}, { signal: controller.signal }));
    expect(error).toMatchObject({ kind: 'cancelled', path: '/api/public/v1/jobs/x' });
    expect(error.cause).toBe(reason);
  });

  it('and the timeout end a call at once even while it waits for a connection', async () => {
    stallMidBody();
    // One connection, held by a call whose body never ends: the next calls wait in undici's queue.
    const single = client({ connections: 1, timeoutMs: 2000 });
    const holding = rejectionOf(single.getJob('held'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    let held = true;
    void holding.then(() => (held = false));
    expect(await rejectionOf(single.getJob('queued', {}, { signal: controller.signal }))).toMatchObject({
      kind: 'cancelled',
    });
    // Ended while the connection was still held, not when the holder's 2 s timeout freed it.
    expect(held).toBe(true);
    expect(await holding).toMatchObject({ kind: 'timeout' });
    expect(api.seen.map((req) => req.url)).toEqual(['/api/public/v1/jobs/held']);
  });
});

describe('a dropped connection', () => {
  it('mid-body is a network error naming the cause', async () => {
    api.respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"success":', () => res.destroy());
    };
    const error = await rejectionOf(client().getJob('x'));
    expect(error).toMatchObject({ kind: 'network' });
    expect(error.message).toMatch(/^network: GET \/api\/public\/v1\/jobs\/x failed: \S/);
  });
});
