/**
 * The operations of the public read API and their query parameters, described once. The 400
 * rules (validate-params.ts), the OpenAPI document (openapi.ts) and the discovery catalog
 * (documents.ts) are all derived from this table, so they cannot drift apart.
 */
import { OPERATIONS as CONTRACT_OPERATIONS, type OperationId } from '../contract/operations.js';
import { COUNTRY_PATTERN, DOMAINS, MARKET_MAP_STATUSES, SKILL_MATCHES, SLUG_PATTERN } from '../contract/schemas.js';

interface ParamBase {
  name: string;
  description: string;
}
interface StringParam extends ParamBase {
  type: 'string';
  minLength?: number;
  maxLength?: number;
  pattern?: RegExp;
  /** How the pattern reads in an error message. */
  patternHint?: string;
  enum?: readonly string[];
  default?: string;
  /** Comma-separated list (skills); each item is trimmed, empty items are dropped. */
  list?: boolean;
}
interface IntegerParam extends ParamBase {
  type: 'integer';
  minimum: number;
  maximum?: number;
  default: number;
}
interface NumberParam extends ParamBase {
  type: 'number';
  minimum: number;
}
interface BooleanParam extends ParamBase {
  type: 'boolean';
  default: boolean;
}
export type ParamSpec = StringParam | IntegerParam | NumberParam | BooleanParam;

type Rules<P extends ParamSpec> = Omit<P, 'name' | 'type' | 'description'>;
const text = (name: string, description: string, rules: Rules<StringParam> = {}): StringParam => ({
  name,
  type: 'string',
  ...rules,
  description,
});
const integer = (name: string, description: string, rules: Rules<IntegerParam>): IntegerParam => ({
  name,
  type: 'integer',
  ...rules,
  description,
});
/** An annualized USD amount. */
const usd = (name: string, description: string): NumberParam => ({ name, type: 'number', minimum: 0, description });
/** A switch, off unless sent as true. */
const flag = (name: string, description: string): BooleanParam => ({
  name,
  type: 'boolean',
  default: false,
  description,
});

const q = text(
  'q',
  'Free-text terms, case-insensitive; every term must begin a word of the title, the company name or a skill (a term may be the start of a longer word).',
  { minLength: 1, maxLength: 200 },
);
const domain = text('domain', 'Hiring vertical; all verticals when omitted.', { enum: DOMAINS });
const skills = text('skills', 'Comma-separated skill names, matched case-insensitively against whole skills.', {
  minLength: 1,
  list: true,
});
const skillMatch = text('skill_match', 'Whether any or all of the skills must match.', {
  enum: SKILL_MATCHES,
  default: 'any',
});
const companyType = text(
  'company_type',
  'Normalized company type label, such as ai_lab, startup, protocol, exchange, enterprise or dao (case-insensitive).',
  { minLength: 1 },
);
const seniority = text(
  'seniority_level',
  'Normalized seniority label, such as junior, mid, senior, staff, principal or lead (case-insensitive).',
  { minLength: 1 },
);
const remoteOnly = flag('remote_only', 'When true, only jobs classified remote.');
const country = text('location_country', 'Country of the job, normally ISO 3166-1 alpha-2; case-insensitive.', {
  minLength: 2,
  maxLength: 2,
  pattern: COUNTRY_PATTERN,
  patternHint: 'exactly two letters (an ISO 3166-1 alpha-2 code such as US or DE)',
});
const minSalary = usd(
  'min_salary_usd',
  'Annualized USD minimum: keeps jobs whose salary range reaches at least this amount. Jobs without a usable salary are excluded.',
);
const maxSalary = usd(
  'max_salary_usd',
  'Annualized USD maximum: keeps jobs whose salary range starts at or below this amount. Jobs without a usable salary are excluded.',
);
const page = integer('page', 'One-based page number.', { minimum: 1, default: 1 });
const perPage = integer('per_page', 'Page size.', { minimum: 1, maximum: 100, default: 20 });
const includePredicted = flag(
  'include_predicted_salaries',
  'Include model-derived (predicted) salary estimates; when false, a predicted salary is returned as null and does not count for salary thresholds.',
);
const status = text('status', 'Dimension readiness to keep.', { enum: MARKET_MAP_STATUSES, default: 'all' });
const layer = text(
  'layer',
  'Layer to keep; valid values are those advertised in data.layers of an unfiltered response, or all.',
  { minLength: 1, default: 'all' },
);
const companyId = text('company_id', 'Stable company identifier. Wins over slug and name when several are given.', {
  minLength: 1,
});
const slug = text('slug', 'Company slug. Wins over name when both are given.', {
  minLength: 1,
  pattern: SLUG_PATTERN,
  patternHint: 'lowercase letters and digits joined by single hyphens (such as northwind-neural)',
});
const name = text('name', 'Company name, case-insensitive; used only when no stable identifier is known.', {
  minLength: 1,
  maxLength: 160,
});

export const SEARCH_PARAMS: readonly ParamSpec[] = [
  q,
  domain,
  skills,
  skillMatch,
  companyType,
  seniority,
  remoteOnly,
  country,
  minSalary,
  maxSalary,
  page,
  perPage,
  includePredicted,
];
/** The job list takes search's parameters but the search-only filters, in the same order. */
const SEARCH_ONLY: readonly ParamSpec[] = [skillMatch, companyType, minSalary, maxSalary];
export const LIST_PARAMS = SEARCH_PARAMS.filter((spec) => !SEARCH_ONLY.includes(spec));
export const DETAIL_PARAMS: readonly ParamSpec[] = [includePredicted];
export const MARKET_MAP_PARAMS: readonly ParamSpec[] = [status, layer];
export const INTERVIEW_PARAMS: readonly ParamSpec[] = [companyId, slug, name];

export type SuccessShape = 'discovery' | 'job_list' | 'job' | 'market_map' | 'interview' | 'health';

/** What the offline API adds to the contract's table: the query each operation reads and the shape of its answer. */
const SERVED: Record<OperationId, { query: readonly ParamSpec[]; success: SuccessShape }> = {
  discoverPublicApi: { query: [], success: 'discovery' },
  searchPublicJobs: { query: SEARCH_PARAMS, success: 'job_list' },
  listPublicJobs: { query: LIST_PARAMS, success: 'job_list' },
  getPublicJob: { query: DETAIL_PARAMS, success: 'job' },
  getPublicMarketMap: { query: MARKET_MAP_PARAMS, success: 'market_map' },
  getCompanyInterviewBrief: { query: INTERVIEW_PARAMS, success: 'interview' },
  getHostedMcpHealth: { query: [], success: 'health' },
};

export const OPERATIONS = (Object.keys(SERVED) as OperationId[]).map((operationId) => ({
  operationId,
  ...CONTRACT_OPERATIONS[operationId],
  ...SERVED[operationId],
}));
