/**
 * The stdio server limits V8's heap growth (src/lib/heap-growth.ts), unless the user gave node a
 * value; HTTP mode leaves V8's own sizing: what each process set is recorded by a hook preloaded
 * into the built binary (record-flags.mjs). That the flags exist on each Node line is shown by the
 * installed tests, whose stderr V8 would tell of an unknown one.
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
const OURS = ['--heap-growing-percent=100', '--semi-space-growth-factor=1'];

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'service-mcp-flags-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const envFor = (name: string, nodeOptions = '') => {
  const file = join(work, `${name}.txt`);
  return {
    file,
    env: cleanEnv({ NODE_OPTIONS: `${nodeOptions} --import=${RECORDER}`.trim(), RECORD_FLAGS_FILE: file }),
  };
};
const flagsIn = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

/** A stdio session that lists the tools and stays past the delay. */
async function stdioSession(name: string, nodeOptions?: string): Promise<string[]> {
  const { file, env } = envFor(name, nodeOptions);
  const session = await connectStdio(['--offline'], env);
  try {
    expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);
    await sleep(HEAP_GROWTH_DELAY_MS + 500);
  } finally {
    await session.close();
  }
  return flagsIn(file);
}

describe('V8 heap growth', () => {
  it('stdio sets both flags once, after the start', async () => {
    expect(await stdioSession('stdio')).toEqual(OURS);
  });

  it('stdio leaves what the user sized in NODE_OPTIONS', async () => {
    expect(await stdioSession('user', '--max-semi-space-size=64')).toEqual([OURS[0]]);
  });

  it("HTTP mode, one process for many clients, keeps V8's own sizing", async () => {
    const { file, env } = envFor('http');
    const server = await startHttpServer(['--offline'], env);
    try {
      await sleep(HEAP_GROWTH_DELAY_MS + 500);
    } finally {
      await server.stop();
    }
    expect(flagsIn(file)).toEqual([]);
  });
});
