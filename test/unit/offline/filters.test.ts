/**
 * Every filter demonstrably filters: for each case, the ids the API returns (all pages) must be
 * exactly the active jobs a brute-force predicate over the dataset selects, in dataset order,
 * and the case must exclude at least one active job and include at least one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { JobListParams, SearchJobsParams } from '../../../src/contract/params.js';
import type { StoredJob } from '../../../src/offline/dataset.js';
import { createOfflineEngine, type OfflineEngine } from '../../../src/offline/engine.js';
import { offlineClient } from '../../helpers/offline-client.js';

let engine: OfflineEngine;
beforeAll(async () => {
  engine = await createOfflineEngine();
});

const lower = (s: string | null) => (s ?? '').toLowerCase();
const text = (j: StoredJob) => [j.job.title, j.job.company.name, ...j.job.skills].join(' ').toLowerCase();
/** Written independently of the engine: `term` begins a word (nothing alphanumeric just before it). */
const hasWord = (j: StoredJob, term: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'u').test(text(j));
const hasSkill = (j: StoredJob, skill: string) => j.job.skills.some((s) => s.toLowerCase() === skill.toLowerCase());

/** Written independently of the engine: annual USD range of a usable salary, or null. */
function usd(j: StoredJob, includePredicted: boolean): [number, number] | null {
  const s = j.job.salary;
  if (!s || (s.source === 'predicted' && !includePredicted)) return null;
  const rate = engine.dataset.fx_to_usd[s.currency];
  const per = { year: 1, month: 12, hour: 2080 }[j.salary_period ?? 'year'];
  const values = [s.min, s.max].filter((v): v is number => v !== null);
  if (rate === undefined || values.length === 0) return null;
  return [Math.min(...values) * rate * per, Math.max(...values) * rate * per];
}

interface Case {
  name: string;
  params: SearchJobsParams;
  keep: (j: StoredJob) => boolean;
}

const CASES: Case[] = [
  { name: 'q single term (skill)', params: { q: 'rust' }, keep: (j) => hasWord(j, 'rust') },
  { name: 'q is case-insensitive', params: { q: 'SOLIDITY' }, keep: (j) => hasWord(j, 'solidity') },
  {
    name: 'q matches the company name',
    params: { q: 'northwind' },
    keep: (j) => lower(j.job.company.name).startsWith('northwind'),
  },
  {
    name: 'q needs every term',
    params: { q: 'senior  infrastructure' },
    keep: (j) => hasWord(j, 'senior') && hasWord(j, 'infrastructure'),
  },
  {
    name: 'q matches at word starts, not inside words ("sql" is not in "PostgreSQL")',
    params: { q: 'sql' },
    keep: (j) => hasWord(j, 'sql'),
  },
  { name: 'q: a term may be the start of a longer word', params: { q: 'learn' }, keep: (j) => hasWord(j, 'learn') },
  { name: 'q: a term with symbols', params: { q: 'c++' }, keep: (j) => hasWord(j, 'c++') },
  { name: 'domain ai', params: { domain: 'ai' }, keep: (j) => j.job.domain_id === 'ai' },
  { name: 'domain web3', params: { domain: 'web3' }, keep: (j) => j.job.domain_id === 'web3' },
  {
    name: 'skills any (default)',
    params: { skills: ['Rust', 'Go'] },
    keep: (j) => hasSkill(j, 'rust') || hasSkill(j, 'go'),
  },
  {
    name: 'skills all',
    params: { skills: ['Rust', 'Go'], skill_match: 'all' },
    keep: (j) => hasSkill(j, 'rust') && hasSkill(j, 'go'),
  },
  {
    name: 'skills match whole names, case-insensitively',
    params: { skills: ['python'] },
    keep: (j) => hasSkill(j, 'python'),
  },
  { name: 'company_type', params: { company_type: 'ai_lab' }, keep: (j) => j.job.company.type === 'ai_lab' },
  {
    name: 'company_type is case-insensitive',
    params: { company_type: 'DAO' },
    keep: (j) => j.job.company.type === 'dao',
  },
  { name: 'seniority_level', params: { seniority_level: 'staff' }, keep: (j) => j.job.seniority_level === 'staff' },
  { name: 'remote_only', params: { remote_only: true }, keep: (j) => j.job.remote_status === 'remote' },
  {
    name: 'location_country, lowercase accepted',
    params: { location_country: 'de' },
    keep: (j) => j.job.location_country === 'DE',
  },
  { name: 'location_country GB', params: { location_country: 'GB' }, keep: (j) => j.job.location_country === 'GB' },
  {
    name: 'min_salary_usd (predicted excluded)',
    params: { min_salary_usd: 200_000 },
    keep: (j) => (usd(j, false)?.[1] ?? -1) >= 200_000,
  },
  {
    name: 'max_salary_usd',
    params: { max_salary_usd: 120_000 },
    keep: (j) => usd(j, false) !== null && usd(j, false)![0] <= 120_000,
  },
  {
    name: 'salary band with predicted included',
    params: { min_salary_usd: 150_000, max_salary_usd: 250_000, include_predicted_salaries: true },
    keep: (j) => usd(j, true) !== null && usd(j, true)![1] >= 150_000 && usd(j, true)![0] <= 250_000,
  },
  {
    name: 'min_salary_usd 0 keeps exactly the jobs with a usable salary',
    params: { min_salary_usd: 0 },
    keep: (j) => usd(j, false) !== null,
  },
  {
    name: 'combined filters',
    params: { domain: 'web3', remote_only: true, skills: ['Solidity', 'Rust'] },
    keep: (j) =>
      j.job.domain_id === 'web3' &&
      j.job.remote_status === 'remote' &&
      (hasSkill(j, 'solidity') || hasSkill(j, 'rust')),
  },
];

async function allIds(
  fetchPage: (
    page: number,
  ) => Promise<{ data: { jobs: Array<{ job_id: string }>; pagination: { has_next: boolean } } }>,
) {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const { data } = await fetchPage(page);
    ids.push(...data.jobs.map((j) => j.job_id));
    if (!data.pagination.has_next) return ids;
  }
}

describe('search filters against a brute-force oracle', () => {
  it.each(CASES)('$name', async ({ params, keep }) => {
    const client = offlineClient(engine);
    const active = engine.dataset.jobs.filter((j) => j.active);
    const expected = active.filter(keep).map((j) => j.job.job_id);
    expect(expected.length, 'the case selects something').toBeGreaterThan(0);
    expect(expected.length, 'the case excludes something').toBeLessThan(active.length);
    const ids = await allIds((page) => client.searchJobs({ ...params, page, per_page: 100 }));
    expect(ids).toEqual(expected);
  });

  it('a salary threshold never admits a predicted salary unless asked for', async () => {
    const client = offlineClient(engine);
    const ids = await allIds((page) => client.searchJobs({ min_salary_usd: 0, page, per_page: 100 }));
    const sources = ids.map((id) => engine.dataset.jobs.find((j) => j.job.job_id === id)!.job.salary?.source);
    expect(sources).not.toContain('predicted');
    const withPredicted = await allIds((page) =>
      client.searchJobs({ min_salary_usd: 0, include_predicted_salaries: true, page, per_page: 100 }),
    );
    expect(withPredicted.length).toBeGreaterThan(ids.length);
  });
});

const LIST_CASES: Array<{ name: string; params: JobListParams; keep: (j: StoredJob) => boolean }> = [
  { name: 'q', params: { q: 'protocol' }, keep: (j) => hasWord(j, 'protocol') },
  { name: 'domain', params: { domain: 'ai' }, keep: (j) => j.job.domain_id === 'ai' },
  {
    name: 'skills (any)',
    params: { skills: ['Kubernetes', 'Terraform'] },
    keep: (j) => hasSkill(j, 'kubernetes') || hasSkill(j, 'terraform'),
  },
  {
    name: 'seniority_level',
    params: { seniority_level: 'principal' },
    keep: (j) => j.job.seniority_level === 'principal',
  },
  { name: 'remote_only', params: { remote_only: true }, keep: (j) => j.job.remote_status === 'remote' },
  { name: 'location_country', params: { location_country: 'us' }, keep: (j) => j.job.location_country === 'US' },
];

describe('list filters against a brute-force oracle', () => {
  it.each(LIST_CASES)('$name', async ({ params, keep }) => {
    const client = offlineClient(engine);
    const active = engine.dataset.jobs.filter((j) => j.active);
    const expected = active.filter(keep).map((j) => j.job.job_id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(active.length);
    expect(await allIds((page) => client.listJobs({ ...params, page, per_page: 100 }))).toEqual(expected);
  });

  it('ignores the search-only parameters and says which filters it applied', async () => {
    const client = offlineClient(engine);
    const plain = await client.listJobs({ per_page: 100 });
    const url =
      'http://offline.invalid/api/public/v1/jobs?per_page=100&company_type=dao&min_salary_usd=999999&skill_match=all';
    const response = await engine.handle(new Request(url));
    const body = (await response.json()) as {
      data: { jobs: Array<{ job_id: string }>; filters: Record<string, unknown> };
    };
    expect(body.data.jobs.map((j) => j.job_id)).toEqual(plain.data.jobs.map((j) => j.job_id));
    expect(body.data.filters).not.toHaveProperty('company_type');
  });

  it('never lists an inactive job', async () => {
    const inactive = new Set(engine.dataset.jobs.filter((j) => !j.active).map((j) => j.job.job_id));
    expect(inactive.size).toBeGreaterThan(0);
    const ids = await allIds((page) => offlineClient(engine).listJobs({ page, per_page: 100 }));
    expect(ids.filter((id) => inactive.has(id))).toEqual([]);
    expect(ids).toHaveLength(engine.dataset.jobs.length - inactive.size);
  });
});

describe('q matches at word starts (issue 18)', () => {
  const search = async (q: string) =>
    (await allIds((page) => offlineClient(engine).searchJobs({ q, page, per_page: 100 }))).map((id) =>
      engine.dataset.jobs.find((j) => j.job.job_id === id)!,
    );

  it('"eu" finds no "Neural": a term never matches inside a word', async () => {
    expect(engine.dataset.jobs.some((j) => j.active && text(j).includes('neural'))).toBe(true);
    for (const job of await search('EU')) expect(text(job)).toMatch(/(?:^|[^\p{L}\p{N}])eu/u);
    expect(await search('machine learning EU')).toEqual([]);
  });

  it('"sql" finds SQL but not PostgreSQL; "learn" finds Learning', async () => {
    const sql = await search('sql');
    expect(sql.length).toBeGreaterThan(0);
    expect(engine.dataset.jobs.some((j) => j.active && !hasWord(j, 'sql') && text(j).includes('postgresql'))).toBe(
      true,
    );
    for (const job of sql) expect(text(job)).toMatch(/(?:^|[^\p{L}\p{N}])sql/u);
    expect((await search('learn')).length).toBe((await search('learning')).length);
  });

  it('a term that begins with a symbol needs no boundary before it', async () => {
    expect((await search('++')).length).toBe((await search('c++')).length);
  });
});
