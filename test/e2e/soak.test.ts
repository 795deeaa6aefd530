/**
 * A long stdio session, as an editor keeps one open all day, shortened to 2,000 sequential calls:
 * every answer right, and the server's resident memory bounded (VmRSS from /proc, after a warm-up
 * that loads the lazy modules, fills the JIT and opens the keep-alive sockets).
 *
 * The server runs with old space capped at 64 MB and the young generation at 2 MB a semi-space.
 * Uncapped, V8 grows its heap in steps while it has room (the young generation doubles up to
 * 16 MB a semi-space when busy) and RSS climbs in steps with no leak behind it; capped, the
 * collector must reclaim, so what RSS still gains is memory really retained, and a leak would end
 * in an out-of-memory crash. The warm-up is as long as the measured run: RSS settles only after
 * the optimising compiler has seen the hot paths (about 4,000 calls of this mix measured apart).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeJob, company, inactiveJob } from './dataset.js';
import { cleanEnv, connectStdio, startMockApi, textOf, type MockApi, type StdioSession } from './helpers.js';

const CALLS = 2_000;
const WARM_UP = 2_000;
const MAX_GROWTH_MB = 20;

let api: MockApi;
let session: StdioSession;

beforeAll(async () => {
  api = await startMockApi();
  // --no-cache: memory that grows must be a leak, not the cache doing its job.
  session = await connectStdio(
    ['--base-url', api.url, '--no-cache'],
    cleanEnv({ NODE_OPTIONS: '--max-old-space-size=64 --max-semi-space-size=2' }),
  );
});
afterAll(async () => {
  await session?.close();
  await api?.close();
});

/** Resident set size of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

/** The i-th call of a mixed session, with the first line its answer must start with. */
function nth(i: number): { name: string; arguments: Record<string, unknown>; expect: RegExp } {
  const page = (i % 50) + 1;
  switch (i % 10) {
    case 0:
    case 1:
      return {
        name: 'list_jobs',
        arguments: { per_page: 5, page },
        expect: new RegExp(`^FICTIONAL [^\\n]*\\nPage ${page} of `),
      };
    case 2:
    case 3:
      return {
        name: 'search_jobs',
        arguments: { q: 'engineer', per_page: 3, page: (i % 5) + 1 },
        expect: new RegExp(`^FICTIONAL [^\\n]*\\nPage ${(i % 5) + 1} of `),
      };
    case 4:
      return {
        name: 'get_job',
        arguments: { job_id: activeJob.job_id },
        expect: new RegExp(`^FICTIONAL [^\\n]*\\n${activeJob.job_id} `),
      };
    case 5:
      return { name: 'get_job', arguments: { job_id: inactiveJob.job_id }, expect: /^not_found: HTTP 404/ };
    case 6:
      return { name: 'get_market_map', arguments: {}, expect: /^FICTIONAL [^\n]*\nGenerated [^\n]+\nMarket map: / };
    case 7:
      return {
        name: 'get_company_interview_brief',
        arguments: { slug: company.slug },
        expect: /^FICTIONAL [^\n]*\nFreshness: [^\n]+\nInterview brief for /,
      };
    case 8:
      return { name: 'search_jobs', arguments: { per_page: '20' }, expect: /^invalid_argument: per_page: / };
    default:
      return {
        name: i % 20 === 9 ? 'check_api_health' : 'discover_api',
        arguments: {},
        expect: /^FICTIONAL [^\n]*\n(API health: OK|Endpoints \()/,
      };
  }
}

describe('stdio soak', () => {
  it(
    `${CALLS} sequential calls: every answer right, RSS growth under ${MAX_GROWTH_MB} MB`,
    { timeout: 120_000 },
    async () => {
      const pid = session.transport.pid!;
      const failures: string[] = [];
      const run = async (from: number, count: number) => {
        for (let i = from; i < from + count; i++) {
          const call = nth(i);
          const text = textOf(await session.client.callTool({ name: call.name, arguments: call.arguments }));
          if (!call.expect.test(text)) failures.push(`${i} ${call.name}: ${text.split('\n')[0]}`);
        }
      };
      const atConnect = rssMb(pid);
      await run(0, WARM_UP);
      const start = rssMb(pid);
      const started = Date.now();
      await run(WARM_UP, CALLS);
      const end = rssMb(pid);
      console.info(
        `stdio soak: ${CALLS} calls in ${Date.now() - started} ms; RSS ${atConnect.toFixed(1)} MB at connect, ${start.toFixed(1)} MB after ${WARM_UP} warm-up calls, ${end.toFixed(1)} MB at the end (growth ${(end - start).toFixed(1)} MB)`,
      );
      expect(failures).toEqual([]);
      expect(end - start).toBeLessThan(MAX_GROWTH_MB);
    },
  );
});
