/**
 * Randomized concurrency, as clients really behave: calls of every tool in flight together with
 * repeated arguments (so identical upstream requests are shared), mock-api answering with delays,
 * errors, resets, 429s and 503s that change as the run goes, and cancellations at random moments:
 * written in the same chunk as the call (before anything is sent), on the next turn, a few
 * milliseconds in (waiting at the Retry-After gate, on the catalog read, or mid-body), and after
 * the answer. The server must stay up, and every call not cancelled gets exactly one answer,
 * matched by JSON-RPC id on parsed lines; a cancelled call gets at most one.
 *
 * The seed is printed; FUZZ_SEED=<seed> replays a run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeJob, company, dataset, inactiveJob } from './dataset.js';
import { cleanEnv, startMockApi, type FaultRule, type MockApi } from './helpers.js';
import { startHttpServer } from './http-helpers.js';
import { initialize, lineSession, seeded, type LineSession, type RequestId, type RpcMessage } from './wire.js';

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
/**
 * Sessions against mock-api (the cache on, then off), then one --offline. Every kind of session,
 * cancellation and fault is in each run; what a run buys is chances at a rare interleaving, and
 * each run draws a new seed, so CI's runs add up. 600 operations a session and 1,000 over HTTP,
 * with the faults changed every 100, give 28 fault sets and about 950 calls cancelled or left
 * before their answer a run; the 8,000 operations this ran before (40 fault sets) cost 50 s of
 * every suite run.
 */
const STDIO_SESSIONS = 2;
const STDIO_OPS_PER_SESSION = 600;
const HTTP_OPS = 1_000;
const IN_FLIGHT = 16;
/** A new random set of faults every this many operations. */
const FAULTS_EVERY = 100;
/**
 * How long one call may take to be answered. The slowest honest answer is a 1 s Retry-After wait
 * plus three attempts of at most --timeout-ms 3 s each with their backoff: about 12 s. 60 s is five
 * times that, for a 2-core machine busy with other work; a lost answer waits for it and fails.
 */
const ANSWER_BOUND_MS = 60_000;
const SERVER_ARGS = ['--timeout-ms', '3000', '--max-retry-wait-s', '2'];

const PATHS = [
  '/api/public/v1',
  '/api/public/v1/jobs',
  '/api/public/v1/jobs/*',
  '/api/public/v1/search/jobs',
  '/api/public/v1/market-map',
  '/api/public/v1/interview/company',
  '/api/public/v1/mcp/health',
];
const FAILURES = [
  'rate_limit',
  'unavailable',
  'unavailable',
  'reset',
  'truncated',
  'malformed',
  'contract',
  'degraded_health',
  'hang',
  'oversized',
] as const;
const JOB_IDS = [activeJob.job_id, inactiveJob.job_id, 'job_missing_0001', dataset.jobs[1]!.job.job_id];

type Rng = ReturnType<typeof seeded>;

/** A call of one of the seven tools, from a small set of arguments so that identical calls overlap. */
function randomCall(rng: Rng): { name: string; arguments: Record<string, unknown> } {
  switch (rng.int(10)) {
    case 0:
      return { name: 'search_jobs', arguments: { q: rng.pick(['engineer', 'ml']), per_page: 5 } };
    case 1:
      return { name: 'search_jobs', arguments: { per_page: rng.pick([100, 500]) } }; // a large body, or refused before sending
    case 2:
      return { name: 'list_jobs', arguments: { per_page: 5, page: 1 + rng.int(2) } };
    case 3:
    case 4:
      return { name: 'get_job', arguments: { job_id: rng.pick(JOB_IDS) } };
    case 5:
      return { name: 'get_market_map', arguments: {} };
    case 6:
      return { name: 'get_company_interview_brief', arguments: { slug: company.slug } };
    case 7:
      return { name: 'discover_api', arguments: {} };
    case 8:
      return { name: 'check_api_health', arguments: {} };
    default:
      return { name: 'get_job', arguments: { job_id: '' } }; // refused by the client before sending
  }
}

/** Delays first (each lets the next matching rule decide the answer), then a few failures, each used up after a few requests. */
function randomFaults(rng: Rng, catalogDelay: boolean): FaultRule[] {
  const rules: FaultRule[] = [];
  if (catalogDelay) rules.push({ path: '/api/public/v1', kind: 'delay', delayMs: 30 + rng.int(50) });
  if (rng.chance(0.8)) rules.push({ path: '*', kind: 'delay', delayMs: rng.int(25) });
  for (let i = rng.int(5); i > 0; i--) {
    const kind = rng.pick(FAILURES);
    rules.push({
      path: rng.pick(PATHS),
      kind,
      times: 1 + rng.int(3),
      ...(kind === 'rate_limit' ? { retryAfter: 1 } : {}),
    });
  }
  return rules;
}

type Cancel = 'none' | 'with-the-call' | 'next-turn' | 'after-ms' | 'after-the-answer';
const CANCELS: readonly Cancel[] = [
  'none',
  'none',
  'none',
  'none',
  'none',
  'with-the-call',
  'next-turn',
  'after-ms',
  'after-ms',
  'after-the-answer',
];

interface Tally {
  sent: Set<RequestId>;
  /** Calls whose cancellation went out before their answer was seen: these may get no answer. */
  cancelled: Set<RequestId>;
  /** Calls not cancelled that got no answer within ANSWER_BOUND_MS (or before the process exited). */
  unanswered: RequestId[];
}

/** Resolves with the answer, or undefined if the process exits or the bound passes first. */
function answerOrGiveUp(answer: Promise<RpcMessage>, exited: Promise<unknown>): Promise<RpcMessage | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ANSWER_BOUND_MS)));
  return Promise.race([answer, exited.then(() => undefined), bound]).finally(() => clearTimeout(timer));
}

/** Against mock-api, alternately with the cache on and off; the last session is --offline (the in-process API, no faults). */
function sessionArgs(api: MockApi, index: number): string[] {
  if (index === STDIO_SESSIONS) return ['--offline', ...SERVER_ARGS];
  return ['--base-url', api.url, ...SERVER_ARGS, ...(index % 2 === 1 ? ['--no-cache'] : [])];
}

async function stdioSession(api: MockApi, rng: Rng, index: number, tally: Tally): Promise<LineSession> {
  const session = lineSession(sessionArgs(api, index), { env: cleanEnv() });
  // Faults from the first call: the first calls wait on the catalog read, some behind a delay.
  await api.setFaults(randomFaults(rng, true));
  await initialize(session, `init-${index}`);
  let next = 0;
  const worker = async () => {
    while (next < STDIO_OPS_PER_SESSION && session.exitCode() === undefined) {
      const op = next++;
      if (op > 0 && op % FAULTS_EVERY === 0) await api.setFaults(randomFaults(rng, rng.chance(0.3)));
      const id = `s${index}-${op}`;
      const cancelLine = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'fuzz' } })}\n`;
      const cancel = rng.pick(CANCELS);
      tally.sent.add(id);
      const answered = session.request(id, 'tools/call', randomCall(rng));
      // A cancellation "with the call" is written right behind it, before the event loop turns,
      // so the server reads both in one chunk: the call is cancelled before anything is sent.
      if (cancel === 'with-the-call') {
        tally.cancelled.add(id);
        session.child.stdin.write(cancelLine);
        continue;
      }
      if (cancel === 'next-turn' || cancel === 'after-ms') {
        await new Promise((resolve) =>
          cancel === 'next-turn' ? setImmediate(resolve) : setTimeout(resolve, rng.int(40)),
        );
        if (session.answersTo(id).length === 0) {
          tally.cancelled.add(id);
          session.child.stdin.write(cancelLine);
          continue;
        }
      }
      const answer = await answerOrGiveUp(answered, session.exited);
      if (!answer) tally.unanswered.push(id);
      else if (cancel === 'after-the-answer') session.child.stdin.write(cancelLine);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return session;
}

/** Every id answered was sent; none more than once; every call not cancelled exactly once. */
function checkAnswers(counts: Map<RequestId | null, number>, tally: Tally): string[] {
  const problems: string[] = [];
  for (const [id, count] of counts) {
    if (id === null || String(id).startsWith('init')) continue;
    if (!tally.sent.has(id)) problems.push(`an answer to ${String(id)}, which was never sent`);
    if (count > 1) problems.push(`${count} answers to ${String(id)}`);
  }
  for (const id of tally.sent)
    if (!tally.cancelled.has(id) && (counts.get(id) ?? 0) !== 1)
      problems.push(`${counts.get(id) ?? 0} answers to ${String(id)}, not cancelled`);
  return problems;
}

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await api?.close();
});

describe(`cancellations at random moments among concurrent calls (seed ${SEED})`, () => {
  it(
    `over stdio: ${STDIO_SESSIONS * STDIO_OPS_PER_SESSION} operations against mock-api in ${STDIO_SESSIONS} sessions and ${STDIO_OPS_PER_SESSION} --offline, the server stays up and every call not cancelled gets exactly one answer`,
    { timeout: 300_000 },
    async () => {
      console.info(`cancellation fuzz over stdio: seed ${SEED} (replay with FUZZ_SEED=${SEED})`);
      const rng = seeded(SEED);
      for (let index = 0; index <= STDIO_SESSIONS; index++) {
        const tally: Tally = { sent: new Set(), cancelled: new Set(), unanswered: [] };
        const session = await stdioSession(api, rng, index, tally);
        try {
          expect({ session: index, exitCode: session.exitCode(), stderr: session.stderr().slice(-1500) }).toEqual({
            session: index,
            exitCode: undefined,
            stderr: expect.not.stringMatching(/Unhandled|RequestEnded|TypeError/),
          });
          expect(tally.unanswered).toEqual([]);
          // The end of input: answers still running are delivered, then the process exits cleanly.
          session.child.stdin.end();
          expect(await session.exited).toBe(0);
          expect(checkAnswers(session.answerCounts(), tally)).toEqual([]);
          console.info(
            `session ${index}: ${tally.sent.size} calls, ${tally.cancelled.size} cancelled, ${[...session.answerCounts().values()].reduce((a, b) => a + b, 0)} answers`,
          );
        } finally {
          if (session.exitCode() === undefined) session.child.kill();
        }
      }
    },
  );

  it(
    `over HTTP (serve --http): ${HTTP_OPS} operations, clients leaving at random moments; the server stays up and every request kept gets exactly one answer`,
    { timeout: 300_000 },
    async () => {
      console.info(`cancellation fuzz over HTTP: seed ${SEED} (replay with FUZZ_SEED=${SEED})`);
      const rng = seeded(SEED ^ 0x5bd1e995);
      const server = await startHttpServer(['--base-url', api.url, ...SERVER_ARGS]);
      try {
        await api.setFaults(randomFaults(rng, true));
        const problems: string[] = [];
        let left = 0;
        let next = 0;
        const worker = async () => {
          while (next < HTTP_OPS && server.process.exitCode === null) {
            const op = next++;
            if (op > 0 && op % FAULTS_EVERY === 0) await api.setFaults(randomFaults(rng, rng.chance(0.3)));
            const id = `h${op}`;
            const leaving = rng.pick(CANCELS) !== 'none' && rng.chance(0.8);
            const controller = new AbortController();
            const timer = leaving ? setTimeout(() => controller.abort(), rng.int(40)) : undefined;
            try {
              const response = await fetch(server.url, {
                method: 'POST',
                headers: {
                  'content-type': 'application/json',
                  accept: 'application/json, text/event-stream',
                  'mcp-protocol-version': '2025-11-25',
                },
                body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: randomCall(rng) }),
                signal: AbortSignal.any([controller.signal, AbortSignal.timeout(ANSWER_BOUND_MS)]),
              });
              const text = await response.text();
              const messages = text
                .split('\n')
                .map((line) => line.replace(/^data: /, ''))
                .filter((line) => line.startsWith('{'))
                .map((line) => JSON.parse(line) as RpcMessage)
                .filter((message) => message.result !== undefined || message.error !== undefined);
              if (messages.length !== 1 || messages[0]!.id !== id)
                problems.push(`${id}: HTTP ${response.status}, ${messages.length} answers (${text.slice(0, 200)})`);
            } catch (error) {
              if (controller.signal.aborted) left++;
              else problems.push(`${id}: ${(error as Error).message}`);
            } finally {
              clearTimeout(timer);
            }
          }
        };
        await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
        console.info(`HTTP: ${HTTP_OPS} requests, ${left} left by their client before the answer`);
        expect({ exitCode: server.process.exitCode, stderr: server.stderr().slice(-1500) }).toEqual({
          exitCode: null,
          stderr: expect.not.stringMatching(/Unhandled|RequestEnded|TypeError/),
        });
        expect(problems).toEqual([]);
      } finally {
        await api.clearFaults();
        expect(await server.stop()).toBe(0);
      }
    },
  );
});
