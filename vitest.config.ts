import { buildDefines } from './build-defines.js';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The run with the clock moved ahead (`npm run test:next-year`, NEXT_YEAR_RUN=1 under Debian's
 * `faketime -f +400d`) is there to catch a test whose expected text holds an age or a date computed
 * from today's clock. It runs every unit test (the tools' text is pinned there, each at a clock of
 * its own) and the end-to-end files whose expectations read a date or an age, or that meet a fixed
 * date with the clock: */
const DATED_E2E = [
  // The tools' text: "N days ago", "Freshness: generated … ago", a legacy date read as UTC.
  'test/e2e/stdio.test.ts',
  // The views' provenance footer: ages ("3 days ago") and the stale flag.
  'test/e2e/apps/views.test.ts',
  // Fixed generated_at and last_seen dates in upstream bodies, rendered as the model reads them.
  'test/e2e/upstream-text.test.ts',
  // A cache hit's age in provenance and text.
  'test/e2e/cache.test.ts',
  // A cache hit's age across replicas; a TLS certificate valid for a day from the clock it was made on.
  'test/e2e/redis.test.ts',
  // OAuth access tokens, issued and expiring by the clock, checked by the server.
  'test/e2e/auth.test.ts',
  // The cool-down's end and the last 429, as dates in the health answer.
  'test/e2e/observability/health.test.ts',
];
/*
 * The other end-to-end files cannot depend on the date: they compare ids, counts, pages, error
 * kinds, bytes and heap, and where a date or age appears in what they read, they match it with a
 * pattern that any date meets (`Generated [^\n]+`); all their processes share the one moved clock.
 */
const shifted = process.env.NEXT_YEAR_RUN === '1';

/**
 * The longest files first (measured, longest first), so that neither worker is left running one
 * alone at the end. Vitest orders files by the durations it cached from the last run on this
 * machine; a fresh clone (CI) has none, and it falls back to file size, which says nothing here.
 */
const LONGEST = [
  'test/e2e/heap-soak.test.ts',
  'test/e2e/faults.test.ts',
  'test/e2e/cancellation-fuzz.test.ts',
  'test/e2e/in-flight.test.ts',
  'test/e2e/edges.test.ts',
  'test/e2e/stdio.test.ts',
  'test/e2e/redis.test.ts',
  'test/e2e/hosted-bridge.test.ts',
  'test/e2e/observability/metrics.test.ts',
  'test/e2e/eras.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return at < 0 ? LONGEST.length : at;
    };
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  define: buildDefines(),
  test: {
    // Two files at a time on a 2-core machine (vitest's default is one fewer than the cores: one).
    // End-to-end files spend much of their time waiting on other processes, timers and sockets.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    // The code waits with node:timers/promises; fake timers must reach it too.
    fakeTimers: { fakeNodeBuiltins: true },
    // expect.poll waits for something to happen (a request reaching mock-api, a line on stderr);
    // its default of 1 s is a wall-clock bound a loaded machine misses (redis.test's wait for a
    // replica to record its 429 failed so in a loaded run). 15 s only delays a real failure.
    expect: { poll: { timeout: 15_000 } },
    projects: [
      // A test's time limit only catches a hang, so it is set far above what a loaded machine takes:
      // with both cores kept busy (issue 28), bad-input's 1,000 generated calls per tool (250 now)
      // took up to 6.5 s (vitest's default limit is 5 s) and the 2,000 HTTP calls of
      // http-concurrency 25 s (of 30 s). Tests that take longer by design say so themselves.
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          // One module cache per worker, not one per file: the 76 files import much the same graph
          // (the SDK, zod, the tools), and loading it again for each was half the unit run (36 s ->
          // 17 s). A file that mocks a module loads what uses it afresh (mcp-endpoint.test.ts).
          isolate: false,
        },
      },
      {
        extends: true,
        // End-to-end tests spawn the built binary (npm test builds first) and talk real protocols.
        test: {
          name: 'e2e',
          include: shifted ? DATED_E2E : ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        // The packed package installed fresh, on every Node line engines admits: `npm run test:installed`.
        test: {
          name: 'installed',
          include: ['test/installed/**/*.test.ts'],
          globalSetup: ['test/installed/pack.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
