/**
 * The long-running modes limit V8's heap growth (src/lib/heap-growth.ts), unless the user gave
 * node a value: what each process set is recorded by a hook preloaded into the built binary
 * (record-flags.mjs). That the flags exist on each Node line is shown by the installed tests, whose
 * stderr V8 would tell of an unknown one.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEAP_GROWTH_DELAY_MS } from '../../src/lib/heap-growth.js';
import { cleanEnv, connectStdio } from './helpers.js';
import { startHttpServer } from './http-helpers.js';

const RECORDER = pathToFileURL(fileURLToPath(new URL('./record-flags.mjs', import.meta.url))).href;
const OURS = ['--heap-growing-percent=50', '--semi-space-growth-factor=1'];

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'service-mcp-flags-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const envFor = (name: string) => {
  const file = join(work, `${name}.txt`);
  return { file, env: cleanEnv({ NODE_OPTIONS: `--import=${RECORDER}`, RECORD_FLAGS_FILE: file }) };
};
const flagsIn = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

/** A stdio session that lists the tools and stays past the delay. */
async function stdioSession(name: string): Promise<string[]> {
  const { file, env } = envFor(name);
  const session = await connectStdio(['--offline'], env);
  try {
    expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);
    await sleep(HEAP_GROWTH_DELAY_MS + 500);
  } finally {
    await session.close();
  }
  return flagsIn(file);
}

describe('V8 heap growth in the long-running modes', () => {
  it('stdio sets them once, after the start', async () => {
    expect(await stdioSession('stdio')).toEqual(OURS);
  });

  /** `serve --http`, `nodeArgs` given to node, kept past the delay. */
  async function httpFlags(name: string, nodeArgs: string[] = []): Promise<string[]> {
    const { file, env } = envFor(name);
    const server = await startHttpServer(['--offline'], env, nodeArgs);
    try {
      await sleep(HEAP_GROWTH_DELAY_MS + 500);
    } finally {
      await server.stop();
    }
    return flagsIn(file);
  }

  it('HTTP mode sets them too', async () => {
    expect(await httpFlags('http')).toEqual(OURS);
  });

  it('what the user gave node on its command line is left alone', async () => {
    expect(await httpFlags('user', ['--heap-growing-percent=30', '--max-semi-space-size=64'])).toEqual([]);
  });
});
