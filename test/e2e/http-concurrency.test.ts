/**
 * `serve --http` under load, and the one thing stateless requests share: the process's API client.
 * 1,000 tool calls with 32 in flight must all come back right (no crossed answers between the
 * per-request servers) while hostile requests (foreign Host and Origin, oversized bodies) are
 * refused and reach nothing; a client that reads its answers slowly must not hold up the others;
 * and a 429 seen by one request must hold back every other request.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataset } from './dataset.js';
import { startMockApi, textOf, type MockApi } from './helpers.js';
import {
  connectHttp,
  hitsOf,
  MCP_POST_HEADERS,
  rawRequest,
  startHttpServer,
  type HttpServerProcess,
  type HttpSession,
} from './http-helpers.js';

/**
 * Each call has 31 others in flight beside it all along, so a crossed answer has a thousand chances
 * to show; the 2,000 this made before cost 6 s more for as many chances again.
 */
const TOTAL_CALLS = 1_000;
const IN_FLIGHT = 32;

interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
  expect: { job_id: string } | { page: number };
}

/**
 * `total` calls, all different (so none can share another's upstream request), mixing get_job,
 * list_jobs and search_jobs, each answer told apart by its arguments.
 */
function distinctCalls(total: number): PlannedCall[] {
  const active = dataset.jobs.filter((j) => j.active).map((j) => j.job.job_id);
  const jobs = active.flatMap((job_id) =>
    [false, true].map((predicted) => ({
      name: 'get_job',
      arguments: { job_id, include_predicted_salaries: predicted },
      expect: { job_id },
    })),
  );
  const pages = (name: string) =>
    Array.from({ length: 10 }, (_, i) => i + 1).flatMap((perPage) =>
      Array.from({ length: Math.floor(active.length / perPage) }, (_, p) => ({
        name,
        arguments: { per_page: perPage, page: p + 1 },
        expect: { page: p + 1 },
      })),
    );
  const sources = [jobs, pages('list_jobs'), pages('search_jobs')];
  const calls: PlannedCall[] = [];
  for (let i = 0; calls.length < total; i++) {
    const source = sources[i % sources.length]!;
    const next = source[Math.floor(i / sources.length)];
    if (next) calls.push(next);
    if (sources.every((s) => Math.floor(i / sources.length) >= s.length))
      throw new Error(`only ${calls.length} distinct calls`);
  }
  return calls;
}

/** A tools/call that would reach the upstream if its refusal failed. */
const HOSTILE_CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_market_map', arguments: {} },
});
const OVERSIZED_CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_market_map', arguments: {}, _meta: { pad: 'x'.repeat(1024 * 1024) } },
});
const POST_HEADERS = { ...MCP_POST_HEADERS, 'mcp-protocol-version': '2025-06-18' };

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

  it(`${TOTAL_CALLS} tools/call requests, ${IN_FLIGHT} in flight, all answered with their own results, while hostile requests are refused`, async () => {
    const calls = distinctCalls(TOTAL_CALLS);
    const before = (await api.stats()) as { data: { total: number; hits: Record<string, number> } };
    // Alongside the load: DNS-rebinding and oversized requests, each a tools/call that would show
    // in the upstream count had it got through.
    let loadDone = false;
    const refusals = { host: 0, origin: 0, declared: 0, chunked: 0 };
    const hostile = (async () => {
      while (!loadDone) {
        const [host, origin, declared, chunked] = await Promise.all([
          rawRequest(server.origin, {
            method: 'POST',
            headers: { ...POST_HEADERS, host: `evil.example.com:${server.port}` },
            body: HOSTILE_CALL,
          }),
          rawRequest(server.origin, {
            method: 'POST',
            headers: { ...POST_HEADERS, origin: 'https://evil.example.com' },
            body: HOSTILE_CALL,
          }),
          rawRequest(server.origin, { method: 'POST', headers: POST_HEADERS, body: OVERSIZED_CALL }),
          rawRequest(server.origin, { method: 'POST', headers: POST_HEADERS, body: OVERSIZED_CALL, chunked: true }),
        ]);
        expect([host.status, origin.status, declared.status, chunked.status]).toEqual([403, 403, 413, 413]);
        refusals.host++;
        refusals.origin++;
        refusals.declared++;
        refusals.chunked++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
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
          const data =
            (result.structuredContent as
              { data: { job_id?: string } & Record<string, unknown>; meta: Record<string, unknown> } | undefined) ??
            undefined;
          if (result.isError) failures.push(`${i}: ${textOf(result)}`);
          else if ('job_id' in call.expect && data?.data.job_id !== call.expect.job_id)
            failures.push(`${i}: got job ${data?.data.job_id}, asked for ${call.expect.job_id}`);
          else if ('page' in call.expect && !textOf(result).includes(`\nPage ${call.expect.page} of `))
            failures.push(`${i}: asked for page ${call.expect.page}, got ${textOf(result).split('\n')[0]}`);
        }
      }),
    );
    loadDone = true;
    await hostile;
    expect(failures).toEqual([]);
    expect(peak).toBe(IN_FLIGHT);
    expect(refusals.host).toBeGreaterThan(3);
    const after = (await api.stats()) as { data: { total: number; hits: Record<string, number> } };
    // Every valid call made its one upstream request, and no refused one made any; besides them,
    // only the catalog check's reads of discovery (none of the calls is discover_api).
    const catalogReads = (after.data.hits['/api/public/v1'] ?? 0) - (before.data.hits['/api/public/v1'] ?? 0);
    expect(catalogReads).toBeLessThanOrEqual(2);
    expect(after.data.total - before.data.total - catalogReads).toBe(TOTAL_CALLS);
    expect(server.process.exitCode).toBeNull();
  });

  it('a client that stops reading its answers does not hold up the others', async () => {
    const calls = distinctCalls(TOTAL_CALLS + 400).slice(TOTAL_CALLS); // none asked before: real upstream requests
    // Each session one call at a time: IN_FLIGHT at once, within --max-in-flight.
    const runBatch = async (batch: PlannedCall[]) => {
      let next = 0;
      await Promise.all(
        sessions.map(async (session) => {
          for (let i = next++; i < batch.length; i = next++) {
            const result = await session.client.callTool({ name: batch[i]!.name, arguments: batch[i]!.arguments });
            expect(result.isError, textOf(result)).toBeFalsy();
          }
        }),
      );
    };
    await runBatch(calls.slice(0, 200));
    // Eight clients each ask for a full 100-job page (~170 KB; the snapshot lists 328 jobs, so pages
    // 1 to 3) and read nothing past the first chunk, so the server's writes to them back up.
    const pageOf = (i: number) => (i % 3) + 1;
    const slow = await Promise.all(Array.from({ length: 8 }, (_, i) => stalledCall(server, 100, pageOf(i))));
    // Told by order, not by a time ratio a busy machine skews: the stalled clients read nothing
    // until this batch is done, so a server they held up would never finish it.
    await runBatch(calls.slice(200, 400));
    // Once they read again (slowly), each gets its whole answer.
    const bodies = await Promise.all(slow.map((s) => s.readSlowly()));
    bodies.forEach((body, i) =>
      expect(body).toMatch(
        new RegExp(`"text":"FICTIONAL [^"]*?\\\\nPage ${pageOf(i)} of \\d+, \\d+ total \\(jobs \\d+–\\d+\\)`),
      ),
    );
  });
});

/** A tools/call whose answer this client pauses after the first chunk; readSlowly drains it 16 KB at a time. */
function stalledCall(
  server: HttpServerProcess,
  perPage: number,
  page: number,
): Promise<{ readSlowly(): Promise<string> }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: page,
    method: 'tools/call',
    params: { name: 'search_jobs', arguments: { per_page: perPage, page } },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: '/mcp',
        headers: { ...POST_HEADERS, 'content-length': String(Buffer.byteLength(body)) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.once('data', (first: Buffer) => {
          chunks.push(first);
          res.pause();
          resolve({
            readSlowly: () =>
              new Promise((done) => {
                res.on('data', (chunk: Buffer) => {
                  chunks.push(chunk);
                  res.pause();
                  setTimeout(() => res.resume(), 10);
                });
                res.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
                res.resume();
              }),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

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
      const [other, again] = await Promise.all([
        second.client.callTool({ name: 'get_market_map', arguments: {} }),
        first.client.callTool({ name: 'discover_api', arguments: {} }),
      ]);
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
