/**
 * Many replicas, one rate limit, one cache: three `serve --http` replicas sharing a real
 * redis-server, in front of an API served from this process (so every request it receives is
 * recorded with its time). A 429 seen by one replica holds all of them for its window, then one
 * probe goes before the others; a response cached by one is a hit on another; Redis killed
 * mid-run loses no call; a wrong password is a start-up error that never shows the password.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { activeJob } from './dataset.js';
import { cleanEnv, runCli, textOf } from './helpers.js';
import { connectHttp, startHttpServer, type HttpServerProcess, type HttpSession } from './http-helpers.js';
import { startRecordingApi, type RecordingApi } from './recording-api.js';
import { flushAll, pttl, startRedis, type RedisServer } from './redis-helpers.js';

const MARKET_MAP = '/api/public/v1/market-map';

let api: RecordingApi;
let redis: RedisServer;
const started: HttpServerProcess[] = [];
const sessions: HttpSession[] = [];

async function replicas(count: number, extra: string[]): Promise<HttpSession[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () =>
      startHttpServer(['--base-url', api.url, '--redis-url', redis.url, '--log-level', 'warn', ...extra]),
    ),
  );
  started.push(...servers);
  const connected = await Promise.all(servers.map((server) => connectHttp(server.url)));
  sessions.push(...connected);
  return connected;
}

const call = async (session: HttpSession, name: string, args: Record<string, unknown> = {}) =>
  (await session.client.callTool({ name, arguments: args })) as CallToolResult;
const requestsTo = (path: string, from = 0) => api.seen.filter((r) => r.at >= from && new URL(r.url).pathname === path);

beforeAll(async () => {
  api = await startRecordingApi();
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close().catch(() => {})));
  await Promise.all(started.splice(0).map((s) => s.stop()));
  api.engine.faults.clear();
  // Each test starts from an empty Redis: no window or cache entry of another test's.
  await flushAll(redis.url);
});
afterAll(async () => {
  await redis?.kill();
  await api?.close();
});

describe('one cool-down for all replicas', () => {
  it('a 429 seen by one replica holds all three: nothing is sent during the window, then one probe goes before the others', async () => {
    const [a, b, c] = await replicas(3, ['--no-cache', '--max-retry-wait-s', '10']);
    // Each replica reads the catalog first, so the window below sees only the calls' own requests.
    for (const session of [a, b, c])
      expect((await call(session!, 'get_job', { job_id: activeJob.job_id })).isError).toBeFalsy();
    api.engine.faults.set([{ path: MARKET_MAP, kind: 'rate_limit', retryAfter: 2, times: 1 }]);
    const windowOpened = performance.now();
    const first = call(a!, 'get_market_map');
    // Owned here too: should an assertion below fail, closing the client rejects it, unawaited.
    first.catch(() => {});
    // Once replica A has recorded the window in Redis (requests sent before any replica knew of the
    // 429 cannot be called back), every replica is asked.
    await expect.poll(() => pttl(redis.url, `service-mcp:v1:${api.url}:cooldown`)).toBeGreaterThan(0);
    const limitedAt = requestsTo(MARKET_MAP, windowOpened)[0]!.at;
    // The next request (whoever sends it) is the probe: it is held 400 ms, so anything that did
    // not wait for it would arrive before it has its status.
    api.engine.faults.set([{ path: MARKET_MAP, kind: 'delay', delayMs: 400, times: 1 }]);
    // Each asks for another URL: identical requests in flight in one replica are sent once.
    const statuses = ['ready', 'partial', 'missing', 'error', 'all'];
    const others = [b, c, b, c, a].map((session, i) => call(session!, 'get_market_map', { status: statuses[i] }));
    // A replica that never saw the 429 still tells its client it is waiting, as for its own.
    const progress: string[] = [];
    others.push(
      c!.client.callTool(
        { name: 'get_market_map', arguments: { layer: 'all' } },
        { onprogress: (p) => void progress.push(p.message ?? '') },
      ) as Promise<CallToolResult>,
    );
    const results = await Promise.all([first, ...others]);
    for (const result of results) expect(result.isError, textOf(result)).toBeFalsy();

    const seen = requestsTo(MARKET_MAP, windowOpened);
    expect(seen).toHaveLength(1 + 1 + others.length);
    const [, probe, ...rest] = seen;
    // Nothing during the window (2 s, less the rounding of Retry-After to whole milliseconds)…
    expect(probe!.at - limitedAt).toBeGreaterThanOrEqual(1_900);
    // …and nothing else until the probe had its answer.
    for (const request of rest) expect(request.at - probe!.at).toBeGreaterThanOrEqual(390);
    expect(progress[0]).toMatch(/^rate limited: waiting \d+ s \(Retry-After\)/);
  });

  it('keys are namespaced by the API origin: replicas of another API are not held', async () => {
    const other = await startRecordingApi();
    try {
      const [a] = await replicas(1, ['--no-cache', '--max-retry-wait-s', '0']);
      const server = await startHttpServer([
        '--base-url',
        other.url,
        '--redis-url',
        redis.url,
        '--no-cache',
        '--max-retry-wait-s',
        '0',
      ]);
      started.push(server);
      const elsewhere = await connectHttp(server.url);
      sessions.push(elsewhere);
      api.engine.faults.set([{ path: MARKET_MAP, kind: 'rate_limit', retryAfter: 30, times: 1 }]);
      expect(textOf(await call(a!, 'get_market_map'))).toMatch(/^rate_limited/);
      expect((await call(elsewhere, 'get_market_map')).isError).toBeFalsy();
    } finally {
      await other.close();
    }
  });
});

describe('one cache for all replicas', () => {
  it('a response cached by one replica is a hit on another, with its age, and is not fetched again', async () => {
    const [a, b] = await replicas(2, []);
    const path = `/api/public/v1/jobs/${activeJob.job_id}`;
    const before = requestsTo(path).length;
    const stored = await call(a!, 'get_job', { job_id: activeJob.job_id });
    expect(stored.isError, textOf(stored)).toBeFalsy();
    expect((stored.structuredContent as { provenance: { cache?: unknown } }).provenance.cache).toBeUndefined();
    const hit = await call(b!, 'get_job', { job_id: activeJob.job_id });
    expect(hit.isError, textOf(hit)).toBeFalsy();
    expect(
      (hit.structuredContent as { provenance: { cache?: { hit: boolean; age_s: number } } }).provenance.cache,
    ).toEqual({ hit: true, age_s: expect.any(Number) });
    expect(textOf(hit)).toMatch(/ · from cache, \d+s old/);
    expect(requestsTo(path).length).toBe(before + 1);
  });

  it("the API stopped: a replica that never asked answers with another's answer, as the last answer", async () => {
    // Answers without freshness headers: never a hit, so only the last answer can serve.
    const stopping = await startRecordingApi({ noFreshness: true });
    try {
      const servers = await Promise.all(
        [0, 1].map(() =>
          startHttpServer(['--base-url', stopping.url, '--redis-url', redis.url, '--log-level', 'warn']),
        ),
      );
      started.push(...servers);
      const [a, b] = await Promise.all(servers.map((server) => connectHttp(server.url)));
      sessions.push(a!, b!);
      const live = await call(a!, 'get_job', { job_id: activeJob.job_id });
      expect(live.isError, textOf(live)).toBeFalsy();
      await stopping.close();
      const kept = await call(b!, 'get_job', { job_id: activeJob.job_id });
      expect(kept.isError, textOf(kept)).toBeFalsy();
      expect(textOf(kept)).toMatch(/^LAST ANSWER, NOT LIVE: the API did not answer this call \(network: /);
      expect((kept.structuredContent as { data: unknown }).data).toEqual(
        (live.structuredContent as { data: unknown }).data,
      );
    } finally {
      await stopping.close().catch(() => {});
    }
  });
});

describe('Redis is never a single point of failure', () => {
  it('killed mid-run: every call is still answered, one warning per replica, then it reconnects by itself', async () => {
    const own = await startRedis();
    const servers = await Promise.all(
      [0, 1].map(() => startHttpServer(['--base-url', api.url, '--redis-url', own.url, '--no-cache'])),
    );
    started.push(...servers);
    const [a, b] = await Promise.all(servers.map((s) => connectHttp(s.url)));
    sessions.push(a!, b!);
    expect((await call(a!, 'get_job', { job_id: activeJob.job_id })).isError).toBeFalsy();
    await own.kill();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 3
          ? call(i % 2 ? a! : b!, 'search_jobs', { per_page: 1 + i })
          : call(i % 2 ? a! : b!, 'get_market_map')
        ).catch((error: unknown) => error),
      ),
    );
    for (const result of results) expect((result as CallToolResult).isError, textOf(result as object)).toBeFalsy();
    for (const server of servers) {
      await expect.poll(() => server.stderr()).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+ is unavailable/);
      expect(server.stderr().match(/is unavailable/g)).toHaveLength(1);
    }
    const back = await startRedis({ port: own.port });
    try {
      for (const server of servers)
        await expect
          .poll(() => server.stderr(), { timeout: 10_000 })
          .toMatch(/is back: the cool-down and the cache are shared again/);
    } finally {
      await back.kill();
    }
  });

  it('slow (stopped, its connection open): no call waits on it longer than 250 ms, and it is said once', async () => {
    const [a] = await replicas(1, ['--no-cache']);
    expect((await call(a!, 'get_job', { job_id: activeJob.job_id })).isError).toBeFalsy();
    redis.process.kill('SIGSTOP');
    try {
      for (const status of ['ready', 'partial', 'missing'])
        expect((await call(a!, 'get_market_map', { status })).isError).toBeFalsy();
    } finally {
      redis.process.kill('SIGCONT');
    }
    expect(started[0]!.stderr().match(/did not answer within 250 ms/g)).toHaveLength(1);
  });

  it('unreachable from the start: the call is answered, and the warning never shows the password', async () => {
    const { port } = await startRedis().then(async (r) => (await r.kill(), r));
    const result = await runCli(
      ['--base-url', api.url, '--redis-url', `redis://:hunter2@127.0.0.1:${port}`, 'call', 'get_market_map'],
      cleanEnv(),
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^FICTIONAL [^\n]*\nGenerated [^\n]+\nMarket map/);
    // The password is hidden twice over: by the Redis module, then by the logger's own redaction.
    expect(result.stderr).toMatch(/Redis at redis:\/\/(?::\*\*\*|\[redacted\])@127\.0\.0\.1:\d+\/? is unavailable/);
    expect(result.stderr).not.toContain('hunter2');
  });

  it('a wrong password is a clear start-up error (exit 2) that never shows the password', async () => {
    const locked = await startRedis({ password: 'right-one' });
    try {
      const result = await runCli(
        ['--base-url', api.url, '--redis-url', `redis://:wrong-one@127.0.0.1:${locked.port}`, 'call', 'get_market_map'],
        cleanEnv(),
      );
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /--redis-url: Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\/? refused the credentials/,
      );
      expect(result.stderr).not.toContain('wrong-one');
      const right = await runCli(
        ['--base-url', api.url, '--redis-url', `redis://:right-one@127.0.0.1:${locked.port}`, 'call', 'get_market_map'],
        cleanEnv(),
      );
      expect(right.code, right.stderr).toBe(0);
      expect(right.stderr).not.toMatch(/unavailable/);
    } finally {
      await locked.kill();
    }
  });

  it('a rediss:// URL connects over TLS (and an untrusted certificate is an outage, not a failed call)', async () => {
    const tls = await startRedis({ tls: true });
    try {
      const trusted = await runCli(
        ['--base-url', api.url, '--redis-url', tls.url, 'call', 'get_market_map'],
        cleanEnv({ NODE_EXTRA_CA_CERTS: tls.caFile! }),
      );
      expect(trusted.code, trusted.stderr).toBe(0);
      expect(trusted.stderr).not.toMatch(/Redis at/);
      const untrusted = await runCli(
        ['--base-url', api.url, '--redis-url', tls.url, 'call', 'get_market_map'],
        cleanEnv(),
      );
      expect(untrusted.code, untrusted.stderr).toBe(0);
      expect(untrusted.stderr).toMatch(
        /Redis at rediss:\/\/127\.0\.0\.1:\d+\/? is unavailable \(self-signed certificate\)/,
      );
    } finally {
      await tls.kill();
    }
  });

  it('a URL that is not redis:// or rediss:// is bad usage, with nothing started', async () => {
    const result = await runCli(
      ['--base-url', api.url, '--redis-url', 'http://127.0.0.1:6379', 'call', 'get_market_map'],
      cleanEnv(),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--redis-url \/ SERVICE_MCP_REDIS_URL: .* must be a redis:\/\/ or rediss:\/\/ URL/);
  });
});
