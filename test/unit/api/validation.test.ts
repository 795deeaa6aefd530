/**
 * The client validates bodies with zod's compiled, assert-only fast path and returns the body
 * itself. These go through the client (not the schemas alone) so that what the fast path accepts
 * is pinned: every refinement still refuses, and a valid body comes back whole.
 */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BASE, envelope, health, jobList, makeClient, makeJob, makeServer, rejectionOf } from './helpers.js';

const server = makeServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function serve(body: unknown) {
  server.use(http.get(`${BASE}/*`, () => HttpResponse.json(body as Record<string, unknown>)));
}

describe('validation through the client', () => {
  const breaks: Array<[string, Record<string, unknown>, string]> = [
    ['a job url that is not an absolute URI', { url: 'not a uri' }, 'data.jobs[2].url'],
    ['a last_seen that is not an ISO date', { last_seen: 'yesterday' }, 'data.jobs[2].last_seen'],
    [
      'a company id that is not an integer',
      { company: { id: 1.5, name: 'a', type: null, type_confidence: null, logo_url: null } },
      'data.jobs[2].company.id',
    ],
    ['an empty job_id', { job_id: '' }, 'data.jobs[2].job_id'],
    ['a domain_assignment outside the enum', { domain_assignment: 'guessed' }, 'data.jobs[2].domain_assignment'],
    ['requirements that are not an object', { requirements: [1] }, 'data.jobs[2].requirements'],
  ];

  it.each(breaks)('%s is upstream_contract at its path', async (_name, overrides, jsonPath) => {
    serve(jobList([makeJob(), makeJob(), makeJob(overrides)]));
    expect(await rejectionOf(makeClient().searchJobs())).toMatchObject({ kind: 'upstream_contract', jsonPath });
  });

  it('a health mcp_endpoint that is not an absolute URI is a contract break', async () => {
    serve({ ...health(), mcp_endpoint: '/relative' });
    expect(await rejectionOf(makeClient().getHealth())).toMatchObject({
      kind: 'upstream_contract',
      jsonPath: 'mcp_endpoint',
    });
  });

  it('a valid body comes back with every member, known or not', async () => {
    const body = jobList([makeJob({ x_job: { nested: [1, 2] } }), makeJob({ salary: null, url: null })]) as {
      data: unknown;
      meta: unknown;
    };
    const withExtras = { ...body, x_envelope: 1, meta: { source: 's', extra: true } };
    serve(withExtras);
    const result = await makeClient().searchJobs();
    expect(result.data).toEqual(withExtras.data);
    expect(result.meta).toEqual(withExtras.meta);
  });

  it('a job detail body is returned as sent', async () => {
    const body = makeJob({ job_id: 'abc', extra: 'kept' });
    serve(envelope(body));
    expect((await makeClient().getJob('abc')).data).toEqual(body);
  });
});
