import * as z from 'zod';
import { JobListDataSchema } from '../contract/schemas.js';
import { VIEWS } from '../contract/views.js';
import { renderJobList } from '../render/jobs.js';
import { defineTool } from './define.js';
import { DEFAULT_PER_PAGE, jobListShape } from '../contract/params.js';

export const listJobs = defineTool({
  name: 'list_jobs',
  title: 'List jobs',
  operation: 'listPublicJobs',
  description:
    'Browse all job postings page by page (next page, more results) with filters; for words prefer search_jobs.',
  input: z.strictObject(jobListShape),
  example: { domain: 'web3', seniority_level: 'senior', per_page: 3 },
  data: JobListDataSchema,
  call: (args, { client, ...options }) =>
    client.listJobs({ ...args, per_page: args.per_page ?? DEFAULT_PER_PAGE }, options),
  render: (data, args, result) => renderJobList(data, args, Date.parse(result.retrievedAt)),
  freshness: { lastSeen: (data) => data.jobs.map((job) => [job.job_id, job.last_seen] as const) },
  view: VIEWS.jobList,
});
