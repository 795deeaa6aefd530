/**
 * Each caller's share of upstream requests: the token bucket (a fake clock), and the check on the
 * production dispatcher against the offline API over loopback, counted by the requests the API
 * saw: a refused request is never sent, a cache hit takes nothing, callers do not share a share,
 * and a caller sharing an identical request with one refused is not refused with it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/contract/errors.js';
import { BudgetExceeded, LocalBudget } from '../../../src/api/fair-share.js';
import { startOfflineServer, type OfflineServer } from '../../../src/offline/server.js';
import { productionClient } from './helpers.js';

describe('the token bucket', () => {
  it('allows a burst, then one request per refill, each caller on its own, saying how long to wait', async () => {
    let now = 1_000_000;
    const budget = new LocalBudget({ perMinute: 6, burst: 3 }, () => now);
    for (const left of [2, 1, 0]) expect(await budget.take('a')).toEqual({ allowed: true, left, retryAfterS: 0 });
    expect(await budget.take('a')).toEqual({ allowed: false, left: 0, retryAfterS: 10 });
    expect((await budget.take('b')).allowed).toBe(true);
    now += 4_000;
    expect(await budget.take('a')).toMatchObject({ allowed: false, retryAfterS: 6 });
    now += 6_000;
    expect(await budget.take('a')).toMatchObject({ allowed: true, left: 0 });
    // A bucket refills to its burst and no further.
    now += 3_600_000;
    expect(await budget.state('a')).toMatchObject({ left: 3, sent: 4, refused: 2, shared: false, callers: 2 });
  });
});

describe('on the production dispatcher', () => {
  let offline: OfflineServer;
  beforeAll(async () => {
    offline = await startOfflineServer();
  });
  afterAll(() => offline.close());
  afterEach(() => offline.engine.faults.resetHits());

  const hits = () => offline.engine.faults.hits();

  it('a caller past its share is refused before anything is sent; its cache hits and other callers go on', async () => {
    const budget = new LocalBudget({ perMinute: 1, burst: 2 });
    const client = productionClient(offline.url, { budget });
    const a = { caller: 'token:alice' };
    await client.getJob('job_ai_0001', {}, a);
    await client.getJob('job_ai_0002', {}, a);
    expect(hits()).toBe(2);
    // A cache hit takes nothing from the share (the share is spent, and the hit is served).
    expect((await client.getJob('job_ai_0001', {}, a)).cache?.hit).toBe(true);
    const refused = await client.getJob('job_ai_0003', {}, a).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BudgetExceeded);
    expect(refused).toMatchObject({ kind: 'rate_limited', caller: 'token:alice', retryAfterS: 60 });
    expect((refused as ApiError).message).toMatch(
      /your share .* \(1 a minute, bursts of 2, for each caller\); nothing was sent/,
    );
    expect(hits()).toBe(2);
    // Another caller has its own share; a call with no caller (stdio, the catalog read) has none.
    await client.getJob('job_ai_0003', {}, { caller: 'token:bob' });
    await client.getJob('job_ai_0004');
    expect(hits()).toBe(4);
    expect(await client.shareOf('token:alice')).toMatchObject({ left: 0, sent: 2, refused: 1 });
    expect(await client.shareOf(undefined)).toBeUndefined();
  });

  it('a caller whose identical request was shared with a refused one is not refused with it', async () => {
    const budget = new LocalBudget({ perMinute: 1, burst: 1 });
    const client = productionClient(offline.url, { budget, cache: false });
    await client.getMarketMap({}, { caller: 'a' });
    // Both start at once: b's request joins a's (deduplicated), which a's spent share refuses.
    const [a, b] = await Promise.allSettled([
      client.getMarketMap({ status: 'ready' }, { caller: 'a' }),
      client.getMarketMap({ status: 'ready' }, { caller: 'b' }),
    ]);
    expect(a).toMatchObject({ status: 'rejected', reason: { kind: 'rate_limited', caller: 'a' } });
    expect(b.status).toBe('fulfilled');
    expect(offline.engine.faults.hits('/api/public/v1/market-map')).toBe(2);
  });
});
