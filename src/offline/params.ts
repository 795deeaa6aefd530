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

const q: StringParam = {
  name: 'q',
  type: 'string',
  minLength: 1,
  maxLength: 200,
  description:
    'Free-text terms, case-insensitive; every term must begin a word of the title, the company name or a skill (a term may be the start of a longer word).',
};
const domain: StringParam = {
  name: 'domain',
  type: 'string',
  enum: DOMAINS,
  description: 'Hiring vertical; all verticals when omitted.',
};
const skills: StringParam = {
  name: 'skills',
  type: 'string',
  minLength: 1,
  list: true,
  description: 'Comma-separated skill names, matched case-insensitively against whole skills.',
};
const skillMatch: StringParam = {
  name: 'skill_match',
  type: 'string',
  enum: SKILL_MATCHES,
  default: 'any',
  description: 'Whether any or all of the skills must match.',
};
const companyType: StringParam = {
  name: 'company_type',
  type: 'string',
  minLength: 1,
  description:
    'Normalized company type label, such as ai_lab, startup, protocol, exchange, enterprise or dao (case-insensitive).',
};
const seniority: StringParam = {
  name: 'seniority_level',
  type: 'string',
  minLength: 1,
  description: 'Normalized seniority label, such as junior, mid, senior, staff, principal or lead (case-insensitive).',
};
const remoteOnly: BooleanParam = {
  name: 'remote_only',
  type: 'boolean',
  default: false,
  description: 'When true, only jobs classified remote.',
};
const country: StringParam = {
  name: 'location_country',
  type: 'string',
  minLength: 2,
  maxLength: 2,
  pattern: COUNTRY_PATTERN,
  patternHint: 'exactly two letters (an ISO 3166-1 alpha-2 code such as US or DE)',
  description: 'Country of the job, normally ISO 3166-1 alpha-2; case-insensitive.',
};
const minSalary: NumberParam = {
  name: 'min_salary_usd',
  type: 'number',
  minimum: 0,
  description:
    'Annualized USD minimum: keeps jobs whose salary range reaches at least this amount. Jobs without a usable salary are excluded.',
};
const maxSalary: NumberParam = {
  name: 'max_salary_usd',
  type: 'number',
  minimum: 0,
  description:
    'Annualized USD maximum: keeps jobs whose salary range starts at or below this amount. Jobs without a usable salary are excluded.',
};
const page: IntegerParam = {
  name: 'page',
  type: 'integer',
  minimum: 1,
  default: 1,
  description: 'One-based page number.',
};
const perPage: IntegerParam = {
  name: 'per_page',
  type: 'integer',
  minimum: 1,
  maximum: 100,
  default: 20,
  description: 'Page size.',
};
const includePredicted: BooleanParam = {
  name: 'include_predicted_salaries',
  type: 'boolean',
  default: false,
  description:
    'Include model-derived (predicted) salary estimates; when false, a predicted salary is returned as null and does not count for salary thresholds.',
};
const status: StringParam = {
  name: 'status',
  type: 'string',
  enum: MARKET_MAP_STATUSES,
  default: 'all',
  description: 'Dimension readiness to keep.',
};
const layer: StringParam = {
  name: 'layer',
  type: 'string',
  minLength: 1,
  default: 'all',
  description: 'Layer to keep; valid values are those advertised in data.layers of an unfiltered response, or all.',
};
const companyId: StringParam = {
  name: 'company_id',
  type: 'string',
  minLength: 1,
  description: 'Stable company identifier. Wins over slug and name when several are given.',
};
const slug: StringParam = {
  name: 'slug',
  type: 'string',
  minLength: 1,
  pattern: SLUG_PATTERN,
  patternHint: 'lowercase letters and digits joined by single hyphens (such as northwind-neural)',
  description: 'Company slug. Wins over name when both are given.',
};
const name: StringParam = {
  name: 'name',
  type: 'string',
  minLength: 1,
  maxLength: 160,
  description: 'Company name, case-insensitive; used only when no stable identifier is known.',
};

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

export interface OperationSpec {
  operationId: OperationId;
  path: string;
  summary: string;
  description: string;
  query: readonly ParamSpec[];
  success: SuccessShape;
  errors: readonly number[];
}

/** What the offline API adds to the contract's table: the query each operation reads and the shape of its answer. */
const SERVED: Record<OperationId, Pick<OperationSpec, 'query' | 'success'>> = {
  discoverPublicApi: { query: [], success: 'discovery' },
  searchPublicJobs: { query: SEARCH_PARAMS, success: 'job_list' },
  listPublicJobs: { query: LIST_PARAMS, success: 'job_list' },
  getPublicJob: { query: DETAIL_PARAMS, success: 'job' },
  getPublicMarketMap: { query: MARKET_MAP_PARAMS, success: 'market_map' },
  getCompanyInterviewBrief: { query: INTERVIEW_PARAMS, success: 'interview' },
  getHostedMcpHealth: { query: [], success: 'health' },
};

export const OPERATIONS: readonly OperationSpec[] = (Object.keys(SERVED) as OperationId[]).map((operationId) => ({
  operationId,
  ...CONTRACT_OPERATIONS[operationId],
  ...SERVED[operationId],
}));
