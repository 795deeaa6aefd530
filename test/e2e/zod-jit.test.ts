/**
 * zod makes a parser with `new Function` at an object schema's first parse, unless told not to. A
 * start parses each schema about once, so the built binary turns that off (src/app/cli.ts) and its
 * start compiles nothing; the per-call validators (src/lib/compiled.ts) are zod's compiled ones
 * still. What the process compiles is recorded by a hook preloaded into it (record-compiles.mjs).
 */
import { describe, expect, it } from 'vitest';
import { activeJob } from './dataset.js';
import { connectStdio, recording } from './helpers.js';

/** Bodies compiled, by size; zod's probe of whether it may compile at all has an empty one. */
const compiled = (lines: string[]) => lines.map(Number).filter((size) => size > 0);

describe('zod parsers compiled at run time', () => {
  it('a stdio start compiles none, and a call compiles its validator', async () => {
    const compiles = recording('record-compiles.mjs', 'RECORD_COMPILES_FILE');
    const session = await connectStdio(['--offline'], compiles.env());
    try {
      expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);
      expect(compiled(compiles.lines())).toEqual([]);
      const result = await session.client.callTool({ name: 'get_job', arguments: { job_id: activeJob.job_id } });
      expect(result.isError).toBeFalsy();
      expect(compiled(compiles.lines()).length).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  });
});
