/**
 * Phrases a model sends as `q` become the filters their words name, suggested as the exact next
 * call; and salaries say their currency, with what the USD filters compared.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { runTool } from '../../../src/tools/run.js';
import { searchJobs } from '../../../src/tools/search-jobs.js';
import { offlineClient } from '../../helpers/offline-client.js';
import type { ApiResult } from '../../../src/api/answers.js';
import { buildProvenance } from '../../../src/api/provenance-record.js';
import COUNTRIES from '../../../src/contract/countries.json';
import { filtersInPhrase, readPhrase } from '../../../src/render/filter-words.js';
import { renderJobList } from '../../../src/render/jobs.js';
import { phraseSuggestion } from '../../../src/render/no-match.js';
import { toolCatalog } from '../../../src/tools/tools-list.js';
import { renderSalary } from '../../../src/render/salary.js';
import { jobListBody, makeJob } from '../../helpers/fixtures.js';

/** What a search for `q` that found nothing says. */
const empty = (q: string) => renderJobList(jobListBody([]).data, { q });

describe('phrases become filters', () => {
  it.each([
    ['remote senior rust engineer', { q: 'engineer', skills: ['Rust'], seniority_level: 'senior', remote_only: true }],
    ['senior ML engineer', { q: 'ml engineer', seniority_level: 'senior' }],
    ['python', { skills: ['Python'] }],
    [
      'staff solidity developer web3',
      { q: 'developer', skills: ['Solidity'], seniority_level: 'staff', domain: 'web3' },
    ],
    ['remote jobs in crypto', { remote_only: true, domain: 'web3' }],
    ['junior react and typescript roles', { skills: ['TypeScript', 'React'], seniority_level: 'junior' }],
    [
      'principal engineer, distributed training, pytorch',
      { q: 'engineer', skills: ['Distributed Training', 'PyTorch'], seniority_level: 'principal' },
    ],
    ['lead kubernetes SRE remote', { q: 'sre', skills: ['Kubernetes'], seniority_level: 'lead', remote_only: true }],
    ['sr. go engineer', { q: 'engineer', skills: ['Go'], seniority_level: 'senior' }],
    // A question keeps none of its asking words, and asks for one engineer: the API matches whole words.
    ['who is recruiting rust engineers?', { q: 'engineer', skills: ['Rust'] }],
    ['Which companies are hiring Rust engineers right now?', { q: 'engineer', skills: ['Rust'] }],
    ['Any senior Solidity developers?', { q: 'developer', skills: ['Solidity'], seniority_level: 'senior' }],
    ['mid-level node.js backend', { q: 'backend', skills: ['Node.js'], seniority_level: 'mid' }],
    // search_jobs's description offers 'entry-level': a model that sends it as a word is told the filter.
    ['entry-level ML engineer', { q: 'ml engineer', seniority_level: 'junior' }],
    ['entry level engineers', { q: 'engineer', seniority_level: 'junior' }],
    ['mid level python developer', { q: 'developer', skills: ['Python'], seniority_level: 'mid' }],
    ['AI research scientist LLM evaluation', { q: 'research scientist', skills: ['LLM Evaluation'], domain: 'ai' }],
    ['zkEVM cryptography engineer', { q: 'engineer', skills: ['Cryptography', 'zkEVM'] }],
    // A pay floor or ceiling in USD is the filter search_jobs has for it, never a word to match.
    [
      'senior rust engineer paying over 150k',
      { q: 'engineer', skills: ['Rust'], seniority_level: 'senior', min_salary_usd: 150000 },
    ],
    ['ML engineer $200k+', { q: 'ml engineer', min_salary_usd: 200000 }],
    ['data engineer with a salary of at least $180,000 a year', { q: 'data engineer', min_salary_usd: 180000 }],
    ['researcher that pays more than 250k USD', { q: 'researcher', min_salary_usd: 250000 }],
    ['Any remote ML jobs over $150k?', { q: 'ml', remote_only: true, min_salary_usd: 150000 }],
    ['ML engineer, 180k?', { q: 'ml engineer', min_salary_usd: 180000 }],
    // A country is the location_country filter (ISO 3166-1 alpha-2, as the spec has it).
    ['rust engineer in Germany', { q: 'engineer', skills: ['Rust'], location_country: 'DE' }],
    ['remote ML jobs in the US', { q: 'ml', remote_only: true, location_country: 'US' }],
    ['solidity developer, United Kingdom', { q: 'developer', skills: ['Solidity'], location_country: 'GB' }],
    ['data scientist USA', { q: 'data scientist', location_country: 'US' }],
    ['blockchain engineer in Singapore', { q: 'engineer', domain: 'web3', location_country: 'SG' }],
    // A region is no filter and matches no title: left out of q, and said so (below).
    [
      'senior rust engineer remote in europe paying over 150k',
      { q: 'engineer', skills: ['Rust'], seniority_level: 'senior', remote_only: true, min_salary_usd: 150000 },
    ],
    ['python developer EMEA', { q: 'developer', skills: ['Python'] }],
    ['junior engineer under 90k', { q: 'engineer', seniority_level: 'junior', max_salary_usd: 90000 }],
    ['engineer 120k to 160k', { q: 'engineer', min_salary_usd: 120000, max_salary_usd: 160000 }],
  ])('%j', (q, expected) => {
    expect(phraseSuggestion({ q })).toBe(`search_jobs ${JSON.stringify(expected)}`);
  });

  it('reads countries by names that are current ISO 3166-1 codes, and no US state as one', () => {
    const region = new Intl.DisplayNames(['en'], { type: 'region' });
    const entries = Object.entries(COUNTRIES as Record<string, string>);
    expect(entries.length).toBeGreaterThan(200);
    for (const [name, code] of entries) {
      expect(name, code).toBe(name.toLowerCase());
      expect(Intl.getCanonicalLocales(`und-${code}`)[0], name).toBe(`und-${code}`);
      expect(region.of(code), name).not.toBe(code);
    }
    expect(entries.map(([, code]) => code)).not.toEqual(expect.arrayContaining(['GE']));
    expect(entries.map(([, code]) => code)).not.toEqual(expect.arrayContaining(['JE']));
  });

  it.each([
    'machine learning engineer',
    'Halcyon Labs',
    'django developer',
    'engineer',
    // Another currency is no USD filter: no rate is invented.
    'engineer £150k',
    'engineer over €90k',
    'engineer 150k EUR',
    // A count is no salary.
    'engineer for 10k users',
    // Two countries are no one filter; a US state is no country; "us" is a country only as "the US", "in US".
    'engineer in Germany or France',
    'engineer in New Mexico',
    'engineer in Georgia',
    'help us hire an engineer',
    'an engineer to grow within us',
    'scaling 50k-100k rps systems',
  ])('%j names no filter, so nothing is suggested', (q) => {
    expect(filtersInPhrase(q)).toBeUndefined();
    expect(phraseSuggestion({ q })).toBeUndefined();
  });

  it.each([
    ['who is hiring engineers?', 'engineer'],
    ['Machine learning researchers', 'machine learning researcher'],
    ['Halcyon Labs', undefined],
    ['engineer', undefined],
    ['rust engineers', undefined],
  ])('%j, naming no filter, asks for %j instead', (q, plainer) => {
    const phrase = readPhrase(q);
    expect(phrase.asks ? phrase.rest : undefined).toBe(plainer);
  });

  it("keeps the caller's own filters and settings, adds to its skills, and starts again at page 1", () => {
    expect(phraseSuggestion({ q: 'senior rust', skills: ['Go'], seniority_level: 'staff', per_page: 5, page: 3 })).toBe(
      'search_jobs {"skills":["Go","Rust"],"seniority_level":"staff","per_page":5}',
    );
  });

  it('an empty search says the exact call to try, with no dangling words', () => {
    const text = empty('remote senior rust engineer');
    expect(text).toContain(
      'some of its words name filters: try search_jobs {"q":"engineer","skills":["Rust"],"seniority_level":"senior","remote_only":true}',
    );
    expect(text).not.toMatch(/Otherwise/);
  });

  it('a skill that may be a title word gets the text-only call too; a phrase that gains nothing by it does not', () => {
    expect(empty('security researchers')).toContain(
      'try search_jobs {"q":"researcher","skills":["Security"]}; or, as text only: search_jobs {"q":"security researcher"}',
    );
    expect(empty('Who is hiring solidity engineers?')).toContain(
      'try search_jobs {"q":"engineer","skills":["Solidity"]}; or, as text only: search_jobs {"q":"solidity engineer"}',
    );
    // The same words as the phrase, or pay, a country or `remote` as text, would find nothing more.
    for (const q of ['rust engineer', 'remote rust engineer', 'rust engineers over 150k', 'rust engineers in Germany'])
      expect(empty(q), q).not.toContain('as text only');
  });

  it('an empty search says which region words it left out, and why', () => {
    expect(empty('engineers in Europe')).toContain(
      'only ask: try search_jobs {"q":"engineer"} (left out: "europe", a region: no filter takes one, location_country takes a country)',
    );
    expect(empty('rust engineer in latin america')).toContain(
      'try search_jobs {"q":"engineer","skills":["Rust"]} (left out: "latin america", a region: no filter takes one, location_country takes a country)',
    );
    expect(empty('rust engineers')).not.toContain('left out');
  });

  it('a search that found jobs says they did not use the filters its words name, and gives the call that would', () => {
    expect(renderJobList(jobListBody([makeJob()]).data, { q: 'senior engineer' })).toContain(
      'The jobs above did not use the filters some words of q name (q matched them as text only); the call with those filters: search_jobs {"q":"engineer","seniority_level":"senior"}',
    );
  });
});

describe('the text-only call finds what the filters did not, on the offline data', () => {
  it('security researchers', async () => {
    const client = offlineClient(await createOfflineEngine());
    const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
    const first = textOf(await runTool(searchJobs, { q: 'security researchers' }, { client, mode: 'embedded' }));
    const plain = /as text only: search_jobs (\{.*\})$/m.exec(first)?.[1];
    expect(plain, first).toBeDefined();
    const second = textOf(await runTool(searchJobs, JSON.parse(plain!), { client, mode: 'embedded' }));
    expect(second).toMatch(/^1\. job_\S+ "[^"]*Security Researcher"/m);
  });
});

describe('currencies said plainly', () => {
  const salary = (currency: string, display: string) => ({
    min: 145_000,
    max: 185_000,
    currency,
    source: 'extracted',
    display,
  });

  it('a range in another currency than USD says its ISO code; USD needs none; no rate is invented', () => {
    expect(renderSalary(salary('GBP', '£145k–£185k / year'))).toBe('"£145k–£185k / year" (GBP) [extracted]');
    expect(renderSalary(salary('USD', '$145k–$185k / year'))).toBe('"$145k–$185k / year" [extracted]');
    expect(renderSalary(salary('EUR', ''))).toBe('EUR 145000–185000 [extracted]');
  });

  it('a salary filter is echoed with its rule: a range passes when it reaches the threshold, not when all of it does', () => {
    const filterLine = (args: Record<string, unknown>) =>
      renderJobList(jobListBody([makeJob()]).data, args)
        .split('\n')
        .find((line) => line.startsWith('Salary filter'));
    expect(filterLine({ min_salary_usd: 150_000 })).toBe(
      "Salary filter (on the API's annualized USD conversion of each salary): min_salary_usd 150000 keeps a range whose top reaches it, so a range may start below it. The ranges above are in each posting's own currency (ISO code beside a non-USD one), not converted here.",
    );
    expect(filterLine({ max_salary_usd: 120_000 })).toContain(
      'max_salary_usd 120000 keeps a range whose bottom is at or below it, so a range may end above it.',
    );
    expect(filterLine({ min_salary_usd: 150_000, max_salary_usd: 200_000 })).toContain(
      'min_salary_usd 150000 keeps a range whose top reaches it, so a range may start below it; max_salary_usd 200000',
    );
    expect(filterLine({})).toBeUndefined();
  });

  it("search_jobs's schema says the same rule, so a model does not claim every result pays over the minimum", () => {
    const { properties } = toolCatalog().find((tool) => tool.name === 'search_jobs')!.inputSchema as {
      properties: Record<string, { description?: string }>;
    };
    expect(properties.min_salary_usd?.description).toBe('Annual; keeps ranges whose top reaches it');
    expect(properties.max_salary_usd?.description).toBe('Annual; keeps ranges starting at or below it');
  });
});

describe("fiction by the API's own word", () => {
  const result = (source: string | null | undefined, fictional?: boolean): ApiResult<unknown> => ({
    data: {},
    meta: source === undefined ? {} : ({ source } as { source?: string }),
    status: 200,
    path: '/x',
    retrievedAt: '2026-11-25T18:00:00.000Z',
    ...(fictional ? { fictional } : {}),
  });

  it('an API over HTTP whose meta.source says offline snapshot or sample data is labelled fictional', () => {
    expect(
      buildProvenance(
        result('offline-snapshot (embedded service-mcp dataset of fictional sample data, not live)'),
        'http',
      ).fictional,
    ).toBe(true);
    expect(buildProvenance(result('x'), 'http', {}).fictional).toBe(false);
    // What the API said of itself earlier (discovery's meta) holds for an answer with no meta, such as health.
    expect(buildProvenance(result(undefined, true), 'http').fictional).toBe(true);
  });

  it('an API over HTTP that never says so is never labelled fictional', () => {
    for (const source of ['jobs-read-model', 'warehouse snapshot 2026-11', null])
      expect(buildProvenance(result(source), 'http')).toMatchObject({ fictional: false, reached: 'http' });
  });
});

describe("the health tool's hints", () => {
  it('never send check_api_health to itself, whatever failed', async () => {
    const { ApiError } = await import('../../../src/contract/errors.js');
    const { toErrorResult } = await import('../../../src/tools/error-result.js');
    const { findTool } = await import('../../helpers/tools.js');
    const health = findTool('check_api_health')!;
    for (const kind of ['upstream_unavailable', 'upstream_contract', 'timeout', 'network', 'rate_limited'] as const) {
      const text = (
        toErrorResult(new ApiError(kind, `${kind}: x`, { status: 502 }), health).content[0] as { text: string }
      ).text;
      expect(text, kind).not.toContain('check_api_health');
    }
    // The hint for a base URL that answers 404 where no record was asked for names no tool at all.
    const { statusError } = await import('../../../src/api/status-errors.js');
    const error = statusError(
      { status: 404, body: '', headers: new Headers(), url: '' },
      '/api/public/v1/mcp/health',
      0,
      'http://x.example',
    );
    expect((toErrorResult(error, health).content[0] as { text: string }).text).not.toMatch(
      /check_api_health|discover_api/,
    );
  });
});

describe('the call a question is given finds what it asked for, on the offline data', () => {
  it.each([
    'who is recruiting rust engineers?',
    'Which companies are hiring Rust engineers right now?',
    'Any senior Solidity developers?',
    'who is hiring engineers?',
    'Are there openings for protocol engineers?',
    'entry-level engineer',
    'rust engineer paying over 150k',
    'machine learning engineers in the US',
    'senior rust engineer remote in europe paying over 150k',
  ])('%j', async (q) => {
    const client = offlineClient(await createOfflineEngine());
    const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
    const first = textOf(await runTool(searchJobs, { q }, { client, mode: 'embedded' }));
    expect(first).toMatch(/^No job matches/m);
    const suggested = /try search_jobs (\{[^}]*\})/.exec(first)?.[1];
    expect(suggested, first).toBeDefined();
    const second = textOf(await runTool(searchJobs, JSON.parse(suggested!), { client, mode: 'embedded' }));
    expect(second).toMatch(/^1\. job_/m);
  });
});
