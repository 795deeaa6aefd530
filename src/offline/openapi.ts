/**
 * /openapi.json: an OpenAPI 3.1.0 document built from the operation table in params.ts, so the
 * published constraints are the ones the offline engine enforces. Component schemas follow the
 * spec's field tables literally (closed objects are closed here), unlike the client's zod
 * schemas, which deliberately accept extra members.
 * Over 250 lines: the component schemas, field by field as the spec's tables give them.
 */
import { OFFLINE_NOTICE } from './documents.js';
import { OPERATIONS, type ParamSpec, type SuccessShape } from './params.js';

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (type: string, extra: Schema = {}): Schema => ({ type: [type, 'null'], ...extra });
const open = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});
const closed = (properties: Record<string, Schema>): Schema => ({ ...open(properties), additionalProperties: false });
const freeObject: Schema = { type: 'object', additionalProperties: true };

/** A success answer: the envelope around the component schema `data`. */
function enveloped(data: string, what: string, description: string): { schema: Schema; description: string } {
  const schema = {
    type: 'object',
    description: `${what} envelope`,
    properties: { success: { const: true }, data: ref(data), meta: ref('ResponseMeta') },
    required: ['success', 'data', 'meta'],
  };
  return { schema, description };
}

/** The members of a job the spec requires; its evidence members (below, in PublicJob) are optional. */
const JOB_REQUIRED: Record<string, Schema> = {
  job_id: { type: 'string', description: 'Stable public identifier.' },
  title: { type: 'string' },
  company: ref('PublicJobCompany'),
  role: ref('PublicJobRole'),
  salary: {
    oneOf: [ref('PublicJobSalary'), { type: 'null' }],
    description: 'Kept only when its source class is allowed by include_predicted_salaries.',
  },
  freshness: { type: 'string', description: 'Read-model lifecycle label, normally live or active.' },
  last_seen: nullable('string', { description: 'Latest source observation, ISO date or date-time.' }),
  location_text: nullable('string'),
  location_country: nullable('string'),
  remote_status: nullable('string'),
  seniority_level: nullable('string'),
  skills: { type: 'array', items: { type: 'string' } },
  url: nullable('string', { format: 'uri' }),
  domain_id: { type: 'string', enum: ['ai', 'web3'] },
  domain_assignment: { type: 'string', enum: ['explicit', 'classified'] },
};

const SCHEMAS: Record<string, Schema> = {
  ResponseMeta: {
    type: 'object',
    description: 'Members vary by read model; additional members are allowed.',
    properties: {
      source: { type: 'string', description: 'Origin of the read model.' },
      generated_at: nullable('string', {
        description: 'Snapshot generation timestamp; legacy snapshots can omit an explicit timezone.',
      }),
      computed_at: nullable('string', { format: 'date-time' }),
    },
  },
  ErrorEnvelope: open({ success: { const: false }, error: { type: 'string' }, message: { type: 'string' } }, [
    'success',
    'error',
  ]),
  PublicJobCompany: closed({
    id: nullable('integer'),
    name: { type: 'string' },
    type: nullable('string'),
    type_confidence: nullable('string'),
    logo_url: nullable('string', { description: 'A same-origin path or an absolute URL.' }),
  }),
  PublicJobRole: closed({
    id: { type: ['integer', 'string', 'null'] },
    label: { type: 'string' },
    confidence: { type: ['number', 'null'], minimum: 0, maximum: 1 },
  }),
  PublicJobSalary: closed({
    min: { type: ['number', 'null'], minimum: 0 },
    max: { type: ['number', 'null'], minimum: 0 },
    currency: { type: 'string' },
    source: {
      type: 'string',
      description:
        'Evidence class of the compensation (disclosed, extracted, predicted, ...); inspect it before presenting a salary as disclosed.',
    },
    display: { type: 'string' },
  }),
  PublicJob: open(
    {
      ...JOB_REQUIRED,
      requirements: freeObject,
      operating_expectations: { type: 'array', items: freeObject },
      proof_signals: { type: 'array', items: freeObject },
      evidence_quality: freeObject,
    },
    Object.keys(JOB_REQUIRED),
  ),
  Pagination: closed({
    page: { type: 'integer', minimum: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: 100 },
    total: { type: 'integer', minimum: 0 },
    total_pages: { type: 'integer', minimum: 1 },
    has_next: { type: 'boolean' },
    has_prev: { type: 'boolean' },
  }),
  JobListData: open({ jobs: { type: 'array', items: ref('PublicJob') }, pagination: ref('Pagination') }),
  DiscoveryData: open({
    endpoints: {
      type: 'array',
      items: open({ path: { type: 'string' }, method: { type: 'string' }, description: { type: 'string' } }),
    },
    auth: { type: 'object', additionalProperties: { type: 'string' } },
    envelopes: { type: 'object', additionalProperties: { type: 'string' } },
  }),
  HealthProbe: open(
    {
      name: { type: 'string' },
      ok: { type: 'boolean' },
      status: { type: 'integer', minimum: 100, maximum: 599 },
      path: { type: 'string' },
      ms: { type: 'number', minimum: 0 },
    },
    ['name', 'ok'],
  ),
  HealthResponse: open(
    {
      status: { type: 'string', enum: ['ok', 'degraded'] },
      mcp_endpoint: { type: 'string', format: 'uri' },
      probes: { type: 'array', items: ref('HealthProbe') },
    },
    ['probes'],
  ),
  MarketMapData: {
    ...freeObject,
    description: 'Dimensions, filters, readiness counts, advertised layers and generation metadata.',
  },
  InterviewBriefData: { ...freeObject, description: 'Interview-preparation package and freshness metadata.' },
};

const SUCCESS: Record<SuccessShape, { schema: Schema; description: string }> = {
  discovery: enveloped(
    'DiscoveryData',
    'Discovery',
    'Endpoint catalog, authentication boundary, envelope conventions and snapshot freshness.',
  ),
  job_list: enveloped('JobListData', 'Job list', 'A page of jobs with pagination.'),
  job: enveloped('PublicJob', 'Job', 'One active job.'),
  market_map: enveloped('MarketMapData', 'Market map', 'Dimension coverage, readiness and generation metadata.'),
  interview: enveloped('InterviewBriefData', 'Interview brief', 'The interview-preparation package.'),
  health: { schema: ref('HealthResponse'), description: 'All required probes passed.' },
};

const ERROR_TEXT: Record<number, string> = {
  400: 'Request parameters invalid.',
  404: 'The requested public record is absent or no longer active.',
  429: 'A public rate limit was exceeded; wait Retry-After seconds.',
  503: 'A required read-model dependency is temporarily unavailable.',
};

function parameterSchema(spec: ParamSpec): Schema {
  switch (spec.type) {
    case 'boolean':
      return { type: 'boolean', default: spec.default };
    case 'integer':
      return {
        type: 'integer',
        minimum: spec.minimum,
        ...(spec.maximum === undefined ? {} : { maximum: spec.maximum }),
        default: spec.default,
      };
    case 'number':
      return { type: 'number', minimum: spec.minimum };
    case 'string': {
      const schema: Schema = { type: 'string' };
      if (spec.enum) schema.enum = [...spec.enum];
      if (spec.minLength !== undefined) schema.minLength = spec.minLength;
      if (spec.maxLength !== undefined) schema.maxLength = spec.maxLength;
      if (spec.pattern) schema.pattern = spec.pattern.source;
      if (spec.default !== undefined) schema.default = spec.default;
      return schema;
    }
  }
}

const json = (schema: Schema) => ({ 'application/json': { schema } });

const JOB_ID: Schema = {
  name: 'jobId',
  in: 'path',
  required: true,
  description: 'A job_id from a list or search response.',
  schema: { type: 'string', minLength: 1 },
};
const RETRY_AFTER = {
  'Retry-After': {
    description: 'Whole seconds to wait before retrying.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
};
/** Health's 503: its body is the health response, not the error envelope. */
const DEGRADED = {
  description: 'At least one required probe failed; the body is the health response with status degraded.',
  content: json(ref('HealthResponse')),
};

export function buildOpenApi(origin: string): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const op of OPERATIONS) {
    const query = op.query.map((spec) => ({
      name: spec.name,
      in: 'query',
      required: false,
      description: spec.description,
      schema: parameterSchema(spec),
    }));
    const parameters = op.path.includes('{jobId}') ? [JOB_ID, ...query] : query;
    const success = SUCCESS[op.success];
    const responses: Record<string, unknown> = {
      '200': { description: success.description, content: json(success.schema) },
    };
    for (const status of op.errors)
      responses[String(status)] =
        op.success === 'health'
          ? DEGRADED
          : {
              description: ERROR_TEXT[status] ?? 'Error.',
              ...(status === 429 ? { headers: RETRY_AFTER } : {}),
              content: json(ref('ErrorEnvelope')),
            };
    paths[op.path] = {
      get: { operationId: op.operationId, summary: op.summary, description: op.description, parameters, responses },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Public hiring-intelligence read API',
      version: '1.0.0',
      description: `${OFFLINE_NOTICE} Public reads need no credentials.`,
    },
    servers: [{ url: origin, description: 'Offline snapshot served by service-mcp' }],
    paths,
    components: { schemas: SCHEMAS },
  };
}
