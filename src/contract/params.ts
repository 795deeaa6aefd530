/**
 * The one vocabulary of arguments, named as in the REST API and constrained as the spec says, so
 * a bad argument is refused before any request is sent. Descriptions stay short: the catalog is
 * paid for in every conversation.
 */
import * as z from 'zod';
import { COUNTRY_PATTERN, DOMAINS, MARKET_MAP_STATUSES, SKILL_MATCHES, SLUG_PATTERN } from './schemas.js';
import { findCandidateData } from '../lib/candidate-data.js';

/**
 * Refuses candidate data (an e-mail address or a phone number, in any of the forms
 * candidate-data.ts knows) in an argument that goes into a public query string. A check, not a
 * pattern: invisible in the JSON Schema clients see, and linear in the length of the value.
 */
function refuseCandidateData(value: string, ctx: z.RefinementCtx): void {
  const found = findCandidateData(value);
  if (found)
    ctx.addIssue({
      code: 'custom',
      message: `must not contain ${found}: candidate data never goes into public search queries`,
    });
}

/**
 * Our own bounds, where the spec gives none: they keep a value to a sane size and refuse an empty
 * skill list, by name like any other, but are not the spec's constraints, so tools/list does not pay
 * for them in every conversation (tools/listed-schema.ts leaves out every check in this set).
 */
export const GUARDS = new WeakSet<z.core.$ZodCheck<never>>();
function guard<T extends z.core.$ZodCheck<never>>(check: T): T {
  GUARDS.add(check);
  return check;
}
const guardLength = (max: number) => guard(z.maxLength(max, { abort: true }));
const guardNotEmpty = () => guard(z.minLength(1, { abort: true }));

/**
 * Free text for a public query string. The length checks abort, so an over-long value is refused
 * for its length alone and never scanned. `max` is the spec's, or else ours (`guarded`).
 */
const publicText = (max: number, guarded = false) =>
  z
    .string()
    .min(1, { abort: true })
    .check(guarded ? guardLength(max) : z.maxLength(max, { abort: true }))
    .superRefine(refuseCandidateData);

const q = publicText(200);
const domain = z.enum(DOMAINS);
const skills = z
  .array(
    z
      .string()
      .check(guardNotEmpty(), guardLength(60))
      .regex(/^[^,]+$/, 'must not contain a comma (give each skill as its own item)')
      // The API trims items and drops empty ones, so [" "] would be refused upstream as no skill at
      // all. A refine, not a second regex, so that the refusal says what is wrong.
      .refine((value) => /\S/.test(value), 'must not be blank')
      .superRefine(refuseCandidateData),
  )
  .check(guardNotEmpty(), guardLength(20));
const skill_match = z.enum(SKILL_MATCHES);
const label = publicText(60, true);
const remote_only = z.boolean();
const location_country = z.string().regex(COUNTRY_PATTERN);
// The spec gives no maximum; the safe-integer bound only keeps the value a plain JSON number. The
// API's rule (src/offline/README.md): a range counts when any of it meets the threshold. Said in the
// schema and beside the jobs of every answer filtered by salary, or a model reads min_salary_usd
// 150000 as "every result pays over $150k".
const salary_usd = z.number().min(0).max(Number.MAX_SAFE_INTEGER);
/**
 * A USD amount as sent: to the cent. String(1e-7) is "1e-7" and the API's numbers are plain
 * decimals, so sub-cent noise must not reach the query string in exponent form.
 */
export const toCents = (usd: number | undefined) => (usd === undefined ? undefined : Math.round(usd * 100) / 100);
const page = z.number().int().min(1);
/**
 * The page size of the job tools when none is asked for. The API's is 20; ten jobs are what a reader
 * scans, each paid for in the model's context, and the page line says how to get the next ten.
 */
export const DEFAULT_PER_PAGE = 10;
const per_page = z.number().int().min(1).max(100).meta({ default: DEFAULT_PER_PAGE });
export const include_predicted_salaries = z.boolean();
// It goes into the URL path, and encodeURIComponent throws on a lone surrogate (an internal_error
// instead of naming the argument); query values are encoded without throwing.
export const job_id = z
  .string()
  .min(1)
  .check(guardLength(200))
  .refine((value) => !/\p{Surrogate}/u.test(value), 'must be well-formed Unicode (it holds a lone surrogate)')
  // '.' and '..' are dot segments: URL parsing resolves them away, so they would address another path.
  .refine((value) => value !== '.' && value !== '..', 'must be a job identifier, not "." or ".."')
  .describe('From search_jobs/list_jobs.');
const market_status = z.enum(MARKET_MAP_STATUSES);
const layer = publicText(60, true).describe('From an unfiltered call.');
/**
 * A job carries its company's id as an integer (PublicJob's company.id) and the brief takes it as a
 * string: both are accepted, so an id passes from one tool to the next as the model saw it.
 */
const company_id = z.union([
  // The integer goes into the same public query string as the text, so the same check applies.
  z.int().superRefine((value, ctx) => refuseCandidateData(String(value), ctx)),
  publicText(200, true),
]);
const slug = z.string().check(guardLength(160)).regex(SLUG_PATTERN).superRefine(refuseCandidateData);
const company_name = publicText(160);

/** Arguments both job-list tools take. */
export const jobListShape = {
  q: q.optional(),
  domain: domain.optional(),
  skills: skills.optional(),
  seniority_level: label.optional(),
  remote_only: remote_only.optional(),
  location_country: location_country.optional(),
  page: page.optional(),
  per_page: per_page.optional(),
  include_predicted_salaries: include_predicted_salaries.optional(),
};

export const searchJobsShape = {
  ...jobListShape,
  skill_match: skill_match.optional(),
  company_type: label.optional(),
  min_salary_usd: salary_usd.describe('Annual; keeps ranges whose top reaches it').optional(),
  max_salary_usd: salary_usd.describe('Annual; keeps ranges starting at or below it').optional(),
};

export const marketMapShape = { status: market_status.optional(), layer: layer.optional() };

export const interviewBriefShape = {
  company_id: company_id.optional(),
  slug: slug.optional(),
  name: company_name.optional(),
};

// The REST parameters as the tools validate them: the API client's parameter types, stated once.
type ParamsOf<Shape extends z.ZodRawShape> = z.infer<z.ZodObject<Shape>>;
export type JobListParams = ParamsOf<typeof jobListShape>;
export type SearchJobsParams = ParamsOf<typeof searchJobsShape>;
export type MarketMapParams = ParamsOf<typeof marketMapShape>;
export type InterviewBriefParams = ParamsOf<typeof interviewBriefShape>;
