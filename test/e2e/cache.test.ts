/** The response cache through the built binary against mock-api: a repeat call is a reported hit; --no-cache turns it off. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeJob } from './dataset.js';
import { cleanEnv, connectStdio, startMockApi, textOf, type MockApi } from './helpers.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await api?.close();
});

const path = `/api/public/v1/jobs/${activeJob.job_id}`;
const hits = async () => ((await api.stats()) as { data: { hits: Record<string, number> } }).data.hits[path] ?? 0;
type Provenance = { cache?: { hit: boolean; age_s: number } };

describe('response cache', () => {
  it('a repeat call is answered from the cache and says so in provenance and text', async () => {
    const session = await connectStdio(['--base-url', api.url]);
    try {
      const before = await hits();
      const first = await session.client.callTool({ name: 'get_job', arguments: { job_id: activeJob.job_id } });
      const second = await session.client.callTool({ name: 'get_job', arguments: { job_id: activeJob.job_id } });
      expect((first.structuredContent as { provenance: Provenance }).provenance.cache).toBeUndefined();
      expect((second.structuredContent as { provenance: Provenance }).provenance.cache).toEqual({
        hit: true,
        age_s: expect.any(Number),
      });
      expect(textOf(second)).toMatch(/Provenance: .* · from cache, \d+s old$/);
      expect(await hits()).toBe(before + 1);
    } finally {
      await session.close();
    }
  });

  it.each([
    ['--no-cache', ['--no-cache'], {}],
    ['SERVICE_MCP_NO_CACHE=1', [], { SERVICE_MCP_NO_CACHE: '1' }],
  ])('%s sends every call and reports no cache', async (_name, flags, env) => {
    const session = await connectStdio(['--base-url', api.url, ...flags], cleanEnv(env));
    try {
      const before = await hits();
      for (let i = 0; i < 2; i++) {
        const result = await session.client.callTool({ name: 'get_job', arguments: { job_id: activeJob.job_id } });
        expect((result.structuredContent as { provenance: Provenance }).provenance.cache).toBeUndefined();
        expect(textOf(result)).not.toContain('from cache');
      }
      expect(await hits()).toBe(before + 2);
    } finally {
      await session.close();
    }
  });
});
