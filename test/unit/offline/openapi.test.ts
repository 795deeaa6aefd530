import { validate, compileErrors } from '@readme/openapi-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEngine, type OfflineEngine } from '../../../src/offline/engine.js';
import { buildOpenApi } from '../../../src/offline/openapi.js';
import { OPERATIONS } from '../../../src/offline/params.js';
import { get } from '../../helpers/offline-client.js';

let engine: OfflineEngine;
beforeAll(async () => {
  engine = await createOfflineEngine();
});

interface Doc {
  openapi: string;
  info: { version: string };
  paths: Record<
    string,
    {
      get: {
        operationId: string;
        parameters: Array<{ name: string; in: string; schema: Record<string, unknown> }>;
        responses: Record<string, { headers?: Record<string, unknown> }>;
      };
    }
  >;
}

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1.0 document, version 1.0.0', async () => {
    const response = await get(engine, '/openapi.json');
    expect(response.status).toBe(200);
    const doc = (await response.json()) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('is checked by a validator that does reject a broken document', async () => {
    const broken = buildOpenApi('http://127.0.0.1:1') as unknown as Doc;
    broken.paths['/api/public/v1/jobs']!.get.parameters[0]!.in = 'nowhere';
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it('describes every operation with its parameters and constraints', () => {
    const doc = buildOpenApi('http://127.0.0.1:1') as unknown as Doc;
    expect(
      Object.values(doc.paths)
        .map((p) => p.get.operationId)
        .sort(),
    ).toEqual(OPERATIONS.map((o) => o.operationId).sort());
    const search = doc.paths['/api/public/v1/search/jobs']!.get;
    const param = (name: string) => search.parameters.find((p) => p.name === name)!.schema;
    expect(param('per_page')).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    expect(param('page')).toMatchObject({ type: 'integer', minimum: 1, default: 1 });
    expect(param('q')).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(param('location_country')).toMatchObject({ pattern: '^[A-Za-z]{2}$' });
    expect(param('min_salary_usd')).toMatchObject({ type: 'number', minimum: 0 });
    expect(param('skill_match')).toMatchObject({ enum: ['any', 'all'] });
    expect(search.responses['429']!.headers).toHaveProperty('Retry-After');
    const list = doc.paths['/api/public/v1/jobs']!.get.parameters.map((p) => p.name);
    expect(list).not.toContain('company_type');
    expect(list).not.toContain('min_salary_usd');
    const detail = doc.paths['/api/public/v1/jobs/{jobId}']!.get.parameters;
    expect(detail[0]).toMatchObject({ name: 'jobId', in: 'path', required: true });
    const brief = doc.paths['/api/public/v1/interview/company']!.get.parameters;
    expect(brief.find((p) => p.name === 'slug')!.schema).toMatchObject({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' });
    expect(brief.find((p) => p.name === 'name')!.schema).toMatchObject({ minLength: 1, maxLength: 160 });
  });
});
