/** The msw adapter: code that calls the real globalThis.fetch reaches the offline engine. */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { RetryAfterGate } from '../../../src/api/retry-after-gate.js';
import { createOfflineEngine, type OfflineEngine } from '../../../src/offline/engine.js';
import { offlineHandlers } from '../../helpers/offline-msw.js';

const BASE_URL = 'https://hiring.example.test';
let engine: OfflineEngine;
let server: ReturnType<typeof setupServer>;

beforeAll(async () => {
  engine = await createOfflineEngine();
  server = setupServer(...offlineHandlers(engine, BASE_URL));
  server.listen({ onUnhandledFrame: 'error' });
});
afterAll(() => {
  server.close();
});

describe('offlineHandlers', () => {
  it('serves the real client through globalThis.fetch', async () => {
    const client = new ApiClient({
      baseUrl: BASE_URL,
      fetch: globalThis.fetch,
      gate: new RetryAfterGate(),
      unavailableRetries: 0,
    });
    const page = await client.searchJobs({ domain: 'ai', per_page: 3 });
    expect(page.data.jobs).toHaveLength(3);
    const job = await client.getJob(page.data.jobs[0]!.job_id);
    expect(job.data.domain_id).toBe('ai');
    expect((await client.getHealth()).data.mcp_endpoint).toBe(`${BASE_URL}/api/public/v1/mcp`);
    const error = await client.getJob('job_missing').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'not_found', status: 404 });
  });

  it('passes faults through, Retry-After included', async () => {
    engine.faults.set([{ path: '/api/public/v1/jobs', kind: 'rate_limit', retryAfter: 9, times: 1 }]);
    const response = await fetch(`${BASE_URL}/api/public/v1/jobs`);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('9');
    engine.faults.clear();
  });
});
