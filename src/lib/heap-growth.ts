/**
 * How far V8 lets the heap grow while busy, for the stdio server: a process of its own for each
 * client, alive for the whole session, mostly idle. Serving many small, short-lived answers it
 * holds about 20 MB after a full collection, yet V8's own sizing let it settle near 200 MB of RSS
 * after 10,000 calls: the old generation may grow up to 4x past what the last full collection kept
 * while collections are quick, and the young one from 8 to 32 MB. At 2x and a young generation
 * left at its start size it settles near 125 MB, for CPU per call the same within the noise with 8
 * small calls in flight and about 8% more in a burst of large answers (docs/benchmarks.md). HTTP
 * mode, one process serving many clients, keeps V8's sizing and its throughput. V8 reads both
 * flags each time it resizes, so they work set after start (the young generation's maximum size
 * does not: V8 reads it once).
 */
const TUNING = [
  { flag: '--heap-growing-percent=100', givenBy: /--heap[-_]growing[-_]percent/ },
  {
    flag: '--semi-space-growth-factor=1',
    givenBy: /--(?:max[-_]semi[-_]space[-_]size|min[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor)/,
  },
];

/** Set after the start, off its path (node:v8 is 0.7 ms to load); the heap has not grown by then. */
export const HEAP_GROWTH_DELAY_MS = 100;

/**
 * Limits the heap's growth unless the user sized it: each flag gives way to one on node's command
 * line or in NODE_OPTIONS that sets the same thing. Returns the flags it will set.
 */
export function limitHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
  setFlags: (flags: string) => void = (flags) => process.getBuiltinModule('node:v8').setFlagsFromString(flags),
): string[] {
  const given = `${execArgv.join(' ')} ${nodeOptions}`;
  const flags = TUNING.filter(({ givenBy }) => !givenBy.test(given)).map(({ flag }) => flag);
  if (flags.length > 0) setTimeout(() => flags.forEach((flag) => setFlags(flag)), HEAP_GROWTH_DELAY_MS).unref();
  return flags;
}
