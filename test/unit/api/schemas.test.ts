/** The zod schemas: spec-valid bodies parse with nothing dropped; contract breaks name their JSON path. */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/contract/errors.js';
import {
  envelopeOf,
  formatJsonPath,
  HealthResponseSchema,
  JobListDataSchema,
  PublicJobSchema,
  ResponseMetaSchema,
} from '../../../src/contract/schemas.js';
import { BASE, discovery, envelope, health, jobList, makeClient, makeJob, makeServer, rejectionOf } from './helpers.js';

const server = makeServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function serve(body: unknown, status = 200) {
  server.use(http.get(`${BASE}/*`, () => HttpResponse.json(body as Record<string, unknown>, { status })));
}

function fiveJobs() {
  return [
    makeJob({ job_id: 'j0' }),
    makeJob({ job_id: 'j1', salary: null }),
    makeJob({ job_id: 'j2' }),
    makeJob({ job_id: 'j3' }),
    makeJob({ job_id: 'j4' }),
  ];
}

describe('valid bodies', () => {
  it('a full job list parses and keeps unknown members at every level', async () => {
    const full = makeJob({
      requirements: { years: 5 },
      operating_expectations: [{ on_call: true }],
      proof_signals: [{ kind: 'oss' }],
      evidence_quality: { score: 0.8 },
      x_job: 'kept',
      company: {
        id: null,
        name: 'Acme',
        type: null,
        type_confidence: null,
        logo_url: 'https://cdn.example.test/a.png',
        x_company: 1,
      },
      role: { id: 12, label: 'Engineer', confidence: null, x_role: [1] },
      salary: { min: null, max: 1000, currency: 'EUR', source: 'predicted', display: '≤ €1k', x_salary: { a: 1 } },
    });
    const body = {
      success: true,
      data: {
        jobs: [full],
        pagination: {
          page: 1,
          per_page: 20,
          total: 1,
          total_pages: 1,
          has_next: false,
          has_prev: false,
          x_pagination: true,
        },
        facets: { ai: 1 },
      },
      meta: {
        source: 'read-model:jobs',
        generated_at: '2025-05-02T10:00:00Z',
        computed_at: null,
        coverage: { jobs: 0.9 },
        suppression: [],
      },
      x_envelope: 'kept',
    };
    serve(body);
    const result = await makeClient().listJobs();
    expect(result.data).toEqual(body.data);
    expect(result.meta).toEqual(body.meta);
    expect(result.data.jobs[0]).toMatchObject({
      x_job: 'kept',
      company: { x_company: 1 },
      role: { x_role: [1] },
      salary: { x_salary: { a: 1 } },
    });
    expect(result.data.pagination).toHaveProperty('x_pagination', true);
    expect(result.data).toHaveProperty('facets');
  });

  it('meta.generated_at without a timezone is accepted and kept verbatim', async () => {
    serve(
      envelope(
        { jobs: [], pagination: { page: 1, per_page: 20, total: 0, total_pages: 1, has_next: false, has_prev: false } },
        { generated_at: '2025-05-02 10:00:00' },
      ),
    );
    const result = await makeClient().listJobs();
    expect(result.meta.generated_at).toBe('2025-05-02 10:00:00');
  });

  it('meta may omit every documented member and carry others', () => {
    expect(ResponseMetaSchema.parse({ window: '30d' })).toEqual({ window: '30d' });
  });

  it('last_seen accepts a date and a date-time with or without zone', () => {
    for (const last_seen of [
      '2025-05-01',
      '2025-05-01T10:00:00Z',
      '2025-05-01T10:00:00.123+02:00',
      '2025-05-01T10:00:00',
      null,
    ]) {
      expect(PublicJobSchema.safeParse(makeJob({ last_seen })).success, String(last_seen)).toBe(true);
    }
    expect(PublicJobSchema.safeParse(makeJob({ last_seen: 'yesterday' })).success).toBe(false);
  });

  it('discovery, health, market-map and interview bodies parse with extras kept', async () => {
    const client = makeClient();
    serve({ ...discovery(), data: { ...(discovery().data as object), snapshot: { generated_at: 'x' } } });
    expect((await client.discover()).data).toHaveProperty('snapshot');

    serve({ ...health(), probes: [{ name: 'db', ok: true, extra: 1 }], build: 'abc' });
    const h = await client.getHealth();
    expect(h.data).toMatchObject({ status: 'ok', build: 'abc', probes: [{ name: 'db', ok: true, extra: 1 }] });

    serve(envelope({ dimensions: [{ id: 'skills', readiness: 'ready' }], filters: {} }));
    expect((await client.getMarketMap()).data).toEqual({
      dimensions: [{ id: 'skills', readiness: 'ready' }],
      filters: {},
    });

    serve(envelope({ package: { rounds: [] }, freshness: { as_of: '2025-01-01' } }));
    expect((await client.getCompanyInterviewBrief({ company_id: '1' })).data).toEqual({
      package: { rounds: [] },
      freshness: { as_of: '2025-01-01' },
    });
  });

  it('a job detail body is a PublicJob', async () => {
    serve(envelope(makeJob({ job_id: 'abc' })));
    expect((await makeClient().getJob('abc')).data.job_id).toBe('abc');
  });

  it('the schemas keep the spec closed objects open rather than stripping members', () => {
    const parsed = JobListDataSchema.parse({
      jobs: [makeJob({ company: { ...(makeJob().company as object), extra: 'x' } })],
      pagination: { page: 1, per_page: 1, total: 0, total_pages: 1, has_next: false, has_prev: false },
    });
    expect(parsed.jobs[0]!.company).toHaveProperty('extra', 'x');
    expect(envelopeOf(PublicJobSchema).parse({ success: true, data: makeJob(), meta: {}, extra: 1 })).toHaveProperty(
      'extra',
      1,
    );
  });
});

describe('contract breaks are upstream_contract errors naming the JSON path', () => {
  const cases: Array<[string, () => unknown, string]> = [
    [
      'missing salary.source of the 4th job',
      () => {
        const jobs = fiveJobs();
        delete (jobs[3] as { salary: Record<string, unknown> }).salary.source;
        return jobList(jobs);
      },
      'data.jobs[3].salary.source',
    ],
    [
      'wrong type of company.name',
      () => jobList([makeJob({ company: { id: 1, name: 42, type: null, type_confidence: null, logo_url: null } })]),
      'data.jobs[0].company.name',
    ],
    ['missing pagination', () => envelope({ jobs: [] }), 'data.pagination'],
    ['per_page over 100', () => jobList([], { per_page: 101 }), 'data.pagination.per_page'],
    ['domain_id outside the enum', () => jobList([makeJob({ domain_id: 'biotech' })]), 'data.jobs[0].domain_id'],
    [
      'role.confidence over 1',
      () => jobList([makeJob({ role: { id: null, label: 'x', confidence: 1.5 } })]),
      'data.jobs[0].role.confidence',
    ],
    [
      'negative salary.min',
      () => jobList([makeJob({ salary: { min: -1, max: null, currency: 'USD', source: 'disclosed', display: '' } })]),
      'data.jobs[0].salary.min',
    ],
    ['skills not strings', () => jobList([makeJob({ skills: ['a', 3] })]), 'data.jobs[0].skills[1]'],
    ['success not true', () => ({ ...jobList(), success: false }), 'success'],
    [
      'missing meta',
      () => ({
        success: true,
        data: {
          jobs: [],
          pagination: { page: 1, per_page: 1, total: 0, total_pages: 1, has_next: false, has_prev: false },
        },
      }),
      'meta',
    ],
    [
      'meta.generated_at a number',
      () =>
        envelope(
          {
            jobs: [],
            pagination: { page: 1, per_page: 1, total: 0, total_pages: 1, has_next: false, has_prev: false },
          },
          { generated_at: 5 },
        ),
      'meta.generated_at',
    ],
    ['a JSON array for a body', () => [1, 2], '(root)'],
  ];

  it.each(cases)('%s', async (_name, body, jsonPath) => {
    serve(body());
    const error = await rejectionOf(makeClient().listJobs());
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe('upstream_contract');
    expect(error.jsonPath).toBe(jsonPath);
    expect(error.message).toContain(jsonPath);
    expect(error.message).toContain('/api/public/v1/jobs');
    expect(error.status).toBeUndefined();
  });

  it('a job detail missing job_id names data.job_id', async () => {
    const { job_id: _, ...body } = makeJob();
    serve(envelope(body));
    const error = await rejectionOf(makeClient().getJob('x'));
    expect(error).toMatchObject({ kind: 'upstream_contract', jsonPath: 'data.job_id' });
  });

  it('a discovery endpoint without a method names data.endpoints[0].method', async () => {
    serve(envelope({ endpoints: [{ path: '/x', description: 'd' }], auth: {}, envelopes: {} }));
    expect(await rejectionOf(makeClient().discover())).toMatchObject({
      kind: 'upstream_contract',
      jsonPath: 'data.endpoints[0].method',
    });
  });

  it('a health probe without ok names probes[1].ok', async () => {
    serve({ status: 'ok', probes: [{ name: 'a', ok: true }, { name: 'b' }] });
    expect(await rejectionOf(makeClient().getHealth())).toMatchObject({
      kind: 'upstream_contract',
      jsonPath: 'probes[1].ok',
    });
  });

  it('an unknown health status is a contract break', () => {
    expect(HealthResponseSchema.safeParse({ status: 'down', probes: [] }).success).toBe(false);
  });

  it('openapi.json that is not an object is a contract break', async () => {
    serve([1]);
    expect(await rejectionOf(makeClient().getOpenApi())).toMatchObject({
      kind: 'upstream_contract',
      jsonPath: '(root)',
    });
  });
});

describe('formatJsonPath', () => {
  it('formats keys with dots and indexes with brackets', () => {
    expect(formatJsonPath(['data', 'jobs', 3, 'salary', 'source'])).toBe('data.jobs[3].salary.source');
    expect(formatJsonPath([0, 'a'])).toBe('[0].a');
    expect(formatJsonPath([])).toBe('(root)');
  });
});
