/**
 * Bounded work over stdio: a script that writes thousands of calls and reads nothing cannot make
 * the server run them all at once (issue 28: 6,000 calls drove it to 1,391 MB), and once it reads,
 * every call has exactly one answer, matched by id on parsed lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockApi, type MockApi } from './helpers.js';
import { INITIALIZE, quiescent, range, rawStdio, unmatched } from './raw-stdio.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await api?.close();
});

describe('a script that writes 6,000 calls and reads nothing', () => {
  it('keeps the server under 300 MB, then every call gets exactly one answer', async () => {
    const CALLS = 6_000;
    // Answers are about 170 KB each (100 jobs): the transcript is counted by id, not kept.
    const session = rawStdio(['--base-url', api.url], { keep: false });
    session.send({ id: 0, ...INITIALIZE });
    await expect.poll(() => session.responses.get(0), { timeout: 15_000 }).toBe(1);
    session.send({ method: 'notifications/initialized' });
    session.child.stdout.pause();

    let peakMb = 0;
    const sample = () => (peakMb = Math.max(peakMb, session.rssMb()));
    let written = 0;
    const writeMore = () => {
      while (written < CALLS) {
        written++;
        const line = session.line({
          id: written,
          method: 'tools/call',
          params: { name: 'search_jobs', arguments: { per_page: 100, page: (written % 4) + 1 } },
        });
        if (!session.child.stdin.write(line)) return void session.child.stdin.once('drain', writeMore);
      }
    };
    writeMore();
    // Until the server has done all it will do unread: on the old code, reading 4,000 calls and
    // holding their answers.
    await quiescent(session.child.pid!, sample);
    expect(peakMb).toBeLessThan(300);

    // Unread, the bound is what holds memory; read at full speed, RSS follows V8's heap sizing
    // (issue 28's point 3, measured after a forced GC elsewhere), so it is not asserted here.
    session.child.stdout.resume();
    await expect.poll(() => session.responses.size, { timeout: 120_000, interval: 200 }).toBe(CALLS + 1);
    session.child.stdin.end();
    expect((await session.exited).code).toBe(0);
    expect(unmatched(session.responses, range(0, CALLS))).toEqual({ missing: [], repeated: [] });
    expect(session.responses.size).toBe(CALLS + 1);
  }, 240_000);
});
