/**
 * A fair share for each caller, through two replicas sharing a real Redis: one caller sends ten
 * times its share at once, spread over both replicas; the other's calls all succeed, the first's
 * beyond its share are `rate_limited` results naming the share (one share across replicas), its
 * cache hits are still served, and the upstream, which answers 429 past a cap of its own, never
 * has to. The health tool and the metrics show the shares by name, never a token.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEngine, type OfflineEngine } from '../../src/offline/engine.js';
import { startOfflineServer, type OfflineServer } from '../../src/offline/server.js';
import { closedPort } from './helpers.js';
import { startHttpServer, type HttpServerProcess } from './http-helpers.js';
import { startRedis, type RedisServer } from './redis-helpers.js';

const ALICE = `alice-${randomBytes(16).toString('hex')}`;
const BOB = `bob-${randomBytes(16).toString('hex')}`;
/** The upstream's own limit: past this many requests in all it answers 429. */
const UPSTREAM_CAP = 20;

let redis: RedisServer;
let upstream: OfflineServer;
const statuses: number[] = [];
const replicas: HttpServerProcess[] = [];
let metricsPort: number;

beforeAll(async () => {
  redis = await startRedis();
  const engine = await createOfflineEngine();
  const capped: OfflineEngine = {
    ...engine,
    handle: async (request) => {
      const response =
        statuses.length >= UPSTREAM_CAP
          ? new Response(JSON.stringify({ success: false, error: 'rate_limited' }), {
              status: 429,
              headers: { 'content-type': 'application/json', 'retry-after': '60' },
            })
          : await engine.handle(request);
      statuses.push(response.status);
      return response;
    },
  };
  upstream = await startOfflineServer({ engine: capped });
  const file = join(mkdtempSync(join(tmpdir(), 'service-mcp-share-')), 'tokens');
  writeFileSync(file, `alice:${ALICE}\nbob:${BOB}\n`);
  metricsPort = await closedPort();
  // One a minute, bursts of 3: over a test far shorter than a minute, a share is 3 or 4 requests.
  const args = ['--base-url', upstream.url, '--redis-url', redis.url, '--auth-tokens-file', file];
  args.push('--per-client-rate', '1:3', '--max-retry-wait-s', '0', '--log-level', 'debug');
  replicas.push(
    ...(await Promise.all([startHttpServer([...args, '--metrics-port', String(metricsPort)]), startHttpServer(args)])),
  );
}, 60_000);
afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.stop()));
  await Promise.all([upstream?.close(), redis?.kill()]);
});

async function connect(replica: HttpServerProcess, token: string): Promise<Client> {
  const client = new Client({ name: 'share-e2e', version: '0.0.0' }, { capabilities: {} });
  const headers = { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(replica.url), { requestInit: { headers } }));
  return client;
}

const text = (result: { content?: unknown }) => (result.content as Array<{ text: string }>)[0]!.text;

describe('two replicas sharing Redis', () => {
  it("one caller's flood of ten times its share leaves the other's calls whole, and the upstream is never pushed to 429", async () => {
    const [a1, a2, b1, b2] = await Promise.all([
      connect(replicas[0]!, ALICE),
      connect(replicas[1]!, ALICE),
      connect(replicas[0]!, BOB),
      connect(replicas[1]!, BOB),
    ]);
    // Alice's first page, then 30 more pages at once across both replicas.
    expect((await a1.callTool({ name: 'list_jobs', arguments: { page: 1, per_page: 2 } })).isError).toBeFalsy();
    const flood = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a1 : a2).callTool({ name: 'list_jobs', arguments: { page: i + 2, per_page: 2 } }),
      ),
    );
    const bobs = await Promise.all([
      b1.callTool({ name: 'list_jobs', arguments: { page: 1, per_page: 3 } }),
      b2.callTool({ name: 'get_job', arguments: { job_id: 'job_ai_0001' } }),
      b1.callTool({ name: 'check_api_health', arguments: {} }),
    ]);
    expect(bobs.filter((r) => r.isError).map(text)).toEqual([]);

    const refused = flood.filter((r) => r.isError);
    const served = flood.length - refused.length;
    // One share across the replicas: 3 at once, and at most one refill in under a minute.
    expect(1 + served).toBeGreaterThanOrEqual(3);
    expect(1 + served).toBeLessThanOrEqual(4);
    for (const result of refused)
      expect(text(result)).toMatch(
        /^rate_limited: your share of this server's requests to the API is spent \(1 a minute, bursts of 3, for each caller\); nothing was sent \(retry after \d+ s\)\nHint: Wait \d+ s before calling again; answers already cached are still served, and other callers are not affected\./,
      );
    // A cache hit takes nothing: Alice's first page is served with her share spent.
    const again = await a2.callTool({ name: 'list_jobs', arguments: { page: 1, per_page: 2 } });
    expect(again.isError).toBeFalsy();

    expect(statuses).not.toContain(429);
    expect(statuses.length).toBeLessThan(UPSTREAM_CAP);

    // Bob's health call shows his own share, shared through Redis, with no token in it.
    const health = bobs[2]!.structuredContent as { server: { fair_share: Record<string, unknown> } };
    expect(health.server.fair_share).toMatchObject({ per_minute: 1, burst: 3, shared: true, refused: 0 });
    expect(text(bobs[2]!)).toMatch(
      /Your share of requests to the API: \d of a burst of 3 left, refilled at 1 a minute/,
    );
    await Promise.all([a1, a2, b1, b2].map((client) => client.close()));
  }, 120_000);

  it('the metrics count each caller by name, never by token', async () => {
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(
      /service_mcp_fair_share_requests_total\{[^}]*service_mcp_caller="token:alice"[^}]*outcome="refused"[^}]*\} [1-9]/,
    );
    expect(metrics).toMatch(/service_mcp_fair_share_requests_total\{[^}]*service_mcp_caller="token:bob"/);
    const logs = replicas.map((replica) => replica.stderr()).join('\n');
    for (const secret of [ALICE, BOB]) {
      expect(metrics).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });
});
