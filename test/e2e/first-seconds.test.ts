/**
 * The first seconds with the defaults, as the built binary lives them against mock-api: the hosted
 * list an earlier run kept is offered by the first tools/list, its age said by check_api_health,
 * and read again behind it when it is due; a client is told when the bridged tools change (a 2025
 * client by notifications/tools/list_changed, a 2026-07-28 one by the list's ttlMs, 0 while an
 * overdue read is under way). Counted and polled, never timed (catalog.test.ts: the catalog read at
 * start, which leaves a first call one request).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/contract/tool-names.js';
import { bridgedNames, names } from './bridged-names.js';
import { MARKET_TOOLS } from './dataset.js';
import {
  cleanEnv,
  connectStdio,
  freshCacheHome,
  keptListIn,
  startMockApi,
  textOf,
  type MockApi,
  type StdioSession,
} from './helpers.js';

const HOSTED_PATH = '/api/public/v1/mcp';
const HOUR_MS = 3_600_000;

let api: MockApi;
const sessions: StdioSession[] = [];
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await Promise.all(sessions.map((session) => session.close().catch(() => {})));
  await api?.close();
});

async function stdio(env: Record<string, string>, era: 'modern' | 'legacy' = 'legacy') {
  const session = await connectStdio(['--base-url', api.url, '--no-cache', '--timeout-ms', '4000'], env, {
    capabilities: {},
    ...(era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
  });
  sessions.push(session);
  return session.client;
}

/** A cache directory holding the list a first run read and kept, and the kept file's path. */
async function keptByAFirstRun() {
  const env = cleanEnv({ SERVICE_MCP_NO_BRIDGE: '0', XDG_CACHE_HOME: freshCacheHome() });
  const first = await stdio(env);
  expect(await bridgedNames(first)).toEqual([...TOOL_NAMES, ...MARKET_TOOLS]);
  const file = await keptListIn(env.XDG_CACHE_HOME!);
  await first.close();
  return { env, file };
}

/** Rewrites the kept list: read `ageMs` ago, with only the tools `keep` names. */
function rewrite(file: string, ageMs: number, keep: readonly string[]): string {
  const kept = JSON.parse(readFileSync(file, 'utf8')) as { at: number; tools: Array<{ name: string }> };
  const at = Date.now() - ageMs;
  writeFileSync(file, JSON.stringify({ ...kept, at, tools: kept.tools.filter((tool) => keep.includes(tool.name)) }));
  return new Date(at).toISOString();
}

const health = async (client: Awaited<ReturnType<typeof stdio>>) =>
  (await client.callTool({ name: 'check_api_health', arguments: {} })) as CallToolResult;
const bridgeOf = (result: CallToolResult) =>
  (result.structuredContent as { server: { bridge: Record<string, unknown> } }).server.bridge;

describe('the hosted list kept between runs', () => {
  it('is offered by the first tools/list of the next run, and health says who read it and when', async () => {
    const { env, file } = await keptByAFirstRun();
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(kept).toMatchObject({ endpoint: `${api.url}${HOSTED_PATH}?surface=market`, at: expect.any(Number) });
    const readAt = new Date(kept.at as number).toISOString();
    // The surface hangs now: what the second run offers at once can only come from the file.
    await api.setFaults([{ path: HOSTED_PATH, kind: 'hang' }]);
    try {
      const second = await stdio(env);
      expect(await names(second)).toEqual([...TOOL_NAMES, ...MARKET_TOOLS]);
      const result = await health(second);
      expect(bridgeOf(result)).toMatchObject({ state: 'ready', list_from: 'earlier_run', read_at: readAt });
      expect(textOf(result)).toContain(
        `- Hosted tools: 3 bridged from "${api.url}${HOSTED_PATH}?surface=market" (modern era), read at ${readAt} by an earlier run, kept in the user's cache directory: ${MARKET_TOOLS.join(', ')}.`,
      );
    } finally {
      await api.clearFaults();
    }
  });

  it('is read again behind the first list when due, and a 2025 client is told of the change', async () => {
    const { env, file } = await keptByAFirstRun();
    rewrite(file, HOUR_MS, ['get_company_funding']);
    // The read behind is held 5 s at the surface, so that it ends after the first list (which takes
    // milliseconds: a margin a loaded machine keeps); then the surface lists all three.
    await api.setFaults([{ path: HOSTED_PATH, kind: 'delay', delayMs: 5_000, times: 1 }]);
    let changed = 0;
    const session = await connectStdio(['--base-url', api.url, '--no-cache'], env, { capabilities: {} });
    sessions.push(session);
    session.client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    expect(await names(session.client)).toEqual([...TOOL_NAMES, 'get_company_funding']);
    while (changed === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await names(session.client)).toEqual([...TOOL_NAMES, ...MARKET_TOOLS]);
    expect(bridgeOf(await health(session.client))).toMatchObject({ state: 'ready', list_from: 'surface' });
    await api.clearFaults();
  });

  it('tells a 2026-07-28 client to list again (ttlMs 0) while an overdue read is under way, and how long it holds after', async () => {
    const { env, file } = await keptByAFirstRun();
    const readAt = rewrite(file, HOUR_MS, MARKET_TOOLS);
    await api.setFaults([{ path: HOSTED_PATH, kind: 'hang' }]);
    try {
      const client = await stdio(env, 'modern');
      console.error('A');
      const first = await client.listTools();
      console.error('B', JSON.stringify(first).slice(0, 100), first.ttlMs);
      expect(first.tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES, ...MARKET_TOOLS]);
      expect(first).toMatchObject({ ttlMs: 0, cacheScope: 'public' });
      // The read hangs until its deadline (--timeout-ms 4000, which the first list comes well within);
      // the kept tools stay offered, and the
      // list holds until the next try (polled: the state, not the clock).
      let bridge = bridgeOf(await health(client));
      while (bridge.state !== 'failed') {
        bridge = bridgeOf(await health(client));
        console.error('C', bridge.state);
      }
      expect(bridge).toMatchObject({ list_from: 'earlier_run', read_at: readAt, bridged: MARKET_TOOLS });
      const after = await client.listTools();
      expect(after.ttlMs).toBeGreaterThan(0);
      expect(after.ttlMs).toBeLessThanOrEqual(30_000);
    } finally {
      await api.clearFaults();
    }
  });
});
