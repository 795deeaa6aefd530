/**
 * The last answer: when the API cannot answer (a network failure, a timeout, a 5xx, a 429 longer
 * than the wait allowed), the response cache's earlier answer to the same request stands in, up to
 * LAST_ANSWER_MAX_AGE_S old, and says so. Over real loopback HTTP on the production dispatcher,
 * since the cache is undici's (msw does not see the undici package's requests: mswjs/msw#2165).
 * Only the clock's date is faked, so an answer's age is exact and a day can pass in a test.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LAST_ANSWER_MAX_AGE_S } from '../../../src/api/cache.js';
import { buildProvenance } from '../../../src/api/provenance-record.js';
import { LocalBudget } from '../../../src/api/fair-share.js';
import { outputSchemaOf, runTool } from '../../../src/tools/run.js';
import { searchJobs } from '../../../src/tools/search-jobs.js';
import { health, jobList, productionClient, rejectionOf, sendJson, useLoopback } from './helpers.js';

const api = useLoopback();

/** What mock-api says of a data answer: public, a minute fresh, with a validator. */
const MOCK_API_HEADERS = { 'cache-control': 'public, max-age=60', etag: '"v1"' };

/**
 * A fixed noon: a job line's age in days is its date's, so a clock read from the machine would make
 * the answer 180 s later a day older whenever the test ran just before midnight UTC.
 */
const t0 = Date.parse('2026-11-27T12:00:00Z');
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(t0);
});
afterEach(() => void vi.useRealTimers());

const later = (seconds: number) => vi.setSystemTime(t0 + seconds * 1000);

/** Answers `body` with `headers` (a Date of the faked clock, as a server on it would send). */
const answering =
  (body: unknown, headers: Record<string, string> = MOCK_API_HEADERS): Respond =>
  (_req, res) =>
    sendJson(res, 200, body, { date: new Date().toUTCString(), ...headers });

type Respond = (req: IncomingMessage, res: ServerResponse) => void;

/** The API not answering, each way: a dropped connection, silence (past the 300 ms timeout), a 5xx, a long 429. */
const FAILURES: Record<'network' | 'timeout' | '503' | '500' | '429 longer than the wait', Respond> = {
  network: (req) => req.socket.destroy(),
  timeout: () => {},
  '503': (_req, res) => sendJson(res, 503, { success: false, error: 'unavailable' }),
  '500': (_req, res) => sendJson(res, 500, { success: false, error: 'boom' }),
  '429 longer than the wait': (_req, res) =>
    sendJson(res, 429, { success: false, error: 'rate_limited' }, { 'retry-after': '120' }),
};

const client = (options: Parameters<typeof productionClient>[1] = {}) =>
  productionClient(api.url, { timeoutMs: 300, ...options });

describe('the API cannot answer: the last answer stands in, dated', () => {
  it.each([
    ['network', 'network'],
    ['timeout', 'timeout'],
    ['503', 'upstream_unavailable'],
    ['500', 'upstream_unavailable'],
    ['429 longer than the wait', 'rate_limited'],
  ] as const)(
    '%s: the earlier answer, with why and how old, in the result and its provenance',
    async (failure, kind) => {
      const c = client();
      api.respond = answering(jobList());
      const first = await c.listJobs({ q: 'rust' });
      later(120);
      api.respond = FAILURES[failure];
      const kept = await c.listJobs({ q: 'rust' });
      expect(api.seen).toHaveLength(2);
      expect(kept.data).toEqual(first.data);
      expect(kept.cache).toEqual({ hit: true, ageS: 120, lastAnswer: { kind, message: expect.any(String) } });
      expect(buildProvenance(kept, 'http').last_answer).toEqual({
        reason: kind,
        message: kept.cache!.lastAnswer!.message,
        fetched_at: new Date(t0).toISOString(),
        age_s: 120,
      });
    },
  );

  it('a cool-down a 429 left (nothing sent) is answered from the last answer too', async () => {
    const c = client();
    api.respond = answering(jobList());
    await c.listJobs({ q: 'rust' });
    await c.listJobs({ q: 'go' });
    later(120);
    api.respond = FAILURES['429 longer than the wait'];
    expect((await c.listJobs({ q: 'rust' })).cache?.lastAnswer?.kind).toBe('rate_limited');
    const seen = api.seen.length;
    expect((await c.listJobs({ q: 'go' })).cache?.lastAnswer?.kind).toBe('rate_limited');
    expect(api.seen).toHaveLength(seen);
  });

  it(`up to ${LAST_ANSWER_MAX_AGE_S} s old; an older one is not served, and the error is as before`, async () => {
    const c = client();
    api.respond = answering(jobList());
    await c.listJobs();
    later(LAST_ANSWER_MAX_AGE_S);
    api.respond = FAILURES['503'];
    expect((await c.listJobs()).cache).toMatchObject({
      ageS: LAST_ANSWER_MAX_AGE_S,
      lastAnswer: { kind: 'upstream_unavailable' },
    });
    later(LAST_ANSWER_MAX_AGE_S + 1);
    expect(await rejectionOf(c.listJobs())).toMatchObject({ kind: 'upstream_unavailable', status: 503 });
  });

  it('an API that states no freshness: never a hit, but its answer is kept as the last one', async () => {
    const c = client();
    api.respond = answering(jobList(), {});
    await c.listJobs();
    later(1);
    expect((await c.listJobs()).cache).toBeUndefined();
    expect(api.seen).toHaveLength(2);
    later(3_600);
    api.respond = FAILURES.network;
    expect((await c.listJobs()).cache).toMatchObject({ ageS: 3_599, lastAnswer: { kind: 'network' } });
  });
});

describe('no last answer, and the error as before', () => {
  it('with the cache off (--no-cache)', async () => {
    const c = client({ cache: false });
    api.respond = answering(jobList());
    await c.listJobs();
    later(120);
    api.respond = FAILURES['503'];
    expect(await rejectionOf(c.listJobs())).toMatchObject({ kind: 'upstream_unavailable' });
  });

  it('for another request than the one answered', async () => {
    const c = client();
    api.respond = answering(jobList());
    await c.listJobs({ q: 'rust' });
    api.respond = FAILURES.network;
    expect(await rejectionOf(c.listJobs({ q: 'go' }))).toMatchObject({ kind: 'network' });
  });

  it('for health: a health check answered from memory would check nothing', async () => {
    const c = client();
    api.respond = answering(health());
    await c.getHealth();
    later(120);
    api.respond = FAILURES.network;
    expect(await rejectionOf(c.getHealth())).toMatchObject({ kind: 'network' });
  });

  it.each(['no-cache', 'max-age=60, must-revalidate', 's-maxage=60'])(
    'for an answer the API said must not be served stale (%s; RFC 9111 §4.2.4)',
    async (cacheControl) => {
      const c = client();
      api.respond = answering(jobList(), { 'cache-control': cacheControl, etag: '"v1"' });
      await c.listJobs();
      later(120);
      api.respond = FAILURES['503'];
      expect(await rejectionOf(c.listJobs())).toMatchObject({ kind: 'upstream_unavailable' });
    },
  );

  it('for a caller over its share (the API was not asked, so it did not fail to answer)', async () => {
    const budget = new LocalBudget({ perMinute: 1, burst: 1 }, () => t0);
    const c = client({ budget });
    api.respond = answering(jobList());
    await c.listJobs({}, { caller: 'alice' });
    later(120);
    const error = await rejectionOf(c.listJobs({}, { caller: 'alice' }));
    expect(error).toMatchObject({ kind: 'rate_limited' });
    expect(error.message).toContain('your share');
  });
});

describe('what the model reads', () => {
  const search = async (c: ReturnType<typeof client>) => {
    const result = await runTool(searchJobs, { q: 'rust' }, { client: c, mode: 'http' });
    const text = (result.content[0] as { text: string }).text;
    return { result, text, lines: text.split('\n') };
  };

  it('first: the API did not answer, why (fenced), and how old the answer is; then the answer as it was, dated', async () => {
    const c = client();
    api.respond = answering(jobList());
    const live = await search(c);
    later(180);
    api.respond = FAILURES.network;
    const { result, lines } = await search(c);
    expect(result.isError).toBeFalsy();
    expect(lines[0]).toMatch(
      /^LAST ANSWER, NOT LIVE: the API did not answer this call \(network: "GET \/api\/public\/v1\/search\/jobs\?q=rust&per_page=10 failed: [^"]+"\); this is its earlier answer to the same request, from this server's response cache, fetched (\S+) \(3 minutes ago\)\.$/,
    );
    expect(lines[0]).toContain(`fetched ${new Date(t0).toISOString()} (3 minutes ago)`);
    // The answer itself, its own ages counted to now, and the provenance line saying it came from the cache.
    expect(lines.slice(1, -1)).toEqual(live.lines.slice(0, -1));
    expect(lines.at(-1)).toMatch(/ · from cache, 180s old$/);
    const structured = outputSchemaOf(searchJobs).parse(result.structuredContent);
    expect(structured.notices).toEqual([lines[0]]);
    expect(structured.provenance).toMatchObject({
      cache: { hit: true, age_s: 180 },
      last_answer: { reason: 'network', fetched_at: new Date(t0).toISOString(), age_s: 180 },
      retrieved_at: new Date(t0 + 180_000).toISOString(),
    });
  });

  it('fictional data still says so, on the line after', async () => {
    const c = client();
    const fictional = jobList();
    (fictional.meta as Record<string, unknown>).source = 'offline snapshot (fictional sample data)';
    api.respond = answering(fictional);
    await search(c);
    later(120);
    api.respond = FAILURES['503'];
    const { lines, result } = await search(c);
    expect(lines[0]).toMatch(
      /^LAST ANSWER, NOT LIVE: the API did not answer this call \(upstream_unavailable: "HTTP 503 from GET /,
    );
    expect(lines[1]).toMatch(/^FICTIONAL sample data/);
    expect((result.structuredContent as { notices: string[] }).notices).toEqual([lines[0], lines[1]]);
  });
});
