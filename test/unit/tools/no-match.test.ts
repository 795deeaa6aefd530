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
    expect(lines[0]).toBe('Page 1 of 1, 0 total (no jobs on this page); last page.');
    expect(lines[1]).toBe(
      'No job matches all of these filters: seniority_level "mid-senior", remote_only true, skills ["rust", "go"].',
    );
    expect(lines[2]).toBe(
      "seniority_level takes the API's normalised labels, and a label it does not use matches nothing. To see the labels in use, search again without it and read them in the results (the seniority label follows each job title), or check what discover_api advertises.",
    );
    expect(lines[3]).toBe('Drop or loosen one filter at a time to see which one excludes every job.');
    expect(lines).toHaveLength(4);
  });

  it('never invent a value: without a normalised label the hint is only about the filters given', () => {
    const text = renderJobList(empty, { q: 'quantum "basket" weaving', min_salary_usd: 900000 });
    expect(text).toContain(
      'No job matches all of these filters: q "quantum \\"basket\\" weaving", min_salary_usd 900000.',
    );
    expect(text).not.toContain('normalised');
    expect(renderJobList(empty, { location_country: 'ZZ' })).toContain('Loosen or drop this filter.');
  });

  it('say so when the API has no jobs at all, with no filter applied', () => {
    expect(renderJobList(empty, { page: 1 })).toBe(
      'Page 1 of 1, 0 total (no jobs on this page); last page.\nNo jobs at all: the API returned none with no filter applied.',
    );
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
    expect(text(result)).toMatch(
      /^FICTIONAL sample data[^\n]*\nPage 1 of 1, 0 total \(no jobs on this page\); last page\.\nNo job matches all of these filters: /,
    );
    expect(text(result)).toContain(expected);
  });

  it('the labels the hint points to are on the lines of a broader search', async () => {
    const result = await runTool(findTool('search_jobs')!, { per_page: 20 }, context);
    const jobs = (
      result.structuredContent as {
        data: { jobs: Array<{ seniority_level: string | null; company: { type: string | null } }> };
      }
    ).data.jobs;
    // After the fiction line and the paging line.
    const lines = text(result).split('\n').slice(2, 22);
    jobs.forEach((job, i) => {
      if (job.seniority_level)
        expect(lines[i]).toMatch(new RegExp(`^\\d+\\. \\S+ "[^"]*" \\(${job.seniority_level}\\) at `));
      if (job.company.type) expect(lines[i]).toContain(`" (${job.company.type}; company_id `);
    });
  });
});
