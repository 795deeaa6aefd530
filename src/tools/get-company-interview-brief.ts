import * as z from 'zod';
import { InterviewBriefDataSchema } from '../contract/schemas.js';
import { VIEWS } from '../contract/views.js';
import { renderInterviewBrief } from '../render/interview-brief.js';
import { defineTool } from './define.js';
import { interviewBriefShape } from '../contract/params.js';

export const getCompanyInterviewBrief = defineTool({
  name: 'get_company_interview_brief',
  title: 'Get company interview brief',
  operation: 'getCompanyInterviewBrief',
  description:
    "How to prepare (prep, get ready, onsite) for an interview at one company: its hiring process (likely stages and rounds, take-home, what interviewers look for, focus on or test), topics, questions to ask, tips. Give one of company_id (a job's company.id), slug or name.",
  input: z.strictObject(interviewBriefShape).superRefine((args, ctx) => {
    const given = (['company_id', 'slug', 'name'] as const).filter((key) => args[key] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: given.length > 1 ? [given[1]!] : [],
        message:
          given.length === 0
            ? 'company_id, slug or name: give exactly one (none given)'
            : `give exactly one of company_id, slug, name (got ${given.join(' and ')})`,
      });
    }
  }),
  example: { slug: 'halcyon-labs' },
  data: InterviewBriefDataSchema,
  hints: {
    not_found:
      'No brief for that company. Use the company id or exact name from a job result (search_jobs), or its slug (lowercase words joined by hyphens).',
  },
  // The API takes company_id as a string: an integer goes as its decimal digits.
  call: (args, { client, ...options }) =>
    client.getCompanyInterviewBrief({ ...args, company_id: args.company_id?.toString() }, options),
  render: (data, _args, result) => renderInterviewBrief(data, Date.parse(result.retrievedAt), result.meta.generated_at),
  view: VIEWS.interviewBrief,
});
