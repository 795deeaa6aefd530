/** Each fault kind, seen raw and through the real client (which must map it to the right error kind). */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/contract/errors.js';
import { createOfflineEngine, type OfflineEngine } from '../../../src/offline/engine.js';
import { breakContract, OVERSIZED_BYTES } from '../../../src/offline/fault-answers.js';
import { faultsFromEnv, parseFaultRules } from '../../../src/offline/faults.js';
import { createOfflineFetch, OFFLINE_BASE_URL } from '../../../src/offline/fetch.js';
import { get, offlineClient } from '../../helpers/offline-client.js';

let engine: OfflineEngine;
beforeAll(async () => {
  engine = await createOfflineEngine();
});
afterEach(() => {
  engine.faults.clear();
  engine.faults.resetHits();
});

const JOBS = '/api/public/v1/jobs';
const HEALTH = '/api/public/v1/mcp/health';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('rate_limit', () => {
  it('answers 429 with the error envelope and Retry-After', async () => {
    engine.faults.add({ path: JOBS, kind: 'rate_limit', retryAfter: 30 });
    const response = await get(engine, JOBS);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(await response.json()).toMatchObject({ success: false, error: 'rate_limited' });
  });

  it('defaults Retry-After to 1 second', async () => {
    engine.faults.add({ path: JOBS, kind: 'rate_limit' });
    expect((await get(engine, JOBS)).headers.get('retry-after')).toBe('1');
  });

  it('a wait longer than the client may spend is a rate_limited error naming the seconds', async () => {
    engine.faults.add({ path: JOBS, kind: 'rate_limit', retryAfter: 30 });
    const error = await failure(offlineClient(engine, { maxRetryWaitS: 5 }).listJobs());
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterS).toBe(30);
    expect(engine.faults.hits(JOBS)).toBe(1);
  });

  it('with times: 1, the client waits it out and the second request succeeds', async () => {
    engine.faults.add({ path: JOBS, kind: 'rate_limit', retryAfter: 1, times: 1 });
    const started = Date.now();
    const result = await offlineClient(engine).listJobs();
    expect(result.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(engine.faults.hits(JOBS)).toBe(2);
    expect(engine.faults.list()[0]!.times).toBe(0);
  });
});

describe('unavailable', () => {
  it('answers 503 with the envelope, and Retry-After only when set', async () => {
    engine.faults.add({ path: JOBS, kind: 'unavailable' });
    const response = await get(engine, JOBS);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeNull();
    engine.faults.set([{ path: JOBS, kind: 'unavailable', retryAfter: 2 }]);
    expect((await get(engine, JOBS)).headers.get('retry-after')).toBe('2');
  });

  it('the client retries a passing outage and reports a lasting one', async () => {
    engine.faults.add({ path: JOBS, kind: 'unavailable', times: 1 });
    expect((await offlineClient(engine, { unavailableRetries: 1 }).listJobs()).status).toBe(200);
    engine.faults.set([{ path: JOBS, kind: 'unavailable' }]);
    expect((await failure(offlineClient(engine).listJobs())).kind).toBe('upstream_unavailable');
  });
});

describe('delay and hang', () => {
  it('delay answers normally after the wait', async () => {
    engine.faults.add({ path: JOBS, kind: 'delay', delayMs: 120 });
    const started = Date.now();
    expect((await get(engine, JOBS)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
  });

  it('a delay composes with the rule after it', async () => {
    engine.faults.set([
      { path: JOBS, kind: 'delay', delayMs: 50 },
      { path: JOBS, kind: 'unavailable' },
    ]);
    expect((await get(engine, JOBS)).status).toBe(503);
  });

  it('hang never answers; the client times out', async () => {
    engine.faults.add({ path: JOBS, kind: 'hang' });
    const error = await failure(offlineClient(engine, { timeoutMs: 150 }).listJobs());
    expect(error.kind).toBe('timeout');
  });

  it('hang ends when the caller aborts', async () => {
    engine.faults.add({ path: JOBS, kind: 'hang' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    const error = await failure(offlineClient(engine).listJobs({}, { signal: controller.signal }));
    expect(error.kind).toBe('cancelled');
  });
});

describe('broken bodies', () => {
  it('malformed: 200, JSON content type, not JSON', async () => {
    engine.faults.add({ path: JOBS, kind: 'malformed' });
    const response = await get(engine, JOBS);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/json/);
    await expect(response.json()).rejects.toThrow();
    engine.faults.resetHits();
    expect((await failure(offlineClient(engine).listJobs())).kind).toBe('upstream_contract');
  });

  it('truncated: 200 with the first half of the real body', async () => {
    const full = await (await get(engine, JOBS)).text();
    engine.faults.add({ path: JOBS, kind: 'truncated' });
    const response = await get(engine, JOBS);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toBe(full.slice(0, Math.floor(full.length / 2)));
    expect((await failure(offlineClient(engine).listJobs())).message).toMatch(/malformed or truncated/);
  });

  it.each([
    [JOBS, 'data.jobs[0].title'],
    [`${JOBS}/${'job_ai_0001'}`, 'data.title'],
    ['/api/public/v1', 'data'],
    ['/api/public/v1/market-map', 'data'],
  ])('contract on %s breaks %s', async (path, jsonPath) => {
    engine.faults.add({ path: '/api/public/v1*', kind: 'contract' });
    const response = await get(engine, path);
    expect(response.status).toBe(200);
    const client = offlineClient(engine);
    const call =
      path === JOBS
        ? client.listJobs()
        : path.startsWith(`${JOBS}/`)
          ? client.getJob('job_ai_0001')
          : path.endsWith('market-map')
            ? client.getMarketMap()
            : client.discover();
    const error = await failure(call);
    expect(error.kind).toBe('upstream_contract');
    expect(error.jsonPath).toBe(jsonPath);
  });

  it('contract on an empty job list breaks pagination.total, and on health drops probes', () => {
    const empty = { success: true, data: { jobs: [], pagination: { total: 0 } } };
    breakContract(empty);
    expect(empty.data.pagination.total).toBe(-1);
    const health: Record<string, unknown> = { status: 'ok', probes: [] };
    breakContract(health);
    expect(health).not.toHaveProperty('probes');
  });

  it('contract leaves a non-200 answer alone', async () => {
    engine.faults.add({ path: '*', kind: 'contract' });
    expect((await get(engine, `${JOBS}/nope`)).status).toBe(404);
  });
});

describe('degraded_health', () => {
  it('health answers 503 with status degraded and a failing probe, which the client returns as data', async () => {
    engine.faults.add({ path: HEALTH, kind: 'degraded_health' });
    const result = await offlineClient(engine).getHealth();
    expect(result.status).toBe(503);
    expect(result.data.status).toBe('degraded');
    expect(result.data.probes.some((p) => !p.ok)).toBe(true);
  });

  it('on a path that is not health it is a plain 503 envelope', async () => {
    engine.faults.add({ path: JOBS, kind: 'degraded_health' });
    const response = await get(engine, JOBS);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ success: false });
  });
});

describe('oversized and reset', () => {
  it('oversized streams a well-formed body over 9 MB without Content-Length', async () => {
    engine.faults.add({ path: JOBS, kind: 'oversized' });
    const response = await get(engine, JOBS);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    const text = await response.text();
    expect(text.length).toBeGreaterThan(9 * 1024 * 1024);
    expect(OVERSIZED_BYTES).toBeGreaterThan(9 * 1024 * 1024);
    const body = JSON.parse(text) as { data: { jobs: unknown[] } };
    expect(body.data.jobs.length).toBeGreaterThan(1000);
  });

  it('the client refuses an oversized body at its cap', async () => {
    engine.faults.add({ path: JOBS, kind: 'oversized' });
    const error = await failure(offlineClient(engine).listJobs());
    expect(error.kind).toBe('upstream_contract');
    expect(error.message).toMatch(/cap/);
  });

  it('reset sends headers and half the body, then the body errors', async () => {
    engine.faults.add({ path: JOBS, kind: 'reset' });
    const response = await get(engine, JOBS);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow(/socket hang up/);
    expect((await failure(offlineClient(engine).listJobs())).kind).toBe('network');
  });
});

describe('rule matching and bookkeeping', () => {
  it('matches exact paths and * prefixes, counts times, and counts hits per path', async () => {
    engine.faults.set([
      { path: '/api/public/v1/search/*', kind: 'unavailable', times: 2 },
      { path: JOBS, kind: 'rate_limit' },
    ]);
    expect((await get(engine, '/api/public/v1/search/jobs')).status).toBe(503);
    expect((await get(engine, '/api/public/v1/search/jobs?q=go')).status).toBe(503);
    expect((await get(engine, '/api/public/v1/search/jobs')).status).toBe(200);
    expect((await get(engine, `${JOBS}/job_ai_0001`)).status).toBe(200); // exact rule, not a prefix
    expect((await get(engine, JOBS)).status).toBe(429);
    expect(engine.faults.hits('/api/public/v1/search/jobs')).toBe(3);
    expect(engine.faults.hits('/api/public/v1/*')).toBe(5);
    expect(engine.faults.hits()).toBe(5);
    expect(engine.faults.stats()).toMatchObject({ '/api/public/v1/search/jobs': 3, [JOBS]: 1 });
    expect(engine.faults.list()[0]!.times).toBe(0);
  });

  it('rules come from options and validate strictly', async () => {
    const faulty = await createOfflineEngine({ dataset: engine.dataset, faults: [{ path: '*', kind: 'unavailable' }] });
    expect((await faulty.handle(new Request(`${OFFLINE_BASE_URL}/llms.txt`))).status).toBe(503);
    expect(() => parseFaultRules([{ path: JOBS, kind: 'explode' }])).toThrow(/kind/);
    expect(() => parseFaultRules([{ path: 'jobs', kind: 'hang' }])).toThrow(/path/);
    expect(() => parseFaultRules([{ path: JOBS, kind: 'hang', extra: 1 }])).toThrow();
    expect(parseFaultRules({ path: JOBS, kind: 'hang' })).toEqual([{ path: JOBS, kind: 'hang' }]);
  });

  it('rules come from SERVICE_MCP_MOCK_FAULTS', () => {
    expect(faultsFromEnv({})).toEqual([]);
    expect(
      faultsFromEnv({ SERVICE_MCP_MOCK_FAULTS: '[{"path":"/llms.txt","kind":"rate_limit","retryAfter":3}]' }),
    ).toEqual([{ path: '/llms.txt', kind: 'rate_limit', retryAfter: 3 }]);
    expect(() => faultsFromEnv({ SERVICE_MCP_MOCK_FAULTS: '[{' })).toThrow(/SERVICE_MCP_MOCK_FAULTS/);
  });

  it('the in-process fetch rejects with the signal reason when aborted before the call', async () => {
    const controller = new AbortController();
    const reason = new Error('gone');
    controller.abort(reason);
    await expect(createOfflineFetch(engine)(`${OFFLINE_BASE_URL}${JOBS}`, { signal: controller.signal })).rejects.toBe(
      reason,
    );
  });

  it('the in-process fetch errors a body still being read when aborted', async () => {
    engine.faults.add({ path: JOBS, kind: 'oversized' });
    const controller = new AbortController();
    const response = await createOfflineFetch(engine)(`${OFFLINE_BASE_URL}${JOBS}`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    const reason = new Error('stop reading');
    controller.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
  });
});
