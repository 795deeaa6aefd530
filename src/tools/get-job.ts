import * as z from 'zod';
import { PublicJobSchema } from '../contract/schemas.js';
import { VIEWS } from '../contract/views.js';
import { renderJobDetail } from '../render/jobs.js';
import { defineTool } from './define.js';
import { include_predicted_salaries, job_id } from '../contract/params.js';

export const getJob = defineTool({
  name: 'get_job',
  title: 'Get job details',
  operation: 'getPublicJob',
  description:
    'About one AI or web3 job, role or opening: its full posting or listing (details, description, requirements, skills, salary, location, application link, how to apply); not_found: no longer open or live. Call before recommending it.',
  input: z.strictObject({ job_id, include_predicted_salaries: include_predicted_salaries.optional() }),
  example: { job_id: 'job_ai_0013' },
  data: PublicJobSchema,
  call: ({ job_id: id, include_predicted_salaries: predicted }, { client, ...options }) =>
    client.getJob(id, { include_predicted_salaries: predicted }, options),
  render: (job, _args, result) => renderJobDetail(job, Date.parse(result.retrievedAt)),
  freshness: { lastSeen: (job) => [[job.job_id, job.last_seen]] },
  view: VIEWS.job,
});
