/**
 * The stdio server limits V8's heap growth (src/lib/heap-growth.ts), unless the user gave node a
 * value; HTTP mode leaves V8's own sizing: what each process set is recorded by a hook preloaded
 * into the built binary (record-flags.mjs). That the flags exist on each Node line is shown by the
 * installed tests, whose stderr V8 would tell of an unknown one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWTH_DELAY_MS } from '../../src/lib/heap-growth.js';
import { connectStdio, recording } from './helpers.js';
import { startHttpServer } from './http-helpers.js';

const OURS = ['--heap-growing-percent=100', '--semi-space-growth-factor=1'];
const flagsSet = (nodeOptions?: string) => recording('record-flags.mjs', 'RECORD_FLAGS_FILE', nodeOptions);

/** A stdio session that lists the tools and stays past the delay. */
async function stdioSession(nodeOptions?: string): Promise<string[]> {
  const flags = flagsSet(nodeOptions);
  const session = await connectStdio(['--offline'], flags.env());
  try {
    expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);
    await sleep(HEAP_GROWTH_DELAY_MS + 500);
  } finally {
    await session.close();
  }
  return flags.lines();
}

describe('V8 heap growth', () => {
  it('stdio sets both flags once, after the start', async () => {
    expect(await stdioSession()).toEqual(OURS);
  });

  it('stdio leaves what the user sized in NODE_OPTIONS', async () => {
    expect(await stdioSession('--max-semi-space-size=64')).toEqual([OURS[0]]);
  });

  it("HTTP mode, one process for many clients, keeps V8's own sizing", async () => {
    const flags = flagsSet();
    const server = await startHttpServer(['--offline'], flags.env());
    try {
      await sleep(HEAP_GROWTH_DELAY_MS + 500);
    } finally {
      await server.stop();
    }
    expect(flags.lines()).toEqual([]);
  });
});
