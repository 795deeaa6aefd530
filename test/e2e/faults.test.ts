/**
 * Upstream faults end to end: one scenario table, run over stdio and over `serve --http`, each
 * scenario injected into mock-api (real HTTP) and followed by a correct answer from the same
 * process. --no-cache and distinct arguments (page numbers) keep every call a real upstream
 * request, so no cached success or coalesced request can hide a fault.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeJob } from './dataset.js';
import { startMockApi, textOf, type FaultRule, type MockApi } from './helpers.js';
import { hitsOf } from './http-helpers.js';
import { startTarget, TRANSPORTS, type Target } from './targets.js';

const PREFIX = '/api/public/v1';
const JOBS = `${PREFIX}/jobs`;
const SEARCH = `${PREFIX}/search/jobs`;
const MAP = `${PREFIX}/market-map`;
const HEALTH = `${PREFIX}/mcp/health`;
const TIMEOUT_MS = 2_000;
const MAX_RETRY_WAIT_S = 3;

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

interface Context {
  target: Target;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** list_jobs arguments no other call of the run uses (one job per page, a page not asked before). */
  freshPage(): { per_page: number; page: number };
  faults(rules: FaultRule[]): Promise<void>;
  hits(path: string): Promise<number>;
}

interface Scenario {
  name: string;
  run(ctx: Context): Promise<void>;
  /** The call that must come back right afterwards, from the same process. */
  next(ctx: Context): Promise<void>;
}

const isOk = (result: CallToolResult) => expect(result.isError, textOf(result)).toBeFalsy();
const seconds = (text: string) => Number(/asked for a (\d+)s pause/.exec(text)?.[1]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function nextList(ctx: Context) {
  const args = ctx.freshPage();
  const result = await ctx.call('list_jobs', args);
  isOk(result);
  expect(textOf(result)).toMatch(new RegExp(`^FICTIONAL [^\\n]*\\nPage ${args.page} of `));
}

const SCENARIOS: Scenario[] = [
  {
    name: '429 storm: 32 calls inside one Retry-After window send nothing upstream; each gets the result or rate_limited with the seconds left',
    async run(ctx) {
      // Retry-After 5 s, callers may wait 3 s: early callers are refused, later ones wait it out.
      await ctx.faults([{ path: JOBS, kind: 'rate_limit', retryAfter: 5, times: 1 }]);
      const before = await ctx.hits(JOBS);
      const sent = Date.now();
      const trigger = await ctx.call('list_jobs', ctx.freshPage());
      const answered = Date.now();
      expect(textOf(trigger)).toMatch(/^rate_limited: .*5s pause.*\(retry after 5 s\)\nHint: Wait 5 s/);
      expect(await ctx.hits(JOBS)).toBe(before + 1);

      const early = await Promise.all(
        Array.from({ length: 16 }, async () => {
          const dispatched = Date.now();
          const result = await ctx.call('list_jobs', ctx.freshPage());
          return { result, dispatched, returned: Date.now() };
        }),
      );
      for (const { result, dispatched, returned } of early) {
        expect(textOf(result)).toMatch(/^rate_limited: the API asked for a \d+s pause, longer than this call may wait/);
        // The seconds left in the window, whenever inside [dispatched, returned] the server looked.
        expect(seconds(textOf(result))).toBeGreaterThanOrEqual(Math.ceil((sent + 5_000 - returned) / 1_000));
        expect(seconds(textOf(result))).toBeLessThanOrEqual(Math.ceil((answered + 5_000 - dispatched) / 1_000));
      }
      expect(await ctx.hits(JOBS)).toBe(before + 1);

      // 2.5 s left at most: within the 3 s budget, so these wait for the window to end.
      await sleep(answered + 2_500 - Date.now());
      const lateArgs = Array.from({ length: 16 }, () => ctx.freshPage());
      const late = Promise.all(lateArgs.map((args) => ctx.call('list_jobs', args)));
      await sleep(300);
      expect(Date.now()).toBeLessThan(sent + 5_000); // still inside the window
      expect(await ctx.hits(JOBS)).toBe(before + 1);
      const results = await late;
      results.forEach((result, i) => {
        isOk(result);
        expect(textOf(result)).toMatch(new RegExp(`^FICTIONAL [^\\n]*\\nPage ${lateArgs[i]!.page} of `));
      });
      // One request in the window (the 429), then each waiting caller's own once it ended.
      expect(await ctx.hits(JOBS)).toBe(before + 1 + 16);
    },
    next: nextList,
  },
  {
    name: '429 storm over several windows: one upstream request per window, never one per caller',
    async run(ctx) {
      await ctx.faults([{ path: JOBS, kind: 'rate_limit', retryAfter: 1 }]);
      const before = await ctx.hits(JOBS);
      const started = Date.now();
      const trigger = ctx.call('list_jobs', ctx.freshPage());
      await expect.poll(() => ctx.hits(JOBS)).toBe(before + 1);
      const storm = await Promise.all([
        trigger,
        ...Array.from({ length: 32 }, () => ctx.call('list_jobs', ctx.freshPage())),
      ]);
      const elapsed = Date.now() - started;
      for (const result of storm) expect(textOf(result)).toMatch(/^rate_limited: .*\b1s\b/);
      const requests = (await ctx.hits(JOBS)) - before;
      // Each request opens a 1 s window and the next goes only when it ends.
      expect(requests).toBeGreaterThanOrEqual(2);
      expect(requests).toBeLessThanOrEqual(Math.ceil(elapsed / 1_000) + 1);
      await ctx.faults([]);
    },
    next: nextList,
  },
  {
    name: '503 flapping: one or two 503s are retried within the budget and answered; a lasting one is upstream_unavailable',
    async run(ctx) {
      for (const times of [1, 2]) {
        await ctx.faults([{ path: MAP, kind: 'unavailable', times }]);
        const before = await ctx.hits(MAP);
        const result = await ctx.call('get_market_map', {});
        isOk(result);
        expect(textOf(result)).toMatch(/^FICTIONAL [^\n]*\nGenerated [^\n]+\nMarket map: \d+ dimensions/);
        expect(await ctx.hits(MAP)).toBe(before + times + 1);
      }
      await ctx.faults([{ path: MAP, kind: 'unavailable' }]);
      const before = await ctx.hits(MAP);
      const result = await ctx.call('get_market_map', {});
      expect(textOf(result)).toMatch(
        /^upstream_unavailable: HTTP 503 from GET \/api\/public\/v1\/market-map .* after 3 attempts\nHint: /,
      );
      expect(await ctx.hits(MAP)).toBe(before + 3);
    },
    next: async (ctx) => isOk(await ctx.call('get_market_map', { status: 'ready' })),
  },
  {
    name: `hung upstream: timeout within --timeout-ms ${TIMEOUT_MS} plus one second`,
    async run(ctx) {
      await ctx.faults([{ path: JOBS, kind: 'hang' }]);
      const started = Date.now();
      const result = await ctx.call('list_jobs', ctx.freshPage());
      const took = Date.now() - started;
      expect(textOf(result)).toMatch(
        new RegExp(`^timeout: GET /api/public/v1/jobs\\?\\S+ took longer than ${TIMEOUT_MS} ms\\nHint: `),
      );
      expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      // Ended by --timeout-ms, not by the hang (which never ends): 3 s more than the timeout is a
      // margin a loaded 2-core machine keeps for a timer and one stdio round trip.
      expect(took).toBeLessThan(TIMEOUT_MS + 3_000);
    },
    next: nextList,
  },
  {
    name: 'connection reset mid-body: network',
    async run(ctx) {
      await ctx.faults([{ path: JOBS, kind: 'reset' }]);
      const result = await ctx.call('list_jobs', ctx.freshPage());
      expect(textOf(result)).toMatch(
        /^network: GET \/api\/public\/v1\/jobs\?\S+ failed: .+\nHint: The connection to the API failed/,
      );
    },
    next: nextList,
  },
  {
    name: 'malformed and truncated JSON: upstream_contract',
    async run(ctx) {
      for (const kind of ['malformed', 'truncated']) {
        await ctx.faults([{ path: SEARCH, kind }]);
        const result = await ctx.call('search_jobs', ctx.freshPage());
        expect(textOf(result), kind).toMatch(
          /^upstream_contract: GET \/api\/public\/v1\/search\/jobs\?\S+ answered HTTP 200, but the JSON is malformed or truncated\nHint: .*not caused by your arguments/,
        );
      }
    },
    next: async (ctx) => isOk(await ctx.call('search_jobs', ctx.freshPage())),
  },
  {
    name: 'a 200 body that breaks the contract: upstream_contract naming the JSON path',
    async run(ctx) {
      await ctx.faults([
        { path: SEARCH, kind: 'contract' },
        { path: `${JOBS}/*`, kind: 'contract' },
      ]);
      const list = await ctx.call('search_jobs', ctx.freshPage());
      expect(textOf(list)).toMatch(
        /^upstream_contract: GET \/api\/public\/v1\/search\/jobs\?\S+ answered with a body that breaks the API contract at data\.jobs\[0\]\.title: /,
      );
      const detail = await ctx.call('get_job', { job_id: activeJob.job_id });
      expect(textOf(detail)).toMatch(/^upstream_contract: .* breaks the API contract at data\.title: /);
    },
    next: async (ctx) =>
      isOk(await ctx.call('get_job', { job_id: activeJob.job_id, include_predicted_salaries: true })),
  },
  {
    name: 'a body over the size cap: upstream_contract saying reading stopped at the cap',
    async run(ctx) {
      await ctx.faults([{ path: SEARCH, kind: 'oversized' }]);
      const result = await ctx.call('search_jobs', ctx.freshPage());
      expect(textOf(result)).toMatch(
        /^upstream_contract: the response to \/api\/public\/v1\/search\/jobs\?\S+ is more than 8 MB, over the 8 MB cap; reading stopped at the cap and the body was discarded/,
      );
    },
    next: async (ctx) => isOk(await ctx.call('search_jobs', ctx.freshPage())),
  },
  {
    name: 'a health 503: a result saying degraded, with the failing probe, not an error',
    async run(ctx) {
      await ctx.faults([{ path: HEALTH, kind: 'degraded_health' }]);
      const result = await ctx.call('check_api_health', {});
      isOk(result);
      expect(textOf(result)).toMatch(/^FICTIONAL [^\n]*\nAPI health: DEGRADED \(HTTP 503\)/);
      expect(textOf(result)).toMatch(/FAILING: /);
    },
    next: async (ctx) =>
      expect(textOf(await ctx.call('check_api_health', {}))).toMatch(/^FICTIONAL [^\n]*\nAPI health: OK \(HTTP 200\)/),
  },
];

describe.each(TRANSPORTS)('upstream faults over %s', (transport) => {
  let target: Target;
  let page = 0;
  const ctx: Context = {
    get target() {
      return target;
    },
    call: (name, args = {}) => target.client.callTool({ name, arguments: args }) as Promise<CallToolResult>,
    freshPage: () => ({ per_page: 1, page: ++page }),
    faults: (rules) => (rules.length === 0 ? api.clearFaults() : api.setFaults(rules)),
    hits: (path) => hitsOf(api, path),
  };

  beforeAll(async () => {
    target = await startTarget(transport, [
      '--base-url',
      api.url,
      '--no-cache',
      '--timeout-ms',
      String(TIMEOUT_MS),
      '--max-retry-wait-s',
      String(MAX_RETRY_WAIT_S),
      '--log-level',
      'info',
    ]);
  });
  afterAll(async () => {
    await api.clearFaults();
    await target?.close();
  });

  it.each(SCENARIOS.map((s) => [s.name, s] as const))(
    '%s; then the same process answers the next call',
    async (_name, scenario) => {
      try {
        await scenario.run(ctx);
      } finally {
        await api.clearFaults();
      }
      await scenario.next(ctx);
      expect(target.alive()).toBe(true);
    },
  );
});
