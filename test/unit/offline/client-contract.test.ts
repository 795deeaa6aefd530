/**
 * Every operation of the offline API, called through the real ApiClient: the client validates
 * each body with its zod schemas, so a passing call is a contract check.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/contract/errors.js';
import { createOfflineEngine, type OfflineEngine } from '../../../src/offline/engine.js';
import { get, offlineClient } from '../../helpers/offline-client.js';

let engine: OfflineEngine;
beforeAll(async () => {
  engine = await createOfflineEngine();
});

const OFFLINE_SOURCE = /offline-snapshot.*not live/;

describe('offline API through the real client', () => {
  it('discovery lists every operation, the auth boundary, envelopes and snapshot freshness', async () => {
    const result = await offlineClient(engine).discover();
    const paths = result.data.endpoints.map((e) => e.path);
    for (const path of [
      '/api/public/v1',
      '/api/public/v1/search/jobs',
      '/api/public/v1/jobs',
      '/api/public/v1/jobs/{jobId}',
      '/api/public/v1/market-map',
      '/api/public/v1/interview/company',
      '/api/public/v1/mcp/health',
    ]) {
      expect(paths).toContain(path);
    }
    expect(Object.keys(result.data.auth).length).toBeGreaterThan(0);
    expect(result.data.envelopes).toHaveProperty('error');
    expect(result.data.snapshot).toMatchObject({ mode: 'offline', generated_at: expect.stringMatching(/Z$/) });
    expect(result.meta.source).toMatch(OFFLINE_SOURCE);
    expect(result.meta.computed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('discovery also answers at the trailing-slash form', async () => {
    const response = await get(engine, '/api/public/v1/');
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { endpoints: unknown[] } }).data.endpoints.length).toBeGreaterThan(6);
  });

  it('search and list return schema-valid jobs with pagination', async () => {
    const client = offlineClient(engine);
    const search = await client.searchJobs({ q: 'engineer', per_page: 50 });
    expect(search.data.jobs).toHaveLength(50);
    expect(search.meta.source).toMatch(OFFLINE_SOURCE);
    const list = await client.listJobs({ domain: 'web3' });
    expect(list.data.pagination).toMatchObject({ page: 1, per_page: 20, has_prev: false });
    expect(list.data.jobs.every((j) => j.domain_id === 'web3')).toBe(true);
  });

  it('every active job validates through detail, with its id percent-encoded by the client', async () => {
    const client = offlineClient(engine);
    const active = engine.dataset.jobs.filter((j) => j.active);
    expect(active.some((j) => j.job.job_id.includes('-'))).toBe(true);
    for (const stored of active) {
      const result = await client.getJob(stored.job.job_id, { include_predicted_salaries: true });
      expect(result.data).toEqual(stored.job);
    }
  });

  it('detail decodes a percent-encoded id', async () => {
    const id = engine.dataset.jobs.find((j) => j.active)!.job.job_id;
    const encoded = [...id].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const response = await get(engine, `/api/public/v1/jobs/${encoded}`);
    expect(response.status).toBe(200);
  });

  it('market map carries layers, readiness and a legacy generated_at without a timezone', async () => {
    const result = await offlineClient(engine).getMarketMap();
    expect(result.meta.generated_at).toBe('2026-11-02 06:00:00');
    expect(result.meta.source).toMatch(OFFLINE_SOURCE);
    const data = result.data as {
      layers: string[];
      dimensions: Array<{ layer: string; readiness: string }>;
      readiness: Record<string, number>;
      generation: unknown;
    };
    expect(data.layers.length).toBeGreaterThanOrEqual(5);
    expect(new Set(data.dimensions.map((d) => d.readiness))).toEqual(new Set(['ready', 'partial', 'missing', 'error']));
    expect(data.readiness.total).toBe(data.dimensions.length);
    expect(data.generation).toBeTruthy();
  });

  it('market map filters by layer and by status', async () => {
    const client = offlineClient(engine);
    const byLayer = (await client.getMarketMap({ layer: 'protocols' })).data as {
      dimensions: Array<{ layer: string }>;
    };
    expect(byLayer.dimensions.length).toBeGreaterThan(0);
    expect(byLayer.dimensions.every((d) => d.layer === 'protocols')).toBe(true);
    for (const status of ['ready', 'partial', 'missing', 'error'] as const) {
      const data = (await client.getMarketMap({ status })).data as {
        dimensions: Array<{ readiness: string }>;
        readiness: Record<string, number>;
      };
      expect(data.dimensions.length).toBe(data.readiness[status]);
      expect(data.dimensions.every((d) => d.readiness === status)).toBe(true);
    }
  });

  it('interview brief by company_id, slug and case-insensitive name', async () => {
    const client = offlineClient(engine);
    const company = engine.dataset.companies[3]!;
    for (const params of [
      { company_id: company.company_id },
      { slug: company.slug },
      { name: `  ${company.name.toUpperCase()} ` },
    ]) {
      const result = await client.getCompanyInterviewBrief(params);
      expect((result.data.company as { slug: string }).slug).toBe(company.slug);
      expect(result.data).toHaveProperty('interview_package');
      expect(result.data).toHaveProperty('freshness');
      expect(result.meta.source).toMatch(OFFLINE_SOURCE);
    }
  });

  it('interview brief prefers company_id over slug over name, and says which was used', async () => {
    const [a, b, c] = engine.dataset.companies;
    const client = offlineClient(engine);
    const byId = await client.getCompanyInterviewBrief({ company_id: a!.company_id, slug: b!.slug, name: c!.name });
    expect(byId.data.lookup).toEqual({ by: 'company_id', value: a!.company_id, ignored: ['slug', 'name'] });
    const bySlug = await client.getCompanyInterviewBrief({ slug: b!.slug, name: c!.name });
    expect((bySlug.data.company as { slug: string }).slug).toBe(b!.slug);
  });

  it('health is the bare health response, 200 ok', async () => {
    const result = await offlineClient(engine).getHealth();
    expect(result.status).toBe(200);
    expect(result.data.status).toBe('ok');
    expect(result.data.probes.every((p) => p.ok)).toBe(true);
    const raw = (await (await get(engine, '/api/public/v1/mcp/health')).json()) as Record<string, unknown>;
    expect(raw).not.toHaveProperty('success');
  });

  it('serves the OpenAPI document, the agent index, the server card and the sitemap', async () => {
    const client = offlineClient(engine);
    expect((await client.getOpenApi()).openapi).toBe('3.1.0');
    expect(await client.getLlmsTxt()).toContain('/api/public/v1/search/jobs');
    const llms = await get(engine, '/llms.txt');
    expect(llms.headers.get('content-type')).toMatch(/^text\/plain/);
    const card = await get(engine, '/.well-known/mcp/server-card.json');
    expect(card.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await card.json()) as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain(
      'search_jobs',
    );
    expect((await get(engine, '/.well-known/agent-skills/index.json')).status).toBe(200);
    expect(await (await get(engine, '/sitemap.xml')).text()).toContain('<urlset');
  });

  it('predicted salaries are null unless asked for, and other classes are untouched', async () => {
    const client = offlineClient(engine);
    const predicted = engine.dataset.jobs.find((j) => j.active && j.job.salary?.source === 'predicted')!;
    expect((await client.getJob(predicted.job.job_id)).data.salary).toBeNull();
    expect((await client.getJob(predicted.job.job_id, { include_predicted_salaries: true })).data.salary).toEqual(
      predicted.job.salary,
    );
    const disclosed = engine.dataset.jobs.find((j) => j.active && j.job.salary?.source === 'disclosed')!;
    expect((await client.getJob(disclosed.job.job_id)).data.salary).toEqual(disclosed.job.salary);
    const page = await client.listJobs({ per_page: 100 });
    expect(page.data.jobs.some((j) => j.salary?.source === 'predicted')).toBe(false);
    expect(page.meta).toMatchObject({ predicted_salaries: 'excluded' });
  });

  it('does not hand out the dataset itself: mutating a response leaves the next one intact', async () => {
    const client = offlineClient(engine);
    const id = engine.dataset.jobs.find((j) => j.active)!.job.job_id;
    const first = await client.getJob(id);
    first.data.title = 'changed';
    expect((await client.getJob(id)).data.title).not.toBe('changed');
  });

  it('client errors carry the kinds of docs/contract.md', async () => {
    const client = offlineClient(engine);
    const error = await client.getJob('job_does_not_exist').catch((e: unknown) => e);
    expect(error instanceof ApiError && error.kind).toBe('not_found');
    const invalid = await client.searchJobs({ per_page: 500 }).catch((e: unknown) => e);
    expect(invalid instanceof ApiError && invalid.kind).toBe('invalid_argument');
    expect(invalid instanceof ApiError && invalid.upstreamMessage).toMatch(/per_page/);
  });
});
