/**
 * zod schemas of the REST resources in spec/public-read-api.md; every type is z.infer of these.
 * Objects are loose (unknown members kept), including the ones the spec calls closed: an extra
 * member from a newer API is information for the reader, not a reason to fail a call.
 */
import * as z from 'zod';

const nonNegative = z.number().min(0);
/** "ISO date or date-time": a calendar date, optionally followed by a time. */
const isoDateOrDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/, 'expected an ISO date or date-time');
const uri = z.string().refine((value) => URL.canParse(value), 'expected an absolute URI');

export const ResponseMetaSchema = z.looseObject({
  source: z.string().optional(),
  // Legacy snapshots may omit the timezone, so this is any string; the renderer says which.
  generated_at: z.string().nullable().optional(),
  computed_at: z.string().nullable().optional(),
});
export type ResponseMeta = z.infer<typeof ResponseMetaSchema>;

export const ErrorEnvelopeSchema = z.looseObject({
  success: z.literal(false),
  error: z.string(),
  message: z.string().optional(),
});

const PublicJobCompanySchema = z.looseObject({
  id: z.number().int().nullable(),
  name: z.string(),
  type: z.string().nullable(),
  type_confidence: z.string().nullable(),
  logo_url: z.string().nullable(),
});

const PublicJobRoleSchema = z.looseObject({
  id: z.union([z.number().int(), z.string()]).nullable(),
  label: z.string(),
  confidence: z.number().min(0).max(1).nullable(),
});

const PublicJobSalarySchema = z.looseObject({
  min: nonNegative.nullable(),
  max: nonNegative.nullable(),
  currency: z.string(),
  source: z.string(),
  display: z.string(),
});
export type PublicJobSalary = z.infer<typeof PublicJobSalarySchema>;

export const DOMAINS = ['ai', 'web3'] as const;
const DOMAIN_ASSIGNMENTS = ['explicit', 'classified'] as const;

const freeObject = z.record(z.string(), z.unknown());

export const PublicJobSchema = z.looseObject({
  job_id: z.string().min(1),
  title: z.string(),
  company: PublicJobCompanySchema,
  role: PublicJobRoleSchema,
  salary: PublicJobSalarySchema.nullable(),
  freshness: z.string(),
  last_seen: isoDateOrDateTime.nullable(),
  location_text: z.string().nullable(),
  location_country: z.string().nullable(),
  remote_status: z.string().nullable(),
  seniority_level: z.string().nullable(),
  skills: z.array(z.string()),
  url: uri.nullable(),
  domain_id: z.enum(DOMAINS),
  domain_assignment: z.enum(DOMAIN_ASSIGNMENTS),
  requirements: freeObject.optional(),
  operating_expectations: z.array(freeObject).optional(),
  proof_signals: z.array(freeObject).optional(),
  evidence_quality: freeObject.optional(),
});
export type PublicJob = z.infer<typeof PublicJobSchema>;

const PaginationSchema = z.looseObject({
  page: z.number().int().min(1),
  per_page: z.number().int().min(1).max(100),
  total: z.number().int().min(0),
  total_pages: z.number().int().min(1),
  has_next: z.boolean(),
  has_prev: z.boolean(),
});
export type Pagination = z.infer<typeof PaginationSchema>;

export const JobListDataSchema = z.looseObject({
  jobs: z.array(PublicJobSchema),
  pagination: PaginationSchema,
});
export type JobListData = z.infer<typeof JobListDataSchema>;

export const DiscoveryDataSchema = z.looseObject({
  endpoints: z.array(z.looseObject({ path: z.string(), method: z.string(), description: z.string() })),
  auth: z.record(z.string(), z.string()),
  envelopes: z.record(z.string(), z.string()),
});
export type DiscoveryData = z.infer<typeof DiscoveryDataSchema>;

const HealthProbeSchema = z.looseObject({
  name: z.string(),
  ok: z.boolean(),
  status: z.number().int().min(100).max(599).optional(),
  path: z.string().optional(),
  ms: nonNegative.optional(),
});

const HEALTH_STATUSES = ['ok', 'degraded'] as const;
export const HealthResponseSchema = z.looseObject({
  status: z.enum(HEALTH_STATUSES),
  mcp_endpoint: uri.optional(),
  probes: z.array(HealthProbeSchema),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

/** Market-map and interview data are free-form objects in the spec. */
export const MarketMapDataSchema = freeObject;
export type MarketMapData = z.infer<typeof MarketMapDataSchema>;
export const InterviewBriefDataSchema = freeObject;
export type InterviewBriefData = z.infer<typeof InterviewBriefDataSchema>;

export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.looseObject({ success: z.literal(true), data, meta: ResponseMetaSchema });
}

export const MARKET_MAP_STATUSES = ['all', 'ready', 'partial', 'missing', 'error'] as const;
export const SKILL_MATCHES = ['any', 'all'] as const;
/** The slug pattern of the interview operation: lowercase letters and digits joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const COUNTRY_PATTERN = /^[A-Za-z]{2}$/;

/**
 * Formats a zod issue path as a JSON path: `data.jobs[3].salary.source`. `name` renders each
 * member name (tool arguments quote untrusted ones), `root` stands for the empty path.
 */
export function formatJsonPath(
  path: ReadonlyArray<PropertyKey>,
  name: (key: PropertyKey) => string = String,
  root = '(root)',
): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? name(key) : `.${name(key)}`;
  }
  return out === '' ? root : out;
}

/** The API's salary evidence classes (`salary.source`), with the words every surface labels them in. */
export const SALARY_CLASSES = {
  disclosed: 'disclosed by the employer',
  extracted: 'extracted from the posting text',
  predicted: 'model estimate, not disclosed',
} as const;

export type KnownSalaryClass = keyof typeof SALARY_CLASSES;

export function isKnownSalaryClass(source: string): source is KnownSalaryClass {
  return Object.hasOwn(SALARY_CLASSES, source);
}
