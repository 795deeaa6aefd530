/**
 * The bin sizes V8's heap for a small server before it loads anything (a young generation that
 * does not grow, a heap that grows in small steps), unless the user tuned the heap themselves.
 * Seen from inside the built binary's process: heap-spaces.mjs grows the young generation as far
 * as it may and reports its size.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from './helpers.js';

const PRELOAD = ['--import', fileURLToPath(new URL('./heap-spaces.mjs', import.meta.url))];
const MB = 1024 * 1024;
const youngSize = (stderr: string) => Number(/new_space_size=(\d+)/.exec(stderr)?.[1]);

describe("V8's heap, as the bin sets it", () => {
  it('the young generation stays at its first size however much young garbage is made', async () => {
    const run = await runCli(['tools'], cleanEnv(), undefined, PRELOAD);
    expect(run.code, run.stderr).toBe(0);
    // V8 starts it at 1 MB; left to grow it reaches 32 MB here (the next test).
    expect(youngSize(run.stderr)).toBeLessThanOrEqual(2 * MB);
  });

  it("a user's own heap flag wins: with --max-semi-space-size the young generation grows as it likes", async () => {
    const run = await runCli(['tools'], cleanEnv(), undefined, ['--max-semi-space-size=16', ...PRELOAD]);
    expect(run.code, run.stderr).toBe(0);
    expect(youngSize(run.stderr)).toBeGreaterThan(8 * MB);
  });

  it('NODE_OPTIONS counts as the user tuning it too', async () => {
    const run = await runCli(['tools'], cleanEnv({ NODE_OPTIONS: '--max-semi-space-size=16' }), undefined, PRELOAD);
    expect(run.code, run.stderr).toBe(0);
    expect(youngSize(run.stderr)).toBeGreaterThan(8 * MB);
  });
});
