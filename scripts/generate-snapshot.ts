/**
 * Generates the embedded offline snapshot, src/offline/snapshot.json, from a fixed seed and the
 * word lists in src/contract/vocabulary.json. Companies and people are fictional; URLs use reserved
 * example domains.
 *
 *   npm run snapshot            (writes the file)
 *   npm run snapshot -- --check (exits 1 when the committed file differs from a fresh generation)
 *
 * Runs under `node --experimental-strip-types`, so it imports only types from src/ (type imports
 * are erased), and its own parts, in scripts/snapshot/, by their .ts names.
 * Only + - * / and rounding are used on numbers, so the output is identical on every platform.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Dataset } from '../src/offline/dataset.js';
import {
  DAY,
  JOB_COUNT,
  SNAPSHOT_AT,
  SOURCE,
  createRandom,
  isoDate,
  isoSeconds,
  loadVocabulary,
  type Vocabulary,
} from './snapshot/basics.ts';
import { buildBrief } from './snapshot/briefs.ts';
import { buildCompanies } from './snapshot/companies.ts';
import { buildJob, byRecency, type JobContext } from './snapshot/jobs.ts';
import { buildMarketMap } from './snapshot/market-map.ts';

export const SEED = 20261119;
export const SNAPSHOT_PATH = fileURLToPath(new URL('../src/offline/snapshot.json', import.meta.url));

export function generateSnapshot(seed: number = SEED, vocab: Vocabulary = loadVocabulary()): Dataset {
  const random = createRandom(seed);
  const companies = buildCompanies(vocab, random);
  const ctx: JobContext = { vocab, random, companies, counters: { ai: 0, web3: 0 } };
  const jobs = Array.from({ length: JOB_COUNT }, (_, i) => buildJob(ctx, i)).sort(byRecency);
  // Some companies have no brief, so that the interview operation's 404 has real ids to miss.
  const briefed = companies.filter((c, i) => !c.unresolved && i % 7 !== 3);
  return {
    schema_version: 1,
    seed,
    snapshot: {
      source: SOURCE,
      generated_at: isoSeconds(SNAPSHOT_AT),
      computed_at: isoSeconds(SNAPSHOT_AT + 252_000),
      observation_window: { from: isoDate(SNAPSHOT_AT - 30 * DAY), to: isoDate(SNAPSHOT_AT) },
    },
    fx_to_usd: vocab.fxToUsd,
    jobs,
    companies: briefed.map((c) => buildBrief(c, jobs, vocab, random)),
    market_map: buildMarketMap(vocab, jobs, random),
  };
}

/** The exact bytes written to the snapshot file. */
export function serializeSnapshot(dataset: Dataset): string {
  return `${JSON.stringify(dataset)}\n`;
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const text = serializeSnapshot(generateSnapshot());
  if (process.argv.includes('--check')) {
    const current = readFileSync(SNAPSHOT_PATH, 'utf8');
    if (current !== text) {
      process.stderr.write('src/offline/snapshot.json is out of date: run npm run snapshot\n');
      process.exit(1);
    }
  } else {
    writeFileSync(SNAPSHOT_PATH, text);
  }
  process.stderr.write(`snapshot: ${Buffer.byteLength(text)} bytes\n`);
}
