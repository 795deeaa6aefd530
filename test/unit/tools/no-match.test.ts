/** A job list with no results says which filters were applied and how to find values that match. */
import { beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { renderJobList } from '../../../src/render/jobs.js';
import type { ToolContext } from '../../../src/tools/define.js';
import { findTool } from '../../helpers/tools.js';
import { runTool } from '../../../src/tools/run.js';
import { jobListBody, makeJob } from '../../helpers/fixtures.js';
import { offlineClient } from '../../helpers/offline-client.js';

const empty = jobListBody([]).data;
const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

let context: ToolContext;
beforeAll(async () => {
  context = { client: offlineClient(await createOfflineEngine()), mode: 'embedded' };
});

describe('empty job lists', () => {
  it('name the filters applied (not paging), and say how to find the labels a normalised filter takes', () => {
    const lines = renderJobList(empty, {
      seniority_level: 'mid-senior',
      remote_only: true,
      skills: ['rust', 'go'],
      page: 1,
      per_page: 5,
      include_predicted_salaries: false,
    }).split('\n');
    // Nothing matched at all: no paging line, which would only say 0 again.
    expect(lines[0]).toBe(
      'No job matches all of these filters: seniority_level "mid-senior", remote_only true, skills ["rust", "go"].',
    );
    expect(lines[1]).toBe(
      "seniority_level takes the API's normalised labels, and a label it does not use matches nothing. To see the labels in use, search again without it and read them in the results (the seniority label follows each job title that does not say it), or check what discover_api advertises.",
    );
    expect(lines[2]).toBe('Drop or loosen one filter at a time to see which one excludes every job.');
    expect(lines).toHaveLength(3);
  });

  it('never invent a value: without a normalised label the hint is only about the filters given', () => {
    const text = renderJobList(empty, { q: 'quantum "basket" weaving', min_salary_usd: 900000 });
    expect(text).toContain(
      'No job matches all of these filters: q "quantum \\"basket\\" weaving", min_salary_usd 900000.',
    );
    expect(text).not.toContain('normalised');
    expect(renderJobList(empty, { location_country: 'ZZ' })).toContain('Loosen or drop this filter.');
  });

  it('a q that matches nothing as text gets what to try with its words; then the search finds jobs', async () => {
    const search = (args: Record<string, unknown>) => runTool(findTool('search_jobs')!, args, context);
    const several = text(await search({ q: 'smart contract auditor' })).split('\n');
    expect(several.slice(1)).toEqual([
      'No job matches all of these filters: q "smart contract auditor".',
      'q is matched as text (every word must appear in a title, company or skill): try fewer of its words, or each alone.',
      expect.stringMatching(/^Provenance: /),
    ]);
    const found = async (q: string) =>
      ((await search({ q })).structuredContent as { data: { jobs: unknown[] } }).data.jobs.length;
    expect(await found('smart contract')).toBeGreaterThan(0);
    const one = text(await search({ q: 'auditor' }));
    expect(one).toContain(
      'q is matched as text (every word must appear in a title, company or skill): try a shorter or other form of the word (a stem, a singular).',
    );
    expect(one).not.toContain('Loosen or drop');
    expect(await found('audit')).toBeGreaterThan(0);
    // With other filters, which one excludes every job is unknown: both lines.
    const more = text(await search({ q: 'smart contracts', remote_only: true }));
    expect(more).toContain('try fewer of its words, or each alone.');
    expect(more).toContain('Drop or loosen one filter at a time');
  });

  it('say so when the API has no jobs at all, with no filter applied', () => {
    expect(renderJobList(empty, { page: 1 })).toBe('No jobs at all: the API returned none with no filter applied.');
  });

  it('add nothing to a page that has jobs, or to a page past the end of a non-empty list', () => {
    expect(renderJobList(jobListBody([makeJob()]).data, { seniority_level: 'staff' })).not.toContain('No job matches');
    expect(renderJobList(jobListBody([], 3, 20, 40).data, { seniority_level: 'staff' })).not.toContain(
      'No job matches',
    );
  });

  it.each([
    ['search_jobs', { seniority_level: 'mid-senior' }, 'seniority_level takes'],
    ['search_jobs', { company_type: 'AI lab' }, 'company_type takes'],
    ['search_jobs', { company_type: 'AI lab', seniority_level: 'mid-senior' }, 'company_type and seniority_level take'],
    ['list_jobs', { seniority_level: 'mid-senior' }, 'seniority_level takes'],
  ])('%s %j over the offline API', async (name, args, expected) => {
    const result = await runTool(findTool(name)!, args, context);
    expect(text(result)).toMatch(/^FICTIONAL sample data[^\n]*\nNo job matches all of these filters: /);
    expect(text(result)).toContain(expected);
  });

  it('the labels the hint points to are on the lines of a broader search', async () => {
    const result = await runTool(findTool('search_jobs')!, { per_page: 20 }, context);
    const jobs = (
      result.structuredContent as {
        data: { jobs: Array<{ seniority_level: string | null; company: { type: string | null } }> };
      }
    ).data.jobs;
    // After the fiction line and the paging line: each label after the title unless the title says
    // it, and each company's type on its first job.
    const lines = text(result).split('\n').slice(2, 22);
    const seen = new Set<string>();
    jobs.forEach((job, i) => {
      const level = job.seniority_level;
      if (level) {
        const title = /^\d+\. \S+ "([^"]*)"( \(([^)]*)\))? at /.exec(lines[i]!)!;
        if (title[3] !== undefined) expect(title[3]).toBe(level);
        else expect(title[1]!.toLowerCase().split(/[^a-z0-9+#.-]+/)).toContain(level.toLowerCase());
      }
      const name = (job.company as { name?: string }).name!;
      if (job.company.type && !seen.has(name)) expect(lines[i]).toContain(`" (${job.company.type}; company_id `);
      seen.add(name);
    });
  });
});
