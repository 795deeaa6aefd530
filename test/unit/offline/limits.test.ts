/** The 400 rules for every limit of the spec, the 404s, and the HTTP-level conventions. */
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelopeSchema } from '../../../src/contract/schemas.js';
import { createOfflineEngine, type OfflineEngine } from '../../../src/offline/engine.js';
import { prefersMarkdown } from '../../../src/offline/responses.js';
import { get } from '../../helpers/offline-client.js';

let engine: OfflineEngine;
beforeAll(async () => {
  engine = await createOfflineEngine();
});

const SEARCH = '/api/public/v1/search/jobs';
const LIST = '/api/public/v1/jobs';
const MAP = '/api/public/v1/market-map';
const BRIEF = '/api/public/v1/interview/company';
const long = (n: number) => 'x'.repeat(n);

async function expectError(path: string, status: number, mentions?: string) {
  const response = await get(engine, path);
  expect(response.status, path).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = ErrorEnvelopeSchema.parse(await response.json());
  if (mentions) expect(body.message, path).toContain(mentions);
  return body;
}

const BAD: Array<[string, string]> = [
  [`${SEARCH}?q=`, 'q'],
  [`${SEARCH}?q=${long(201)}`, 'q'],
  [`${LIST}?q=`, 'q'],
  [`${LIST}?q=${long(201)}`, 'q'],
  [`${SEARCH}?per_page=0`, 'per_page'],
  [`${SEARCH}?per_page=101`, 'per_page'],
  [`${SEARCH}?per_page=1.5`, 'per_page'],
  [`${SEARCH}?per_page=ten`, 'per_page'],
  [`${LIST}?per_page=101`, 'per_page'],
  [`${SEARCH}?page=0`, 'page'],
  [`${SEARCH}?page=-1`, 'page'],
  [`${LIST}?page=first`, 'page'],
  [`${SEARCH}?location_country=USA`, 'location_country'],
  [`${SEARCH}?location_country=U`, 'location_country'],
  [`${LIST}?location_country=1A`, 'location_country'],
  [`${SEARCH}?min_salary_usd=-1`, 'min_salary_usd'],
  [`${SEARCH}?min_salary_usd=lots`, 'min_salary_usd'],
  [`${SEARCH}?max_salary_usd=-5`, 'max_salary_usd'],
  [`${SEARCH}?min_salary_usd=200000&max_salary_usd=100000`, 'min_salary_usd'],
  [`${SEARCH}?domain=crypto`, 'domain'],
  [`${LIST}?domain=AI`, 'domain'],
  [`${SEARCH}?skill_match=some`, 'skill_match'],
  [`${SEARCH}?remote_only=yes`, 'remote_only'],
  [`${LIST}?remote_only=1`, 'remote_only'],
  [`${SEARCH}?include_predicted_salaries=TRUE`, 'include_predicted_salaries'],
  [`${SEARCH}?skills=`, 'skills'],
  [`${SEARCH}?skills=,%20,`, 'skills'],
  [`${SEARCH}?company_type=`, 'company_type'],
  [`${SEARCH}?seniority_level=`, 'seniority_level'],
  [`${LIST}/job_ai_0001?include_predicted_salaries=maybe`, 'include_predicted_salaries'],
  [`${MAP}?status=done`, 'status'],
  [`${MAP}?layer=quantum`, 'layer'],
  [`${MAP}?layer=Compute`, 'layer'],
  [BRIEF, 'company_id'],
  [`${BRIEF}?company_id=`, 'company_id'],
  [`${BRIEF}?slug=Northwind_Neural`, 'slug'],
  [`${BRIEF}?slug=northwind--neural`, 'slug'],
  [`${BRIEF}?slug=-northwind`, 'slug'],
  [`${BRIEF}?name=`, 'name'],
  [`${BRIEF}?name=${long(161)}`, 'name'],
];

describe('400 for every limit', () => {
  it.each(BAD)('%s names %s', async (path, parameter) => {
    const body = await expectError(path, 400, parameter);
    expect(body.error).toMatch(/^(invalid|missing)_parameter$/);
    expect(body.parameter).toBe(parameter);
  });

  const GOOD = [
    `${SEARCH}?q=${long(200)}`,
    `${SEARCH}?q=a`,
    `${SEARCH}?per_page=1`,
    `${SEARCH}?per_page=100`,
    `${SEARCH}?page=1000`,
    `${SEARCH}?location_country=us`,
    `${SEARCH}?min_salary_usd=0&max_salary_usd=0`,
    `${SEARCH}?min_salary_usd=150000.50`,
    `${SEARCH}?remote_only=false&include_predicted_salaries=true`,
    `${SEARCH}?skill_match=all&skills=Rust`,
    `${MAP}?status=all&layer=all`,
    `${MAP}?layer=compute`,
    `${BRIEF}?name=${encodeURIComponent('Northwind Neural')}`,
    `${BRIEF}?slug=northwind-neural`,
  ];
  it.each(GOOD)('accepts the boundary value in %s', async (path) => {
    expect((await get(engine, path)).status).toBe(200);
  });

  it('lets an unknown parameter through, as the hosted API does', async () => {
    expect((await get(engine, `${LIST}?utm_source=x`)).status).toBe(200);
  });
});

describe('404', () => {
  it('for an unknown job', async () => {
    await expectError(`${LIST}/job_ai_9999`, 404, 'job_ai_9999');
  });

  it('for a job that is no longer active, exactly as for an unknown one', async () => {
    const inactive = engine.dataset.jobs.find((j) => !j.active)!;
    const body = await expectError(`${LIST}/${inactive.job.job_id}`, 404);
    expect(body.error).toBe('not_found');
  });

  it('for an id that is not valid percent-encoding', async () => {
    await expectError(`${LIST}/%E0%A4%A`, 404);
  });

  it.each([`${BRIEF}?company_id=999999`, `${BRIEF}?slug=no-such-company`, `${BRIEF}?name=Nobody%20Inc`])(
    'for an unknown company: %s',
    async (path) => {
      await expectError(path, 404);
    },
  );

  it('for a company with jobs but no brief', async () => {
    const briefed = new Set(engine.dataset.companies.map((c) => c.company_id));
    const job = engine.dataset.jobs.find((j) => j.job.company.id !== null && !briefed.has(j.job.company.id))!;
    await expectError(`${BRIEF}?company_id=${job.job.company.id}`, 404);
  });

  it('for an unknown route, as a JSON envelope by default', async () => {
    await expectError('/api/public/v2/jobs', 404, '/api/public/v1');
    await expectError(`${LIST}/a/b`, 404);
  });

  it.each(['text/markdown', 'text/markdown, application/json;q=0.5', 'text/html, text/markdown'])(
    'as a Markdown index, still 404, for Accept: %s',
    async (accept) => {
      const response = await get(engine, '/docs/nowhere', { accept });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
      const text = await response.text();
      expect(text).toMatch(/^# /);
      expect(text).toContain('/api/public/v1/search/jobs');
    },
  );

  it('prefers JSON when the client ranks it higher or only says */*', () => {
    expect(prefersMarkdown('application/json, text/markdown;q=0.9')).toBe(false);
    expect(prefersMarkdown('*/*')).toBe(false);
    expect(prefersMarkdown('text/markdown;q=0')).toBe(false);
    expect(prefersMarkdown(null)).toBe(false);
    expect(prefersMarkdown('text/markdown, */*')).toBe(true);
  });
});

describe('HTTP conventions', () => {
  it('answers other methods with 405 and Allow', async () => {
    const response = await engine.handle(new Request(`http://offline.invalid${LIST}`, { method: 'POST' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
    expect(ErrorEnvelopeSchema.parse(await response.json()).error).toBe('method_not_allowed');
  });

  it('answers HEAD like GET, without a body', async () => {
    const response = await engine.handle(new Request(`http://offline.invalid${LIST}`, { method: 'HEAD' }));
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(100);
    expect(await response.text()).toBe('');
  });

  it('says the hosted tool endpoint is not part of the offline snapshot', async () => {
    const response = await engine.handle(
      new Request('http://offline.invalid/api/public/v1/mcp', { method: 'POST', body: '{}' }),
    );
    expect(response.status).toBe(501);
  });

  it('sends JSON with a content type and length on every envelope', async () => {
    for (const path of [LIST, `${SEARCH}?q=`, `${LIST}/nope`, '/api/public/v1/mcp/health']) {
      const response = await get(engine, path);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Number(response.headers.get('content-length'))).toBe((await response.arrayBuffer()).byteLength);
    }
  });
});
