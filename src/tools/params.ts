/**
 * The one vocabulary of arguments, named as in the REST API and constrained as the spec says, so
 * a bad argument is refused before any request is sent. Descriptions stay short: the catalog is
 * paid for in every conversation.
 */
import { z } from 'zod';
import { COUNTRY_PATTERN, DOMAINS, MARKET_MAP_STATUSES, SKILL_MATCHES, SLUG_PATTERN } from '../api/schemas.js';

const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;
// Written phone numbers (international, North American, UK trunk, bare 10-15 digits), but not
// runs of years such as "2024 2025 2026", which are ordinary search terms.
const PHONE = /\+\d[\d\s().-]{6,}\d|\(\d{2,4}\)\s?\d{3,4}[\s.-]?\d{3,4}\b|\b\d{3}[\s.-]\d{3,4}[\s.-]\d{4}\b|\b0\d{3,4}[\s.-]?\d{6,7}\b|\b\d{10,15}\b/;

// The length checks abort: the privacy patterns backtrack quadratically on long input, so a
// 1 MB q must be refused for its length before they run (it blocked the process for minutes).
export const q = z
  .string()
  .min(1, { abort: true })
  .max(200, { abort: true })
  .refine((value) => !EMAIL.test(value), 'must not contain an e-mail address: candidate data never goes into public search queries')
  .refine((value) => !PHONE.test(value), 'must not contain a phone number: candidate data never goes into public search queries')
  .describe('Text over title, company, skills.');
export const domain = z.enum(DOMAINS);
export const skills = z
  .array(
    z
      .string()
      .min(1)
      .max(60)
      .regex(/^[^,]+$/, 'must not contain a comma (give each skill as its own item)')
      // The API trims items and drops empty ones, so [" "] would be refused upstream as no skill at
      // all. A refine, not a second regex: that would double the pattern in every client's catalog.
      .refine((value) => /\S/.test(value), 'must not be blank'),
  )
  .min(1)
  .max(20)
  .describe('e.g. ["python","rust"]');
export const skill_match = z.enum(SKILL_MATCHES);
export const label = z.string().min(1).max(60);
export const remote_only = z.boolean();
export const location_country = z.string().regex(COUNTRY_PATTERN).describe('ISO alpha-2, e.g. US');
// The spec gives no maximum; the safe-integer bound only keeps the value a plain JSON number.
export const salary_usd = z.number().min(0).max(Number.MAX_SAFE_INTEGER);
/**
 * A USD amount as sent: to the cent. String(1e-7) is "1e-7" and the API's numbers are plain
 * decimals, so sub-cent noise must not reach the query string in exponent form.
 */
export const toCents = (usd: number | undefined) => (usd === undefined ? undefined : Math.round(usd * 100) / 100);
export const page = z.number().int().min(1);
export const per_page = z.number().int().min(1).max(100);
export const include_predicted_salaries = z.boolean();
// It goes into the URL path, and encodeURIComponent throws on a lone surrogate (an internal_error
// instead of naming the argument); query values are encoded without throwing.
export const job_id = z
  .string()
  .min(1)
  .max(200)
  .refine((value) => !/\p{Surrogate}/u.test(value), 'must be well-formed Unicode (it holds a lone surrogate)')
  // '.' and '..' are dot segments: URL parsing resolves them away, so they would address another path.
  .refine((value) => value !== '.' && value !== '..', 'must be a job identifier, not "." or ".."')
  .describe('From search_jobs/list_jobs.');
export const market_status = z.enum(MARKET_MAP_STATUSES);
export const layer = z.string().min(1).max(60).describe('As listed by an unfiltered call.');
export const company_id = z.string().min(1).max(200);
export const slug = z.string().max(160).regex(SLUG_PATTERN);
export const company_name = z.string().min(1).max(160);

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
