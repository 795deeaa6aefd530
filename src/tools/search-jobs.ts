import * as z from 'zod';
import { JobListDataSchema } from '../contract/schemas.js';
import { VIEWS } from '../contract/views.js';
import { renderJobList } from '../render/jobs.js';
import { defineTool } from './define.js';
import { DEFAULT_PER_PAGE, searchJobsShape, toCents } from '../contract/params.js';

export const searchJobs = defineTool({
  name: 'search_jobs',
  title: 'Search jobs',
  operation: 'searchPublicJobs',
  description:
    'Find jobs: open AI (machine learning, LLM) and web3 (crypto) roles, positions, openings, vacancies, gigs for engineers (engineer, engineering), developers, researchers, data science; who is hiring or recruiting (companies, startups, labs), where to apply. Filters: skills, seniority (entry-level, junior, senior, staff…), remote (work from home), min/max USD a year. Use first for questions in words.',
  input: z
    .strictObject(searchJobsShape)
    // No job can match a minimum over the maximum: refuse it here rather than spend a request on it.
    .superRefine(({ min_salary_usd: min, max_salary_usd: max }, ctx) => {
      if (min !== undefined && max !== undefined && min > max)
        ctx.addIssue({
          code: 'custom',
          path: ['max_salary_usd'],
          message: `must be at least min_salary_usd (${min}), got ${max}`,
        });
    }),
  example: { q: 'machine learning engineer', domain: 'ai', remote_only: true, per_page: 3 },
  data: JobListDataSchema,
  call: (args, { client, ...options }) =>
    client.searchJobs(
      {
        ...args,
        per_page: args.per_page ?? DEFAULT_PER_PAGE,
        min_salary_usd: toCents(args.min_salary_usd),
        max_salary_usd: toCents(args.max_salary_usd),
      },
      options,
    ),
  render: (data, args, result) => renderJobList(data, args, Date.parse(result.retrievedAt)),
  freshness: { lastSeen: (data) => data.jobs.map((job) => [job.job_id, job.last_seen] as const) },
  view: VIEWS.jobList,
});
