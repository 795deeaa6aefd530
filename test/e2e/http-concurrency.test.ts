/**
 * `serve --http` under load, and the one thing stateless requests share: the process's API client.
 * 200 tool calls with 32 in flight must all come back right (no crossed answers between the
 * per-request servers), and a 429 seen by one request must hold back every other request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataset } from './dataset.js';
import { startMockApi, textOf, type MockApi } from './helpers.js';
import { connectHttp, hitsOf, startHttpServer, type HttpServerProcess, type HttpSession } from './http-helpers.js';

const TOTAL_CALLS = 200;
const IN_FLIGHT = 32;

let api: MockApi;

beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await api?.close();
});

describe('concurrency', () => {
  let server: HttpServerProcess;
  let sessions: HttpSession[] = [];

  beforeAll(async () => {
    // --no-cache: every call reaches the upstream, so 200 calls really are 200 round trips.
    server = await startHttpServer(['--base-url', api.url, '--no-cache']);
    sessions = await Promise.all(Array.from({ length: IN_FLIGHT }, () => connectHttp(server.url)));
  });
  afterAll(async () => {
    await Promise.all(sessions.map((s) => s.close()));
    await server?.stop();
  });

  it(`${TOTAL_CALLS} tools/call requests, ${IN_FLIGHT} in flight, all answered with their own results`, async () => {
    const active = dataset.jobs.filter((j) => j.active).map((j) => j.job.job_id);
    expect(active.length).toBeGreaterThanOrEqual(TOTAL_CALLS);
    // Mixed calls, all different (so none can share another's upstream request), each answer told
    // apart by its arguments.
    const calls = Array.from({ length: TOTAL_CALLS }, (_, i) =>
      i % 4 === 3 ? { name: 'list_jobs', arguments: { per_page: 1, page: i + 1 }, expect: { page: i + 1 } } : { name: 'get_job', arguments: { job_id: active[i]! }, expect: { job_id: active[i]! } },
    );
    const before = (await api.stats()) as { data: { total: number } };
    let next = 0;
    let peak = 0;
    let running = 0;
    const failures: string[] = [];
    // Each worker is one client: IN_FLIGHT workers keep IN_FLIGHT POSTs open at a time.
    await Promise.all(
      sessions.map(async (session) => {
        for (let i = next++; i < calls.length; i = next++) {
          const call = calls[i]!;
          running++;
          peak = Math.max(peak, running);
          const result = await session.client.callTool({ name: call.name, arguments: call.arguments });
          running--;
          const data = (result.structuredContent as { data: { job_id?: string } & Record<string, unknown>; meta: Record<string, unknown> } | undefined) ?? undefined;
          if (result.isError) failures.push(`${i}: ${textOf(result)}`);
          else if ('job_id' in call.expect && data?.data.job_id !== call.expect.job_id) failures.push(`${i}: got job ${data?.data.job_id}, asked for ${call.expect.job_id}`);
          else if ('page' in call.expect && !textOf(result).startsWith(`Page ${call.expect.page} of `)) failures.push(`${i}: asked for page ${call.expect.page}, got ${textOf(result).split('\n')[0]}`);
        }
      }),
    );
    expect(failures).toEqual([]);
    expect(peak).toBe(IN_FLIGHT);
    const after = (await api.stats()) as { data: { total: number } };
    expect(after.data.total - before.data.total).toBe(TOTAL_CALLS);
  });
});

describe('the Retry-After cool-down is shared by every request of the process', () => {
  it("a 429 on one request keeps another client's request, for another tool and path, from reaching the API", async () => {
    // --max-retry-wait-s 0: nothing waits, so the window shows as rate_limited answers at once.
    const server = await startHttpServer(['--base-url', api.url, '--no-cache', '--max-retry-wait-s', '0']);
    const first = await connectHttp(server.url);
    const second = await connectHttp(server.url);
    try {
      await api.setFaults([{ path: '/api/public/v1/jobs', kind: 'rate_limit', retryAfter: 30, times: 1 }]);
      const jobsBefore = await hitsOf(api, '/api/public/v1/jobs');
      const limited = await first.client.callTool({ name: 'list_jobs', arguments: {} });
      expect(limited.isError).toBe(true);
      expect(textOf(limited)).toMatch(/^rate_limited: .*30s/);
      expect(await hitsOf(api, '/api/public/v1/jobs')).toBe(jobsBefore + 1);

      // Another client, another tool, another path: held back by the same gate, nothing sent.
      const mapBefore = await hitsOf(api, '/api/public/v1/market-map');
      const totalBefore = ((await api.stats()) as { data: { total: number } }).data.total;
      const [other, again] = await Promise.all([second.client.callTool({ name: 'get_market_map', arguments: {} }), first.client.callTool({ name: 'discover_api', arguments: {} })]);
      expect(textOf(other)).toMatch(/^rate_limited: .*(29|30)s/);
      expect(textOf(again)).toMatch(/^rate_limited: /);
      expect(await hitsOf(api, '/api/public/v1/market-map')).toBe(mapBefore);
      expect(((await api.stats()) as { data: { total: number } }).data.total).toBe(totalBefore);
    } finally {
      await api.clearFaults();
      await Promise.all([first.close(), second.close()]);
      await server.stop();
    }
  });
});
