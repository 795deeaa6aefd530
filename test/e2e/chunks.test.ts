/**
 * The bundle loads what a session uses and nothing else: the chunks holding OpenTelemetry, undici
 * and @redis/client (bundled.ts reads which from esbuild's metafile) stay unloaded through a whole
 * offline stdio session, every tool called and a view read; tools/list alone loads not even the
 * offline snapshot, nor, with the bridge on, the SDK's client (the build read the offline hosted list). What loads is recorded by a loader hook preloaded into the built binary
 * (record-loads.mjs); a live session, which must load undici, shows that the recording sees it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/contract/tool-names.js';
import { VIEWS } from '../../src/contract/views.js';
import { MARKET_TOOLS } from './dataset.js';
import { chunkContents, packagesLoaded } from './bundled.js';
import { connectStdio, recording, ROOT, startMockApi, textOf, type MockApi } from './helpers.js';

const SNAPSHOT = 'src/offline/snapshot.json';
/** What a session must load only when it uses it. */
const HEAVY = /^(?:@opentelemetry\/|undici$|@redis\/client$)/;

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await api.close();
});

/**
 * Built-ins a start does not use, which are not to be loaded by one (src/lib/builtins.ts,
 * scripts/lazy-builtins.ts): before, they and what they load were 39 built-in modules and bindings, and about 5 ms.
 */
const LAZY_BUILTINS = ['node:crypto', 'node:child_process', 'node:util', 'node:worker_threads'];

/**
 * What a stdio session driven by `drive` loaded: packages and our source files, per the metafile,
 * and the built-ins it imported (`node:…`; one taken by process.getBuiltinModule passes no hook).
 */
async function loadedBy(
  args: string[],
  drive: (session: Awaited<ReturnType<typeof connectStdio>>) => Promise<void>,
  env: Record<string, string> = {},
): Promise<string[]> {
  const loads = recording('record-loads.mjs', 'RECORD_LOADS_FILE');
  const session = await connectStdio(args, loads.env(env));
  try {
    await drive(session);
  } finally {
    await session.close();
  }
  const urls = loads.lines();
  return [
    ...packagesLoaded(urls.filter((url) => url.startsWith('file:'))),
    ...urls.filter((url) => url.startsWith('node:')),
  ];
}

describe('chunks loaded by a session', () => {
  it('the metafile places OpenTelemetry, undici, @redis/client and the snapshot outside dist/cli.js', () => {
    const cli = chunkContents().get(join(ROOT, 'dist', 'cli.js'))!;
    expect(cli.has('src/app/cli.ts')).toBe(true);
    expect([...cli].filter((name) => HEAVY.test(name) || name === SNAPSHOT)).toEqual([]);
  });

  it('a whole offline session (every tool, a view) loads no OpenTelemetry, undici or Redis code', async () => {
    const loaded = await loadedBy(['--offline'], async ({ client }) => {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      const calls: Array<[string, Record<string, unknown>]> = [
        ['search_jobs', { q: 'engineer', per_page: 2 }],
        ['list_jobs', { per_page: 2 }],
        ['get_job', { job_id: 'job_ai_0001' }],
        ['get_market_map', {}],
        ['get_company_interview_brief', { name: 'Northwind Neural' }],
        ['discover_api', {}],
        ['check_api_health', {}],
      ];
      for (const [tool, args] of calls)
        expect(textOf(await client.callTool({ name: tool, arguments: args })), tool).toMatch(/^FICTIONAL sample data/);
      const view = await client.readResource({ uri: VIEWS.jobList.uri });
      expect(JSON.stringify(view.contents)).toContain('<!doctype html>');
    });
    expect(loaded, 'the offline snapshot was used').toContain(SNAPSHOT);
    expect(loaded.filter((name) => HEAVY.test(name))).toEqual([]);
  });

  it('answering tools/list loads neither the snapshot nor undici, nor, with the bridge off, the SDK client, nor the built-ins a start does not use', async () => {
    const loaded = await loadedBy(['--offline'], async ({ client }) => {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    });
    expect(loaded).toContain('@modelcontextprotocol/server');
    expect(loaded, 'the recording sees built-ins').toContain('node:events');
    expect(loaded.filter((name) => LAZY_BUILTINS.includes(name))).toEqual([]);
    expect(loaded.filter((name) => HEAVY.test(name) || name === SNAPSHOT)).toEqual([]);
    expect(loaded).not.toContain('@modelcontextprotocol/client');
  });

  it('offline with the defaults (the bridge on), tools/list names the bridged tools and loads no more: the build read their list', async () => {
    const loaded = await loadedBy(
      ['--offline'],
      async ({ client }) => {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES, ...MARKET_TOOLS]);
      },
      { SERVICE_MCP_NO_BRIDGE: '0' },
    );
    expect(loaded.filter((name) => HEAVY.test(name) || name === SNAPSHOT)).toEqual([]);
    expect(loaded).not.toContain('@modelcontextprotocol/client');
  });

  it('a live session loads undici at its first request (the recording sees it), and still no OpenTelemetry or Redis', async () => {
    const loaded = await loadedBy(['--base-url', api.url], async ({ client }) => {
      expect((await client.callTool({ name: 'check_api_health', arguments: {} })).isError).toBeFalsy();
    });
    expect(loaded.filter((name) => HEAVY.test(name))).toEqual(['undici']);
  });
});
