import { z } from 'zod';
import { JobListDataSchema } from '../api/schemas.js';
import { renderJobList } from '../render/jobs.js';
import { defineTool } from './define.js';
import { jobListShape, label, salary_usd, skill_match } from './params.js';

export const searchJobs = defineTool({
  name: 'search_jobs',
  title: 'Search jobs',
  description:
    'Search AI and web3 job postings by text and filters (salaries: annual USD). Use first for questions in words. Returns job_id, title, company, location, freshness, last_seen, salary with evidence class, paging. get_job before recommending.',
  input: z.strictObject({
    ...jobListShape,
    skill_match: skill_match.optional(),
    company_type: label.optional(),
    min_salary_usd: salary_usd.optional(),
    max_salary_usd: salary_usd.optional(),
  }),
  example: { q: 'machine learning engineer', domain: 'ai', remote_only: true, per_page: 3 },
  data: JobListDataSchema,
  call: (args, { client, ...options }) => client.searchJobs(args, options),
  render: (data, args) => renderJobList(data, args.include_predicted_salaries === true),
});
