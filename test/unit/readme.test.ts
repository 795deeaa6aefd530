/** The README's and docs/tools.md's generated sections match the code; `npm run readme` regenerates them. */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/index.js';
import { optionsSection, replaceSection, toolsSection, toolTable } from '../helpers/readme-sections.js';

const README = new URL('../../README.md', import.meta.url);
const TOOLS_DOC = new URL('../../docs/tools.md', import.meta.url);

/** Checks `file` against what the code generates, or writes it with UPDATE_README=1. */
function generated(file: URL, expected: (text: string) => string): void {
  const text = readFileSync(file, 'utf8');
  const want = expected(text);
  if (process.env.UPDATE_README === '1') writeFileSync(file, want);
  else expect(text, `${file.pathname.split('/').slice(-2).join('/')} is stale: run \`npm run readme\``).toBe(want);
}

describe('generated documentation', () => {
  it('every tool example satisfies its own input schema', () => {
    for (const tool of TOOLS) expect(tool.input.safeParse(tool.example).success, tool.name).toBe(true);
  });

  it("the README's tool table and options table are generated from the code", () => {
    generated(README, (text) =>
      replaceSection(replaceSection(text, 'tool-table', toolTable('docs/tools.md')), 'options', optionsSection()),
    );
  });

  it("docs/tools.md's reference is generated from the code and the offline API", async () => {
    const section = await toolsSection();
    generated(TOOLS_DOC, (text) => replaceSection(text, 'tools', section));
  });
});
