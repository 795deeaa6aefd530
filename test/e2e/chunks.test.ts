/**
 * The bundle loads what a session uses and nothing else: the chunks holding OpenTelemetry, undici
 * and @redis/client (found through esbuild's metafile, build/metafile.json) stay unloaded through
 * a whole offline stdio session, every tool called and a view read. What loads is recorded by a
 * loader hook preloaded into the built binary (record-loads.mjs); a live session, which must load
 * undici, shows that the recording sees it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWS } from '../../src/apps/views.js';
import { cleanEnv, connectStdio, ROOT, startMockApi, textOf, type MockApi } from './helpers.js';

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}
const metafile = JSON.parse(readFileSync(join(ROOT, 'build', 'metafile.json'), 'utf8')) as Metafile;
const RECORDER = pathToFileURL(fileURLToPath(new URL('./record-loads.mjs', import.meta.url))).href;

/** The dist/ files whose code includes a file of `pkg` (a name, or a prefix such as `@opentelemetry/`). */
function chunksHolding(pkg: string): Set<string> {
  const pattern = new RegExp(`node_modules/${pkg.replace(/[/.]/g, '\\$&')}${pkg.endsWith('/') ? '' : '/'}`);
  return new Set(
    Object.entries(metafile.outputs)
      .filter(([, output]) => Object.keys(output.inputs).some((input) => pattern.test(input)))
      .map(([path]) => join(ROOT, path)),
  );
}

const OTEL = chunksHolding('@opentelemetry/');
const UNDICI = chunksHolding('undici');
const REDIS = chunksHolding('@redis/client');
const SNAPSHOT = new Set(
  Object.entries(metafile.outputs)
    .filter(([, output]) => 'src/offline/snapshot.json' in output.inputs)
    .map(([path]) => join(ROOT, path)),
);

let work: string;
let api: MockApi;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'service-mcp-loads-'));
  api = await startMockApi();
});
afterAll(async () => {
  await api.close();
  rmSync(work, { recursive: true, force: true });
});

/** The dist/ files a stdio session loaded, the session driven by `drive`. */
async function loadedBy(
  name: string,
  args: string[],
  drive: (session: Awaited<ReturnType<typeof connectStdio>>) => Promise<void>,
) {
  const file = join(work, `${name}.txt`);
  const session = await connectStdio(args, cleanEnv({ NODE_OPTIONS: `--import=${RECORDER}`, RECORD_LOADS_FILE: file }));
  try {
    await drive(session);
  } finally {
    await session.close();
  }
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:'))
      .map((url) => fileURLToPath(url)),
  );
}

const overlap = (loaded: Set<string>, chunks: Set<string>) => [...chunks].filter((chunk) => loaded.has(chunk));

describe('chunks loaded by a session', () => {
  it('the metafile places OpenTelemetry, undici, @redis/client and the snapshot in chunks of their own', () => {
    for (const chunks of [OTEL, UNDICI, REDIS, SNAPSHOT]) expect(chunks.size).toBeGreaterThan(0);
    const cli = join(ROOT, 'dist', 'cli.js');
    for (const chunks of [OTEL, UNDICI, REDIS, SNAPSHOT]) expect(chunks.has(cli)).toBe(false);
  });

  it('a whole offline session (every tool, a view) loads no OpenTelemetry, undici or Redis code', async () => {
    const loaded = await loadedBy('offline', ['--offline'], async ({ client }) => {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      const calls: Array<[string, Record<string, unknown>]> = [
        ['search_jobs', { q: 'engineer', per_page: 2 }],
        ['list_jobs', { per_page: 2 }],
        ['get_job', { job_id: 'job_ai_0001' }],
        ['get_market_map', {}],
        ['get_company_interview_brief', { name: 'Northwind Neural' }],
        ['discover_api', {}],
        ['check_api_health', {}],
      ];
      for (const [name, args] of calls) {
        const result = await client.callTool({ name, arguments: args });
        expect(textOf(result), name).toMatch(/OFFLINE/);
      }
      const view = await client.readResource({ uri: VIEWS.jobList.uri });
      expect(JSON.stringify(view.contents)).toContain('<!doctype html>');
    });
    expect(overlap(loaded, SNAPSHOT).length, 'the offline snapshot was used').toBeGreaterThan(0);
    expect(overlap(loaded, OTEL), 'OpenTelemetry chunks loaded').toEqual([]);
    expect(overlap(loaded, UNDICI), 'undici chunks loaded').toEqual([]);
    expect(overlap(loaded, REDIS), '@redis/client chunks loaded').toEqual([]);
  });

  it('answering tools/list loads neither the snapshot nor undici', async () => {
    const loaded = await loadedBy('list', ['--offline'], async ({ client }) => {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    });
    expect(overlap(loaded, SNAPSHOT)).toEqual([]);
    expect(overlap(loaded, UNDICI)).toEqual([]);
  });

  it('a live session loads undici at its first request (the recording sees it), and still no OpenTelemetry', async () => {
    const loaded = await loadedBy('live', ['--base-url', api.url], async ({ client }) => {
      const result = await client.callTool({ name: 'check_api_health', arguments: {} });
      expect(result.isError).toBeFalsy();
    });
    expect(overlap(loaded, UNDICI).length).toBeGreaterThan(0);
    expect(overlap(loaded, OTEL)).toEqual([]);
    expect(overlap(loaded, REDIS)).toEqual([]);
  });
});
