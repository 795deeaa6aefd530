/**
 * Filtering, salary projection and pagination of the job read model: the semantics of list and
 * search over the snapshot. Dataset order is response order (most recently seen first).
 */
import type { Pagination, PublicJob } from '../contract/schemas.js';
import { PER_YEAR, type Dataset, type StoredJob } from './dataset.js';
import type { ParamValues } from './validate-params.js';

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const num = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** Builds a query from validated parameters; absent search-only members mean "no filter". */
export function jobQueryFrom(values: ParamValues) {
  return {
    q: str(values.q),
    domain: str(values.domain),
    skills: Array.isArray(values.skills) ? values.skills : undefined,
    skillMatch: values.skill_match === 'all' ? ('all' as const) : ('any' as const),
    companyType: str(values.company_type),
    seniorityLevel: str(values.seniority_level),
    remoteOnly: values.remote_only === true,
    locationCountry: str(values.location_country),
    minSalaryUsd: num(values.min_salary_usd),
    maxSalaryUsd: num(values.max_salary_usd),
    includePredicted: values.include_predicted_salaries === true,
    page: num(values.page) ?? 1,
    perPage: num(values.per_page) ?? 20,
  };
}
type JobQuery = ReturnType<typeof jobQueryFrom>;

/**
 * The job's salary as an annualized USD range [low, high], or null when there is no usable
 * salary: none at all, a predicted one the caller did not ask for, no amounts, or a currency
 * missing from the snapshot's fixed FX table. A one-sided range counts as a single point.
 */
function annualUsdRange(
  stored: StoredJob,
  fxToUsd: Record<string, number>,
  includePredicted: boolean,
): [number, number] | null {
  const salary = stored.job.salary;
  if (!salary || stored.salary_period === null) return null;
  if (salary.source === 'predicted' && !includePredicted) return null;
  const rate = fxToUsd[salary.currency];
  const low = salary.min ?? salary.max;
  const high = salary.max ?? salary.min;
  if (rate === undefined || low === null || high === null) return null;
  const factor = rate * PER_YEAR[stored.salary_period];
  return [low * factor, high * factor];
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/**
 * Whether `term` starts a word of `haystack` (both lowercase): found where the character before is
 * no letter, digit or mark. A term that begins with a symbol (".net", "#rust") needs no boundary.
 * Matching inside words made "eu" find "Neural" and "go" find "Django".
 */
function startsAWord(haystack: string, term: string): boolean {
  const needsBoundary = WORD_CHAR.test(term[0]!);
  for (let at = haystack.indexOf(term); at !== -1; at = haystack.indexOf(term, at + 1)) {
    if (!needsBoundary || at === 0 || !WORD_CHAR.test(haystack[at - 1]!)) return true;
  }
  return false;
}

function matchesText(job: PublicJob, q: string): boolean {
  const haystack = [job.title, job.company.name, ...job.skills].join('\n').toLowerCase();
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter((term) => term !== '')
    .every((term) => startsAWord(haystack, term));
}

function matchesSkills(job: PublicJob, skills: string[], mode: 'any' | 'all'): boolean {
  const have = new Set(job.skills.map((s) => s.toLowerCase()));
  const wanted = skills.map((s) => s.toLowerCase());
  return mode === 'all' ? wanted.every((s) => have.has(s)) : wanted.some((s) => have.has(s));
}

const sameLabel = (value: string | null, wanted: string) =>
  value !== null && value.toLowerCase() === wanted.toLowerCase();

function matchesQuery(stored: StoredJob, query: JobQuery, fxToUsd: Record<string, number>): boolean {
  const job = stored.job;
  if (!stored.active) return false;
  if (query.q !== undefined && !matchesText(job, query.q)) return false;
  if (query.domain !== undefined && job.domain_id !== query.domain) return false;
  if (query.skills !== undefined && !matchesSkills(job, query.skills, query.skillMatch)) return false;
  if (query.companyType !== undefined && !sameLabel(job.company.type, query.companyType)) return false;
  if (query.seniorityLevel !== undefined && !sameLabel(job.seniority_level, query.seniorityLevel)) return false;
  if (query.remoteOnly && job.remote_status !== 'remote') return false;
  if (query.locationCountry !== undefined && !sameLabel(job.location_country, query.locationCountry)) return false;
  if (query.minSalaryUsd !== undefined || query.maxSalaryUsd !== undefined) {
    const range = annualUsdRange(stored, fxToUsd, query.includePredicted);
    if (range === null) return false;
    if (query.minSalaryUsd !== undefined && range[1] < query.minSalaryUsd) return false;
    if (query.maxSalaryUsd !== undefined && range[0] > query.maxSalaryUsd) return false;
  }
  return true;
}

/** The job as served: a copy, with a predicted salary removed unless the caller asked for it. */
export function projectJob(stored: StoredJob, includePredicted: boolean): PublicJob {
  const job = structuredClone(stored.job);
  if (!includePredicted && job.salary?.source === 'predicted') job.salary = null;
  return job;
}

export function paginate(total: number, page: number, perPage: number): Pagination {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  return { page, per_page: perPage, total, total_pages: totalPages, has_next: page < totalPages, has_prev: page > 1 };
}

export function runJobQuery(dataset: Dataset, query: JobQuery): { jobs: PublicJob[]; pagination: Pagination } {
  const matching = dataset.jobs.filter((stored) => matchesQuery(stored, query, dataset.fx_to_usd));
  const start = (query.page - 1) * query.perPage;
  return {
    jobs: matching.slice(start, start + query.perPage).map((stored) => projectJob(stored, query.includePredicted)),
    pagination: paginate(matching.length, query.page, query.perPage),
  };
}

/** The filters that were applied, echoed in `data.filters` so a reader can see what was ignored. */
export function describeFilters(query: JobQuery, searchOnly: boolean): Record<string, unknown> {
  const filters: Record<string, unknown> = {
    q: query.q ?? null,
    domain: query.domain ?? null,
    skills: query.skills ?? null,
    seniority_level: query.seniorityLevel ?? null,
    remote_only: query.remoteOnly,
    location_country: query.locationCountry?.toUpperCase() ?? null,
    include_predicted_salaries: query.includePredicted,
  };
  if (searchOnly) {
    Object.assign(filters, {
      skill_match: query.skillMatch,
      company_type: query.companyType ?? null,
      min_salary_usd: query.minSalaryUsd ?? null,
      max_salary_usd: query.maxSalaryUsd ?? null,
    });
  }
  return filters;
}
