/**
 * Regular expressions with Unicode property escapes stay literals in the bundle. esbuild, unsure
 * of a target's Unicode tables, rewrites such a literal as `new RegExp(…)` where it stands, and a
 * RegExp is then built each time the code runs: job_id's lone-surrogate check did so on every
 * get_job. tsup.config.ts tells esbuild that Node 22 has them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chunkContents } from './bundled.js';

/** esbuild's rewrite, as it writes it: `new RegExp("\\p{Nd}", "u")`. */
const REWRITTEN = /new RegExp\("(?:[^"\\]|\\.)*\\\\[pP]\{/;

describe('the bundle', () => {
  it('keeps every regular expression with a Unicode property escape a literal, built once', () => {
    const chunks = [...chunkContents().keys()].filter((path) => path.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(5);
    const rewritten = chunks.flatMap((path) => readFileSync(path, 'utf8').match(REWRITTEN)?.[0] ?? []);
    expect(rewritten).toEqual([]);
    const params = chunks.find((path) => chunkContents().get(path)!.has('src/contract/params.ts'))!;
    expect(readFileSync(params, 'utf8')).toContain('/\\p{Surrogate}/u.test(value)');
  });
});
