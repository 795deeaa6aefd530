/**
 * Jobs as compact lines for a model: every field the contract requires (job_id, title, company,
 * location/remote, freshness, last_seen, salary with its evidence class), nothing else, in one pass.
 * Every upstream string is shown as data (`datum` or `quote`), so none can pass for our layout.
 */
import { ageSeconds } from '../contract/age.js';
import type { JobListData, Pagination, PublicJob } from '../contract/schemas.js';
import { describeAge } from '../lib/age-words.js';
import { phraseSuggestion, renderNoMatch, type JobListArgs } from './no-match.js';
import { renderSalary } from './salary.js';
import { fencedData } from '../lib/fence.js';
import { datum, oneLine, quote } from '../lib/text.js';

/** Whether `text` already says `label` as a word ("Senior ML Engineer" says senior). */
function says(text: string, label: string): boolean {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}+#.-]+/u);
  return words.includes(label.toLowerCase());
}

/** Location and remote status; a status the location already says ("Remote (EMEA)"; remote) is said once. */
function where(job: PublicJob): string {
  const place = job.location_text ? oneLine(job.location_text, 60) : '';
  const country = job.location_country ? oneLine(job.location_country, 8) : '';
  let location = 'location not stated';
  if (place && country && !place.includes(country)) location = `${datum(place, 60)}, ${datum(country, 8)}`;
  else if (place || country) location = datum(place || country, 60);
  const status = job.remote_status;
  return status && !says(place, status) ? `${location}; ${datum(status, 20)}` : location;
}

/** The company's type, id and slug (when the API gives one): what get_company_interview_brief takes. */
function companyFacts(job: PublicJob): string {
  const { type, id, slug } = job.company as PublicJob['company'] & { slug?: unknown };
  const facts = [
    type ? datum(type, 30) : '',
    typeof id === 'number' ? `company_id ${id}` : '',
    typeof slug === 'string' && slug !== '' ? `slug ${datum(slug, 80)}` : '',
  ].filter(Boolean);
  return facts.length > 0 ? ` (${facts.join('; ')})` : '';
}

/** A timestamp's calendar date: with its age beside it, the time of day says little (it is in structuredContent). */
const dayOf = (value: string) => (/^\d{4}-\d{2}-\d{2}[T ]/.test(value) ? value.slice(0, 10) : value);

/**
 * last_seen's age, in days taken from the date the line shows (so two lines with one date never
 * read 8 and 9 days ago); under two days the age is in hours, from the full timestamp.
 */
function shownAge(lastSeen: string | null | undefined, at: number): number | null {
  const exact = ageSeconds(lastSeen, at);
  return exact === null || exact < 2 * 86_400 || !lastSeen ? exact : ageSeconds(dayOf(lastSeen), at);
}

/**
 * One job on one line (two for detail), e.g.
 * `job_ai_0001 "Staff ML Engineer" at "Acme" (ai_lab) | …`: the seniority label follows the title
 * when the title does not say it, and the company's type and id the company (unless `factsSaid`, on
 * an earlier line), so a reader sees the labels those filters take and the id the brief takes, from
 * the text alone. With `at`, last_seen is its date and its age.
 */
export function renderJobLine(job: PublicJob, at?: number, factsSaid = false): string {
  const level = job.seniority_level;
  const seniority = level && !says(job.title, level) ? ` (${datum(level, 30)})` : '';
  const company = `${quote(job.company.name, 80)}${factsSaid ? '' : companyFacts(job)}`;
  const age = at === undefined ? undefined : describeAge(shownAge(job.last_seen, at));
  const seen = job.last_seen
    ? age === undefined
      ? `last_seen ${datum(job.last_seen, 30)}`
      : `last_seen ${datum(dayOf(job.last_seen), 30)} (${age})`
    : 'last_seen not stated';
  return `${datum(job.job_id, 80)} ${quote(job.title, 120)}${seniority} at ${company} | ${where(job)} | ${datum(job.freshness, 20)}, ${seen} | salary: ${renderSalary(job.salary)}`;
}

function renderPagination(p: Pagination, shown: number): string {
  if (shown === 0 && p.page > p.total_pages)
    return `Page ${p.page} is past the last page: ${p.total} total in ${p.total_pages} page(s) of ${p.per_page}; ask for page 1–${p.total_pages}.`;
  const range =
    shown === 0 ? 'no jobs on this page' : `jobs ${(p.page - 1) * p.per_page + 1}–${(p.page - 1) * p.per_page + shown}`;
  const next = p.has_next ? `; next: same arguments with page=${p.page + 1}` : '; last page';
  return `Page ${p.page} of ${p.total_pages}, ${p.total} total (${range})${next}.`;
}

/**
 * The salary thresholds and the rule they were applied by: a range passes when any of it meets the
 * threshold, so a model must not read "min_salary_usd 150000" as "every job here pays 150000+".
 */
function renderSalaryFilter({ min_salary_usd: min, max_salary_usd: max }: JobListArgs): string | undefined {
  const rules = [
    min === undefined
      ? ''
      : `min_salary_usd ${String(min)} keeps a range whose top reaches it, so a range may start below it`,
    max === undefined
      ? ''
      : `max_salary_usd ${String(max)} keeps a range whose bottom is at or below it, so a range may end above it`,
  ].filter(Boolean);
  if (rules.length === 0) return undefined;
  return `Salary filter (on the API's annualized USD conversion of each salary): ${rules.join('; ')}. The ranges above are in each posting's own currency (ISO code beside a non-USD one), not converted here.`;
}

/** A page of jobs; `args`, the tool's, are named when nothing matched them; `at`: when retrieved. */
export function renderJobList(data: JobListData, args: JobListArgs = {}, at?: number): string {
  const includePredicted = args.include_predicted_salaries === true;
  const none = data.jobs.length === 0 && data.pagination.total === 0;
  // Nothing at all matched: the page line would only say so again.
  const lines = none && data.pagination.page === 1 ? [] : [renderPagination(data.pagination, data.jobs.length)];
  if (none) lines.push(renderNoMatch(args));
  let hiddenPredictions = false;
  // A company's facts on its first line only, unless two companies of the page share its name.
  const factsOf = new Map<string, Set<string>>();
  for (const job of data.jobs)
    factsOf.set(job.company.name, (factsOf.get(job.company.name) ?? new Set()).add(companyFacts(job)));
  const said = new Set<string>();
  // Numbered as the page line's range counts them: on page 2 of 10 a page, "job 11" is the first.
  const before = (data.pagination.page - 1) * data.pagination.per_page;
  data.jobs.forEach((job, index) => {
    const name = job.company.name;
    lines.push(`${before + index + 1}. ${renderJobLine(job, at, said.has(name) && factsOf.get(name)!.size === 1)}`);
    said.add(name);
    hiddenPredictions ||= job.salary === null && !includePredicted;
  });
  if (hiddenPredictions)
    lines.push(
      'salary: none = no disclosed or extracted range; model estimates only with include_predicted_salaries=true.',
    );
  const salaryFilter = data.jobs.length > 0 ? renderSalaryFilter(args) : undefined;
  if (salaryFilter) lines.push(salaryFilter);
  const suggestion = data.jobs.length > 0 ? phraseSuggestion(args) : undefined;
  if (suggestion)
    lines.push(
      `The jobs above did not use the filters some words of q name (q matched them as text only); the call with those filters: ${suggestion}`,
    );
  if (data.jobs.length > 0)
    lines.push('Postings are evidence of demand, not of hires. Fetch a job with get_job before recommending it.');
  return lines.join('\n');
}

/** Detail view: the summary line, then the remaining fields a reader needs to judge the posting. */
export function renderJobDetail(job: PublicJob, at?: number): string {
  const lines = [renderJobLine(job, at)];
  lines.push(
    `role: ${quote(job.role.label, 80)}${job.role.confidence === null ? '' : ` (confidence ${job.role.confidence})`} | seniority: ${job.seniority_level ? datum(job.seniority_level, 30) : 'not stated'} | domain: ${job.domain_id} (${job.domain_assignment})`,
  );
  if (job.skills.length > 0) lines.push(`skills: ${job.skills.map((s) => datum(s, 40)).join(', ')}`);
  if (job.url) lines.push(`url: ${datum(job.url, 300)}`);
  const extras = Object.fromEntries(
    (['requirements', 'operating_expectations', 'proof_signals', 'evidence_quality'] as const)
      .filter((key) => job[key] !== undefined)
      .map((key) => [key, job[key]]),
  );
  if (Object.keys(extras).length > 0) lines.push(`Posting details (upstream data):\n${fencedData(extras, 3_000)}`);
  return lines.join('\n');
}
