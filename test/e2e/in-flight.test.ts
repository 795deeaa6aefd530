/**
 * Bounded work over stdio: a script that writes thousands of calls and reads nothing cannot make
 * the server run them all at once (issue 28: 6,000 calls drove it to 1,391 MB). The server stops
 * reading stdin while stdout is backed up, so the pipe fills and the writer waits; once it reads,
 * every call has exactly one answer, matched by id on parsed lines.
 *
 * 2,000 calls, each a large line (1 KB of padding) whose answer is about 170 KB (100 jobs): 340 MB
 * of answers that a server that kept reading would hold, against a bound of 250 MB, which is the
 * server's own footprint (about 100 MB) and at most --max-in-flight answers (64 x 170 KB).
 * Against mock-api, as users run it: the upstream answers keep arriving while stdout is blocked.
 * (This was two tests, 6,000 calls against mock-api here and 2,000 --offline in
 * stdio-lifecycle.test.ts: the bound is the stdio transport's, the same whatever answers the calls.)
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

describe('a client that writes calls and does not read', () => {
  it('cannot grow the server past a bound: it stops reading until stdout drains, then every call is answered exactly once', async () => {
    const CALLS = 2_000;
    // Answers are counted by id on parsed lines, not kept.
    const session = rawStdio(['--base-url', api.url], { keep: false });
    const padding = 'x'.repeat(1_000);
    session.send({ id: 0, ...INITIALIZE });
    await expect.poll(() => session.responses.get(0)).toBe(1);
    session.send({ method: 'notifications/initialized' });
    session.child.stdout.pause();
    let written = 0;
    const writeMore = () => {
      while (written < CALLS) {
        written++;
        const line = session.line({
          id: written,
          method: 'tools/call',
          params: { name: 'search_jobs', arguments: { per_page: 100, page: (written % 4) + 1 }, _meta: { padding } },
        });
        if (!session.child.stdin.write(line)) return void session.child.stdin.once('drain', writeMore);
      }
    };
    writeMore();
    let peakMb = 0;
    // Until the server has done all it will do unread (on the old code, reading every call and
    // holding its answer), judged by its CPU use, not by a fixed wait.
    await quiescent(session.child.pid!, () => (peakMb = Math.max(peakMb, session.rssMb())));
    console.info(`unread: ${written} of ${CALLS} calls written, server RSS peak ${peakMb.toFixed(0)} MB`);
    expect(peakMb).toBeLessThan(250);
    expect(written).toBeLessThan(CALLS); // the pipe filled: the server had stopped reading

    // Unread, the bound is what holds memory; read at full speed, RSS follows V8's heap sizing
    // (heap-soak.test.ts measures the heap after a forced GC), so it is not asserted here.
    session.child.stdout.resume();
    await expect.poll(() => session.responses.size, { timeout: 120_000, interval: 200 }).toBe(CALLS + 1);
    session.child.stdin.end();
    expect((await session.exited).code).toBe(0);
    expect(unmatched(session.responses, range(0, CALLS))).toEqual({ missing: [], repeated: [] });
    expect(session.lines()).toBe(CALLS + 1);
  }, 240_000);
});
