/**
 * No memory retained per call, shown with the measure that tells a leak from heap sizing: the heap
 * used after a forced full GC, read at intervals through Node's inspector (wire.ts), over 20,000
 * mixed calls on stdio and 20,000 over HTTP (every tool, cache on and off, errors from the API and
 * from the arguments, and some calls cancelled). RSS cannot say this: V8 grows its heap in steps
 * while it has room, so RSS climbs with no leak behind it.
 *
 * The servers run with --timeout-ms 600000. Memory that a request keeps until its deadline passes
 * (what AbortSignal.timeout inside AbortSignal.any did: about 1.2 KB a request for 15 s) then stays
 * for the whole run, so it counts against the bound however fast or slow this machine runs the
 * calls; with the default 15 s, a slow machine would have let it expire between two readings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company, dataset, inactiveJob } from './dataset.js';
import { cleanEnv, startMockApi, type MockApi } from './helpers.js';
import { startHttpServer, type HttpServerProcess } from './http-helpers.js';
import {
  heapProbe,
  initialize,
  INSPECT,
  lineSession,
  type HeapProbe,
  type LineSession,
  type RpcMessage,
} from './wire.js';

/** Long enough for the lazy modules, the JIT, the keep-alive sockets and the cache to fill. */
const WARM_UP = 2_000;
/** Per server; two servers per transport (cache on and off): 20,000 measured calls on each. */
const MEASURED = Number(process.env.SOAK_CALLS ?? 10_000);
const EVERY = 2_500;
const IN_FLIGHT = 8;
const MAX_GROWTH_MB = 5;
/** One call in this many is cancelled (stdio) or left by its client (HTTP). */
const CANCEL_EVERY = 50;
const SERVER_ARGS = ['--timeout-ms', '600000'];

const activeIds = dataset.jobs.filter((j) => j.active).map((j) => j.job.job_id);
/** 100 jobs: every one is asked for during the warm-up, so a cache on has all its entries by then. */
const jobIds = activeIds.slice(0, 100);
const truncatedJob = activeIds[200]!;
const brokenJob = activeIds[201]!;

/** The i-th call: every tool, repeated arguments, and errors of the API and of the arguments. */
function nth(i: number): { name: string; arguments: Record<string, unknown> } {
  switch (i % 12) {
    case 0:
    case 1:
      return { name: 'get_job', arguments: { job_id: jobIds[(i >> 1) % jobIds.length] } };
    case 2:
      return { name: 'search_jobs', arguments: { q: 'engineer', per_page: 20, page: 1 + (i % 5) } };
    case 3:
      return { name: 'list_jobs', arguments: { per_page: 20, page: 1 + (i % 10) } };
    case 4:
      return { name: 'get_market_map', arguments: {} };
    case 5:
      return { name: 'get_company_interview_brief', arguments: { slug: company.slug } };
    case 6:
      return { name: 'discover_api', arguments: {} };
    case 7:
      return { name: 'check_api_health', arguments: {} };
    case 8:
      return { name: 'get_job', arguments: { job_id: inactiveJob.job_id } }; // not_found
    case 9:
      return { name: 'search_jobs', arguments: { per_page: '20' } }; // invalid_argument, nothing sent
    case 10:
      return { name: 'get_job', arguments: { job_id: i % 24 === 10 ? truncatedJob : brokenJob } }; // upstream_contract
    default:
      return { name: 'list_jobs', arguments: { q: 'ml', per_page: 5 } };
  }
}

interface Subject {
  /** Runs call i; resolves once it is answered (or, for one left by its client, once it has left). */
  call(i: number): Promise<void>;
  probe: HeapProbe;
  problems: string[];
  close(): Promise<unknown>;
}

async function drive(subject: Subject, from: number, count: number): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < from + count) await subject.call(next++);
    }),
  );
}

/** Heap after GC (MB) after the warm-up and every EVERY calls after it. */
async function soak(subject: Subject): Promise<number[]> {
  await drive(subject, 0, WARM_UP);
  const points = [(await subject.probe.heapUsedAfterGc()) / 2 ** 20];
  for (let done = 0; done < MEASURED; done += EVERY) {
    await drive(subject, WARM_UP + done, EVERY);
    points.push((await subject.probe.heapUsedAfterGc()) / 2 ** 20);
  }
  return points;
}

function answerProblem(i: number, answer: RpcMessage | undefined): string | undefined {
  if (!answer?.result) return `call ${i}: ${JSON.stringify(answer?.error ?? 'no answer')}`;
  const text = answer.result.content?.[0]?.text ?? '';
  // Errors are expected on the calls that ask for them; an internal error never is.
  return text.startsWith('internal: ') ? `call ${i}: ${text.split('\n')[0]}` : undefined;
}

async function stdioSubject(api: MockApi, extra: string[]): Promise<Subject & { session: LineSession }> {
  const session = lineSession(['--base-url', api.url, ...SERVER_ARGS, ...extra], { nodeArgs: [INSPECT] });
  await initialize(session);
  const probe = await heapProbe(session.stderr);
  const problems: string[] = [];
  return {
    session,
    probe,
    problems,
    async call(i) {
      const answer = session.request(i, 'tools/call', nth(i));
      if (i % CANCEL_EVERY === CANCEL_EVERY - 1) {
        await new Promise((resolve) => setImmediate(resolve));
        session.send({ method: 'notifications/cancelled', params: { requestId: i, reason: 'soak' } });
        return;
      }
      // A server that died answers nothing more: that is a problem now, not a hang until the test times out.
      const problem = answerProblem(i, await Promise.race([answer, session.exited.then(() => undefined)]));
      if (problem) problems.push(problem);
    },
    close: async () => {
      probe.close();
      session.child.stdin.end();
      return session.exited;
    },
  };
}

async function httpSubject(api: MockApi, extra: string[]): Promise<Subject & { server: HttpServerProcess }> {
  const server = await startHttpServer(
    ['--base-url', api.url, ...SERVER_ARGS, ...extra],
    cleanEnv({ NODE_OPTIONS: INSPECT }),
  );
  const probe = await heapProbe(server.stderr);
  const problems: string[] = [];
  return {
    server,
    probe,
    problems,
    async call(i) {
      const leaving = i % CANCEL_EVERY === CANCEL_EVERY - 1;
      const controller = new AbortController();
      if (leaving) setImmediate(() => controller.abort());
      try {
        const response = await fetch(server.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: nth(i) }),
          signal: controller.signal,
        });
        const line = (await response.text()).split('\n').find((l) => l.replace(/^data: /, '').startsWith('{"'));
        const problem = answerProblem(
          i,
          line === undefined ? undefined : (JSON.parse(line.replace(/^data: /, '')) as RpcMessage),
        );
        if (problem) problems.push(problem);
      } catch (error) {
        if (!leaving) problems.push(`call ${i}: ${(error as Error).message}`);
      }
    },
    close: async () => {
      probe.close();
      return server.stop();
    },
  };
}

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
  await api.setFaults([
    { path: `/api/public/v1/jobs/${truncatedJob}`, kind: 'truncated' },
    { path: `/api/public/v1/jobs/${brokenJob}`, kind: 'contract' },
  ]);
});
afterAll(async () => {
  await api?.close();
});

const report = (name: string, points: number[]) =>
  console.info(
    `heap soak, ${name}: heap after GC ${points.map((p) => p.toFixed(1)).join(' → ')} MB (after ${WARM_UP} warm-up calls, then every ${EVERY}); growth ${(Math.max(...points) - points[0]!).toFixed(2)} MB`,
  );

describe(`heap after a forced GC stays flat after warm-up (growth under ${MAX_GROWTH_MB} MB)`, () => {
  // A wide bound: 24,000 calls take about a minute on an idle 2-core machine.
  it.each([
    ['stdio, cache on', 'stdio', []],
    ['stdio, --no-cache', 'stdio', ['--no-cache']],
    ['HTTP, cache on', 'http', []],
    ['HTTP, --no-cache', 'http', ['--no-cache']],
  ] as const)(
    `${MEASURED} mixed calls after ${WARM_UP} of warm-up: %s`,
    { timeout: 300_000 },
    async (name, transport, extra) => {
      const subject = transport === 'stdio' ? await stdioSubject(api, [...extra]) : await httpSubject(api, [...extra]);
      try {
        const points = await soak(subject);
        report(name, points);
        expect(subject.problems.slice(0, 5)).toEqual([]);
        expect(Math.max(...points) - points[0]!).toBeLessThan(MAX_GROWTH_MB);
      } finally {
        expect(await subject.close()).toBe(0);
      }
    },
  );
});
