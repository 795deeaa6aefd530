/** The README's generated sections match the code; `npm run readme` regenerates them. */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/index.js';
import { optionsSection, replaceSection, toolsSection } from '../helpers/readme-sections.js';

const README = new URL('../../README.md', import.meta.url);

describe('README', () => {
  it('every tool example satisfies its own input schema', () => {
    for (const tool of TOOLS) expect(tool.input.safeParse(tool.example).success, tool.name).toBe(true);
  });

  it('the tool reference and options table are generated from the code', async () => {
    const readme = readFileSync(README, 'utf8');
    const expected = replaceSection(replaceSection(readme, 'tools', await toolsSection()), 'options', optionsSection());
    if (process.env.UPDATE_README === '1') writeFileSync(README, expected);
    else expect(readme, 'README.md is stale: run `npm run readme`').toBe(expected);
  });
});
