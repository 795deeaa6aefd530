/**
 * An oracle for tool arguments and upstream URLs, written from the spec's parameter tables
 * (spec/public-read-api.md) and docs/contract.md, not from src/contract/params.ts: a test that asked zod
 * whether zod agrees with itself would prove nothing. Used by the generated bad-input tests, in
 * process and end to end.
 */

type Rule = (value: unknown) => boolean;

/** "chars" in the spec are characters (code points), not UTF-16 units: an emoji is one. */
const chars = (text: string) => (text.length > 10_000 ? text.length : [...text].length); // long ones are over every limit either way
const isText =
  (min: number, max: number): Rule =>
  (v) =>
    typeof v === 'string' && chars(v) >= min && chars(v) <= max;
const oneOf =
  (...values: string[]): Rule =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const isBoolean: Rule = (v) => typeof v === 'boolean';
const isInteger =
  (min: number, max = Number.MAX_SAFE_INTEGER): Rule =>
  (v) =>
    Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
const LETTERS2 = /^[A-Za-z]{2}$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** E-mail addresses as people write them to slip past a filter: words, brackets, full-width forms. */
export const OBFUSCATED_EMAILS = [
  'jane at example dot com',
  'jane(at)example(dot)com',
  'jane [at] example [dot] com',
  'JANE AT EXAMPLE DOT COM',
  'jane @ example . com',
  'ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ',
  'jane-at-example-dot-com',
  'jane_at_example_dot_co_dot_uk',
];
/** Phone numbers the same way: full-width and other-script digits, digits spaced out. */
export const OBFUSCATED_PHONES = [
  '＋１ ４１５ ５５５ ０１００',
  '٤١٥ ٥٥٥ ٠١٠٠',
  '4 1 5 5 5 5 0 1 0 0',
  '4-1-5-5-5-5-0-1-0-0',
  '415.555.0100',
  '06.12.34.56.78',
];
/**
 * Personal data the generators plant in free-text arguments (`q`, the labels, `layer`, the interview
 * brief's identifiers, skills). The spec forbids candidate data in public search query strings; the
 * generators only ever put digits, '@' or their look-alikes into those arguments through these
 * samples (or the known-clean phrases below), so the oracle knows exactly which values carry it.
 */
export const PERSONAL_DATA = [
  'jane.doe@example.com',
  'a.b+tag@mail.example.org',
  '+1 415 555 0100',
  '(415) 555-0100',
  '415-555-0100',
  '020 7946 0958',
  '+44 20 7946 0958',
  '4155550100',
  ...OBFUSCATED_EMAILS,
  ...OBFUSCATED_PHONES,
];
/** Search terms with digits or symbols that are not personal data and must stay searchable. */
export const CLEAN_PHRASES_WITH_DIGITS = [
  'web3',
  'python 3',
  'gpt-4o engineer',
  '2024 2025 2026',
  'l2 rollups',
  'top 100',
  'c++',
  'node.js 22',
  'salary 150000 200000',
  'kubernetes 1.29.3',
  'since 2024-01-15',
];

const hasPersonalData = (text: string) => PERSONAL_DATA.some((sample) => text.includes(sample));

/** What the spec allows for each argument value (the tool arguments are named as the REST parameters). */
const ARGUMENT_RULES: Record<string, Rule> = {
  q: (v) => isText(1, 200)(v) && !hasPersonalData(v as string),
  domain: oneOf('ai', 'web3'),
  // Spec: comma-separated skill names. Ours, documented in the schema: 1-20 names of 1-60
  // characters; a blank one is no name (the API trims the items and drops empty ones).
  skills: (v) =>
    Array.isArray(v) &&
    v.length >= 1 &&
    v.length <= 20 &&
    v.every(
      (s) =>
        isText(1, 60)(s) && !(s as string).includes(',') && /\S/.test(s as string) && !hasPersonalData(s as string),
    ),
  skill_match: oneOf('any', 'all'),
  company_type: (v) => isText(1, 60)(v) && !hasPersonalData(v as string),
  seniority_level: (v) => isText(1, 60)(v) && !hasPersonalData(v as string),
  remote_only: isBoolean,
  location_country: (v) => typeof v === 'string' && LETTERS2.test(v),
  // Spec: at least 0. Ours: at most the largest exact JSON integer, so the value stays a plain decimal.
  min_salary_usd: (v) => typeof v === 'number' && v >= 0 && v <= Number.MAX_SAFE_INTEGER,
  max_salary_usd: (v) => typeof v === 'number' && v >= 0 && v <= Number.MAX_SAFE_INTEGER,
  page: isInteger(1),
  per_page: isInteger(1, 100),
  include_predicted_salaries: isBoolean,
  // An identifier from a list; '.' and '..' would be dot segments of the URL path, not ids, and a
  // lone surrogate cannot be percent-encoded into a path at all.
  job_id: (v) => isText(1, 200)(v) && v !== '.' && v !== '..' && !/\p{Surrogate}/u.test(v as string),
  status: oneOf('all', 'ready', 'partial', 'missing', 'error'),
  layer: (v) => isText(1, 60)(v) && !hasPersonalData(v as string),
  // Spec: a string. Ours also: the integer a job's company.id is, sent as its digits.
  company_id: (v) =>
    (Number.isSafeInteger(v) && !hasPersonalData(String(v))) || (isText(1, 200)(v) && !hasPersonalData(v as string)),
  slug: (v) => typeof v === 'string' && chars(v) <= 160 && SLUG.test(v) && !hasPersonalData(v),
  name: (v) => isText(1, 160)(v) && !hasPersonalData(v as string),
};

const JOB_LIST = [
  'q',
  'domain',
  'skills',
  'seniority_level',
  'remote_only',
  'location_country',
  'page',
  'per_page',
  'include_predicted_salaries',
];

/** The arguments each tool accepts (docs/contract.md's tool table). */
export const TOOL_ARGUMENTS: Record<string, { accepted: string[]; required: string[] }> = {
  search_jobs: {
    accepted: [...JOB_LIST, 'skill_match', 'company_type', 'min_salary_usd', 'max_salary_usd'],
    required: [],
  },
  list_jobs: { accepted: JOB_LIST, required: [] },
  get_job: { accepted: ['job_id', 'include_predicted_salaries'], required: ['job_id'] },
  get_market_map: { accepted: ['status', 'layer'], required: [] },
  get_company_interview_brief: { accepted: ['company_id', 'slug', 'name'], required: [] },
  discover_api: { accepted: [], required: [] },
  check_api_health: { accepted: [], required: [] },
};

export interface Verdict {
  /** Arguments the call must be refused for (invalid, unknown, missing, or breaking a cross-argument rule). */
  blamed: string[];
}

/** Which arguments of `args` the spec refuses; none means the call must reach the API. */
export function judge(tool: string, args: Record<string, unknown>): Verdict {
  const { accepted, required } = TOOL_ARGUMENTS[tool]!;
  const blamed: string[] = [];
  for (const key of Object.keys(args)) {
    if (args[key] === undefined) continue; // an absent optional; JSON cannot even carry it
    if (!accepted.includes(key) || !ARGUMENT_RULES[key]!(args[key])) blamed.push(key);
  }
  for (const key of required) if (args[key] === undefined) blamed.push(key);
  if (tool === 'get_company_interview_brief' && blamed.length === 0) {
    const given = ['company_id', 'slug', 'name'].filter((key) => args[key] !== undefined);
    if (given.length !== 1) blamed.push(...(given.length === 0 ? ['company_id, slug or name'] : given));
  }
  // Neither bound can match anything when the minimum is over the maximum.
  if (
    tool === 'search_jobs' &&
    blamed.length === 0 &&
    typeof args.min_salary_usd === 'number' &&
    typeof args.max_salary_usd === 'number' &&
    args.min_salary_usd > args.max_salary_usd
  ) {
    blamed.push('min_salary_usd', 'max_salary_usd');
  }
  return { blamed };
}

// What a query value may look like on the wire: a plain decimal for numbers (no exponent, sign
// or "Infinity"), true/false for booleans.
const WIRE_DECIMAL = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;
const WIRE_INTEGER = /^[1-9]\d*$/;
const wireInteger = (max: number) => (v: string) =>
  WIRE_INTEGER.test(v) && Number.isSafeInteger(Number(v)) && Number(v) <= max;
// Free text on the wire: within its limits, and no candidate data (spec, Authentication 4).
const wireText = (min: number, max: number) => (v: string) => chars(v) >= min && chars(v) <= max && !hasPersonalData(v);

const WIRE_RULES: Record<string, (value: string) => boolean> = {
  q: wireText(1, 200),
  domain: (v) => ['ai', 'web3'].includes(v),
  skills: (v) => v.split(',').length <= 20 && v.split(',').every((s) => wireText(1, 60)(s) && /\S/.test(s)),
  skill_match: (v) => ['any', 'all'].includes(v),
  company_type: wireText(1, 60),
  seniority_level: wireText(1, 60),
  remote_only: (v) => v === 'true' || v === 'false',
  location_country: (v) => LETTERS2.test(v),
  min_salary_usd: (v) => WIRE_DECIMAL.test(v),
  max_salary_usd: (v) => WIRE_DECIMAL.test(v),
  page: wireInteger(Number.MAX_SAFE_INTEGER),
  per_page: wireInteger(100),
  include_predicted_salaries: (v) => v === 'true' || v === 'false',
  status: (v) => ['all', 'ready', 'partial', 'missing', 'error'].includes(v),
  layer: wireText(1, 60),
  company_id: wireText(1, 200),
  slug: (v) => chars(v) <= 160 && SLUG.test(v) && !hasPersonalData(v),
  name: wireText(1, 160),
};

const PREFIX = '/api/public/v1';
const OPERATION_PARAMS: Array<[RegExp, string[]]> = [
  [/^\/api\/public\/v1$/, []],
  [/^\/api\/public\/v1\/search\/jobs$/, TOOL_ARGUMENTS.search_jobs!.accepted],
  [/^\/api\/public\/v1\/jobs$/, JOB_LIST],
  [/^\/api\/public\/v1\/jobs\/[^/]+$/, ['include_predicted_salaries']],
  [/^\/api\/public\/v1\/market-map$/, ['status', 'layer']],
  [/^\/api\/public\/v1\/interview\/company$/, ['company_id', 'slug', 'name']],
  [/^\/api\/public\/v1\/mcp\/health$/, []],
];

/**
 * Everything wrong with a URL the upstream received, per the spec: an operation path on the
 * configured origin, only that operation's parameters, each at most once and within its limits.
 */
export function urlProblems(raw: string, origin: string): string[] {
  const problems: string[] = [];
  const url = new URL(raw);
  if (url.origin !== new URL(origin).origin) problems.push(`origin ${url.origin}`);
  if (url.username || url.password) problems.push('credentials in the URL');
  if (url.hash) problems.push('fragment');
  const operation = OPERATION_PARAMS.find(([path]) => path.test(url.pathname));
  if (!operation) return [...problems, `no such operation: ${url.pathname}`];
  if (url.pathname.startsWith(`${PREFIX}/jobs/`)) {
    const id = decodeURIComponent(url.pathname.slice(`${PREFIX}/jobs/`.length));
    if (!ARGUMENT_RULES.job_id!(id)) problems.push(`job id ${JSON.stringify(id.slice(0, 40))}`);
  }
  const names = [...url.searchParams.keys()];
  for (const name of new Set(names)) {
    if (!operation[1].includes(name)) problems.push(`${name}: not a parameter of ${url.pathname}`);
    else if (names.filter((n) => n === name).length > 1) problems.push(`${name}: sent twice`);
    else if (!WIRE_RULES[name]!(url.searchParams.get(name)!))
      problems.push(`${name}=${JSON.stringify(url.searchParams.get(name)!.slice(0, 40))}`);
  }
  if (
    url.pathname.endsWith('/interview/company') &&
    ['company_id', 'slug', 'name'].filter((n) => url.searchParams.has(n)).length !== 1
  )
    problems.push('not exactly one company identifier');
  return problems;
}
