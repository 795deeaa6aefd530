/**
 * docs/contract.md says what scripts and clients rely on; it stays true of the code: its options
 * exist with their environment variables, its tools are the registry's, its error kinds the client's.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_KINDS } from '../../src/contract/errors.js';
import { OPTION_TABLE } from '../../src/config/options.js';
import { TOOL_NAMES } from '../../src/contract/tool-names.js';

const doc = readFileSync(new URL('../../docs/contract.md', import.meta.url), 'utf8');
const section = (heading: string) =>
  doc.slice(doc.indexOf(`## ${heading}\n`), doc.indexOf('\n## ', doc.indexOf(`## ${heading}\n`) + 3));
const firstCells = (text: string) => [...text.matchAll(/^\| `([^`]+)` \|(.*)$/gm)].map((m) => [m[1]!, m[2]!] as const);

describe('docs/contract.md', () => {
  it('names options the CLI has, each with its environment variable', () => {
    const rows = firstCells(section('Options'));
    expect(rows.length).toBeGreaterThanOrEqual(8);
    for (const [flag, rest] of rows) {
      const option = OPTION_TABLE.find((o) => o.flag.split(' ')[0] === flag.split(' ')[0]);
      expect(option, flag).toBeDefined();
      expect(rest, flag).toContain(option!.env);
    }
  });

  it("names the registry's tools, in its order", () => {
    expect(firstCells(section('Tools')).map(([name]) => name)).toEqual([
      'discover_api',
      'search_jobs',
      'list_jobs',
      'get_job',
      'get_market_map',
      'get_company_interview_brief',
      'check_api_health',
    ]);
    expect(new Set(firstCells(section('Tools')).map(([name]) => name))).toEqual(new Set(TOOL_NAMES));
  });

  it('names every error kind a client can receive, as the code defines them', () => {
    // `cancelled` included: a client receives it when the server stops before its call is done.
    expect(
      firstCells(section('Errors'))
        .map(([kind]) => kind)
        .sort(),
    ).toEqual([...ERROR_KINDS].sort());
  });
});
