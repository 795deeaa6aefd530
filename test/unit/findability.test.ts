/**
 * Clients that defer tool definitions (Claude Code, Copilot) let the model find a tool by a search
 * over names and descriptions. This runs such a search, BM25 over each tool's name (split on `_`,
 * `-` and camelCase), description and argument names, with the usual k1 = 1.2 and b = 0.75, over
 * 197 tools of 15 MCP servers published on npm (test/findability/pool.json, captured from their own
 * tools/list by scripts/capture-tool-pool.mjs) and ours as the offline deployment lists them, the
 * bridged tools among them. Questions are written as people ask them (test/findability/): the main
 * set, which the descriptions were first tuned on; the second round's 360, written in sixteen batches
 * after that, each measured before any tuning on it (50%, 55%, 56%, 56%, 70%, 64%, 67%, 59%, 83%, 80%, 56%, 79%, 67%, 61%, 78% and 50% first), then tuned on too;
 * and the held-back set, written before any tuning and never tuned on (its misses are not shown),
 * though its rates were read after each change of the second round.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { listedTools } from '../../src/app/start-backend.js';
import { resolveConfig } from '../../src/config/config.js';
import { silentLogger } from '../../src/obs/log.js';
import { toolCatalog } from '../../src/tools/tools-list.js';

interface Doc {
  name: string;
  description: string;
  arguments: string[];
}
interface Question {
  question: string;
  tool: string;
  /** Tools that answer it as well as `tool` does (search_jobs for a list_jobs question). */
  also?: string[];
}
interface Pool {
  servers: { package: string; tools: Doc[] }[];
}

const read = <T>(file: string): T =>
  JSON.parse(readFileSync(new URL(`../findability/${file}`, import.meta.url), 'utf8'));

/** Words, lowercased: identifiers split at `_`, `-`, `.` and camelCase humps, anything not a letter or digit dropped. */
const words = (text: string): string[] =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** What issue 45 asks of the held-back set. */
const HELD_BACK_TARGET = { top1: 0.8, top3: 0.9 };
/**
 * What the held-back set gives (before any tuning: 20% and 44%; after the main set's: 14 and 19 of
 * 25; after the second round's: 19 and 21; after its eighth batch's: 20 and 22; after its
 * sixteenth's: 21 and 23): both targets met. A ratchet, so that a description change cannot lose
 * ground unseen; raise it when a change written for the other sets lifts it.
 */
const HELD_BACK_FLOOR = { top1: 21 / 25, top3: 23 / 25 };
/** The second round's set as its tuning left it (first measured 50%/75%, 55%/60%, 56%/60%, 56%/80%, 70%/80%, 64%/80%, 67%/89%, 59%/82%, 83%/96%, 80%/85%, 56%/72%, 79%/89%, 67%/89%, 61%/78%, 78%/94%, 50%/80% by batch): a ratchet too. */
const SECOND_ROUND_FLOOR = { top1: 286 / 360, top3: 335 / 360 };

const K1 = 1.2;
const B = 0.75;

/** A BM25 index over the docs; `rank` gives their names, best first. */
function bm25(docs: readonly Doc[]) {
  const terms = docs.map((doc) => words([doc.name, doc.description, ...doc.arguments].join(' ')));
  const average = terms.reduce((sum, doc) => sum + doc.length, 0) / docs.length;
  const frequency = terms.map((doc) => {
    const counts = new Map<string, number>();
    for (const term of doc) counts.set(term, (counts.get(term) ?? 0) + 1);
    return counts;
  });
  const containing = new Map<string, number>();
  for (const counts of frequency)
    for (const term of counts.keys()) containing.set(term, (containing.get(term) ?? 0) + 1);
  const idf = (term: string) => {
    const n = containing.get(term) ?? 0;
    return Math.log((docs.length - n + 0.5) / (n + 0.5) + 1);
  };
  return (query: string): string[] => {
    const scores = docs.map((doc, i) => {
      let score = 0;
      for (const term of words(query)) {
        const tf = frequency[i]!.get(term) ?? 0;
        if (tf === 0) continue;
        score += (idf(term) * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * terms[i]!.length) / average));
      }
      return { name: doc.name, score };
    });
    // Ties keep the pool's order, ours last: a tie is not a win for us.
    return scores.sort((a, b) => b.score - a.score).map((entry) => entry.name);
  };
}

interface Outcome {
  top1: number;
  top3: number;
  /** Each question whose tool is not first: where it is, and what is above it. */
  misses: { at: number; line: string }[];
}

function evaluate(rank: (query: string) => string[], questions: readonly Question[]): Outcome {
  let top1 = 0;
  let top3 = 0;
  const misses: Outcome['misses'] = [];
  for (const { question, tool, also = [] } of questions) {
    const right = [tool, ...also];
    const ranked = rank(question);
    const at = ranked.findIndex((name) => right.includes(name));
    if (at === 0) top1++;
    if (at >= 0 && at < 3) top3++;
    if (at !== 0)
      misses.push({
        at: at + 1,
        line: `${JSON.stringify(question)}: ${tool} at ${at + 1}, under ${ranked.slice(0, 3).join(', ')}`,
      });
  }
  return { top1: top1 / questions.length, top3: top3 / questions.length, misses };
}

describe('our tools are found by a BM25 search over tools', () => {
  let rank: (query: string) => string[];
  let ours: Doc[];
  beforeAll(async () => {
    const tools = await listedTools(resolveConfig({ offline: true }, {}), silentLogger);
    ours = toolCatalog(tools).map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      arguments: Object.keys(tool.inputSchema.properties ?? {}),
    }));
    const pool = read<Pool>('pool.json').servers.flatMap((server) => server.tools);
    rank = bm25([...pool, ...ours]);
  });

  it('searches a pool of at least 100 tools from at least 5 other servers, with ours and the bridged ones', () => {
    const pool = read<Pool>('pool.json');
    expect(pool.servers.length).toBeGreaterThanOrEqual(5);
    expect(pool.servers.flatMap((server) => server.tools).length).toBeGreaterThanOrEqual(100);
    expect(ours.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['search_jobs', 'get_compensation_benchmarks', 'get_company_funding']),
    );
  });

  it('ranks the right tool first for 90% of the questions, and in the top 3 for all', () => {
    const questions = read<Question[]>('questions.json');
    expect(questions.length).toBeGreaterThanOrEqual(40);
    for (const { tool } of questions) expect(ours.map((doc) => doc.name)).toContain(tool);
    const outcome = evaluate(rank, questions);
    console.log(`main set: top-1 ${(outcome.top1 * 100).toFixed(0)}%, top-3 ${(outcome.top3 * 100).toFixed(0)}%`);
    const shown = outcome.misses.map((miss) => miss.line).join('\n');
    expect(outcome.misses.filter((miss) => miss.at < 1 || miss.at > 3).map((miss) => miss.line)).toEqual([]);
    expect(outcome.top1, shown).toBeGreaterThanOrEqual(0.9);
  });

  it('ranks the right tool for the second round of questions no worse than its tuning left it', () => {
    const questions = read<Question[]>('second-round.json');
    for (const { tool } of questions) expect(ours.map((doc) => doc.name)).toContain(tool);
    const outcome = evaluate(rank, questions);
    console.log(`second round: top-1 ${(outcome.top1 * 100).toFixed(0)}%, top-3 ${(outcome.top3 * 100).toFixed(0)}%`);
    const shown = outcome.misses.map((miss) => miss.line).join('\n');
    expect(outcome.top1, shown).toBeGreaterThanOrEqual(SECOND_ROUND_FLOOR.top1);
    expect(outcome.top3, shown).toBeGreaterThanOrEqual(SECOND_ROUND_FLOOR.top3);
  });

  it('ranks the right tool for the held-back questions no worse than when the descriptions were tuned', () => {
    const questions = read<Question[]>('held-back.json');
    expect(questions.length).toBeGreaterThanOrEqual(20);
    const outcome = evaluate(rank, questions);
    const percent = (rate: number) => `${(rate * 100).toFixed(0)}%`;
    // Only the rates are shown: the questions missed are not for tuning.
    console.log(
      `held-back set: top-1 ${percent(outcome.top1)}, top-3 ${percent(outcome.top3)} (the issue asks ${percent(HELD_BACK_TARGET.top1)} and ${percent(HELD_BACK_TARGET.top3)})`,
    );
    expect(outcome.top1).toBeGreaterThanOrEqual(HELD_BACK_FLOOR.top1);
    expect(outcome.top3).toBeGreaterThanOrEqual(HELD_BACK_FLOOR.top3);
  });
});
