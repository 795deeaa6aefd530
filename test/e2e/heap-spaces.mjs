/**
 * Preloaded into the built binary by heap-flags.test.ts: as the process exits, makes young garbage
 * enough to grow V8's young generation to its limit (were it allowed to grow), then writes the
 * size of the young generation's space to stderr.
 */
import { getHeapSpaceStatistics } from 'node:v8';

process.on('exit', () => {
  let young = [];
  for (let i = 0; i < 400_000; i++) {
    young.push({ i, text: `item ${i}` });
    if (young.length > 50_000) young = [];
  }
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  process.stderr.write(`new_space_size=${space?.space_size}\n`);
});
