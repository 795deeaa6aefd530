/**
 * zod makes a parser with `new Function` at an object schema's first parse, unless told not to. A
 * start parses each schema about once, so the built binary turns that off (src/app/cli.ts) and its
 * start compiles nothing; the per-call validators (src/lib/compiled.ts) are zod's compiled ones
 * still. What the process compiles is recorded by a hook preloaded into it (record-compiles.mjs).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeJob } from './dataset.js';
import { cleanEnv, connectStdio } from './helpers.js';

const RECORDER = pathToFileURL(fileURLToPath(new URL('./record-compiles.mjs', import.meta.url))).href;

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'service-mcp-compiles-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Bodies compiled, by size; zod's probe of whether it may compile at all has an empty one. */
const compiledIn = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(Number)
        .filter((size) => size > 0)
    : [];

describe('zod parsers compiled at run time', () => {
  it('a stdio start compiles none, and a call compiles its validator', async () => {
    const file = join(work, 'stdio.txt');
    const env = cleanEnv({ NODE_OPTIONS: `--import=${RECORDER}`, RECORD_COMPILES_FILE: file });
    const session = await connectStdio(['--offline'], env);
    try {
      expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);
      expect(compiledIn(file)).toEqual([]);
      const result = await session.client.callTool({ name: 'get_job', arguments: { job_id: activeJob.job_id } });
      expect(result.isError).toBeFalsy();
      expect(compiledIn(file).length).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  });
});
