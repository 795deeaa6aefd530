/** The node:http adapter answers real HTTP on loopback, streams faults as a server would, and has the control routes. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ApiError } from '../../../src/contract/errors.js';
import { RetryAfterGate } from '../../../src/api/retry-after-gate.js';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { startOfflineServer, type OfflineServer } from '../../../src/offline/server.js';

let server: OfflineServer;
beforeAll(async () => {
  server = await startOfflineServer({ engine: await createOfflineEngine() });
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.engine.faults.clear();
  server.engine.faults.resetHits();
});

const client = () =>
  new ApiClient({ baseUrl: server.url, fetch: globalThis.fetch, gate: new RetryAfterGate(), unavailableRetries: 0 });

describe('startOfflineServer', () => {
  it('listens on an ephemeral loopback port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
  });

  it('serves every operation to the real client over HTTP', async () => {
    const api = client();
    expect((await api.discover()).data.endpoints.length).toBeGreaterThan(6);
    const page = await api.searchJobs({ q: 'engineer', per_page: 5 });
    expect(page.data.jobs).toHaveLength(5);
    expect((await api.getJob(page.data.jobs[0]!.job_id)).data.job_id).toBe(page.data.jobs[0]!.job_id);
    expect((await api.getMarketMap({ status: 'ready' })).meta.generated_at).toBe('2026-11-02 06:00:00');
    expect((await api.getCompanyInterviewBrief({ slug: server.engine.dataset.companies[0]!.slug })).status).toBe(200);
    expect((await api.getHealth()).data.mcp_endpoint).toBe(`${server.url}/api/public/v1/mcp`);
    expect((await api.getOpenApi()).servers).toEqual([expect.objectContaining({ url: server.url })]);
  });

  it('sends the content type and length, and a 404 Markdown index on request', async () => {
    const ok = await fetch(`${server.url}/api/public/v1/jobs`);
    expect(ok.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(ok.headers.get('content-length'))).toBe((await ok.arrayBuffer()).byteLength);
    const missing = await fetch(`${server.url}/nowhere`, { headers: { accept: 'text/markdown' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^text\/markdown/);
    await missing.text();
  });

  it('answers HEAD without a body and other methods with 405', async () => {
    const head = await fetch(`${server.url}/api/public/v1/jobs`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(`${server.url}/api/public/v1/jobs`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    await post.text();
  });
});

describe('control routes', () => {
  it('POST /__mock/faults replaces the rules, GET lists them, DELETE clears them', async () => {
    const rules = [{ path: '/api/public/v1/jobs', kind: 'rate_limit', retryAfter: 7 }];
    const set = await fetch(`${server.url}/__mock/faults`, { method: 'POST', body: JSON.stringify(rules) });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ success: true, data: { rules } });
    const limited = await fetch(`${server.url}/api/public/v1/jobs`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    await limited.text();
    expect(
      ((await (await fetch(`${server.url}/__mock/faults`)).json()) as { data: { rules: unknown[] } }).data.rules,
    ).toEqual(rules);
    expect((await fetch(`${server.url}/__mock/faults`, { method: 'DELETE' })).status).toBe(200);
    const after = await fetch(`${server.url}/api/public/v1/jobs`);
    expect(after.status).toBe(200);
    await after.text();
  });

  it('GET /__mock/stats counts upstream requests per path, not control requests', async () => {
    await (await fetch(`${server.url}/api/public/v1/jobs`)).text();
    await (await fetch(`${server.url}/api/public/v1/jobs?page=2`)).text();
    await (await fetch(`${server.url}/llms.txt`)).text();
    const stats = (await (await fetch(`${server.url}/__mock/stats`)).json()) as {
      data: { total: number; hits: Record<string, number> };
    };
    expect(stats.data).toEqual({ total: 3, hits: { '/api/public/v1/jobs': 2, '/llms.txt': 1 } });
    expect((await fetch(`${server.url}/__mock/stats`, { method: 'DELETE' })).status).toBe(200);
    expect(server.engine.faults.hits()).toBe(0);
  });

  it('refuses invalid rules with 400 and keeps the old ones', async () => {
    server.engine.faults.add({ path: '/llms.txt', kind: 'unavailable' });
    for (const body of ['not json', '[{"path":"/x","kind":"boom"}]']) {
      const response = await fetch(`${server.url}/__mock/faults`, { method: 'POST', body });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, error: 'invalid_parameter' });
    }
    expect(server.engine.faults.list()).toHaveLength(1);
    expect((await fetch(`${server.url}/__mock/nothing`)).status).toBe(404);
  });
});

describe('faults over real HTTP', () => {
  it('reset destroys the socket mid-body', async () => {
    server.engine.faults.add({ path: '/api/public/v1/jobs', kind: 'reset' });
    const response = await fetch(`${server.url}/api/public/v1/jobs?per_page=100`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
    const error = await client()
      .listJobs()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('network');
  });

  it('oversized is chunked without Content-Length, and the client refuses it', async () => {
    server.engine.faults.add({ path: '/api/public/v1/jobs', kind: 'oversized' });
    const response = await fetch(`${server.url}/api/public/v1/jobs`);
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    await response.body!.cancel();
    const error = await client()
      .listJobs()
      .catch((e: unknown) => e);
    expect((error as ApiError).kind).toBe('upstream_contract');
  });

  it('hang holds the request until the client gives up', async () => {
    server.engine.faults.add({ path: '/api/public/v1/jobs', kind: 'hang' });
    const api = new ApiClient({
      baseUrl: server.url,
      fetch: globalThis.fetch,
      timeoutMs: 200,
      gate: new RetryAfterGate(),
    });
    const error = await api.listJobs().catch((e: unknown) => e);
    expect((error as ApiError).kind).toBe('timeout');
  });
});

describe('lifecycle', () => {
  it('close() ends idle and hanging connections promptly', async () => {
    const own = await startOfflineServer({
      engine: await createOfflineEngine({ dataset: server.engine.dataset }),
      faults: [{ path: '/hang', kind: 'hang' }],
    });
    await (await fetch(`${own.url}/api/public/v1`)).text(); // leaves an idle keep-alive socket
    const hanging = fetch(`${own.url}/hang`).then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await own.close();
    // Against "waits for the hanging request" (forever): 5 s is far from both on a loaded machine.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await hanging).toBe('failed');
  });

  it('reads SERVICE_MCP_MOCK_FAULTS when given neither engine nor faults', async () => {
    const previous = process.env.SERVICE_MCP_MOCK_FAULTS;
    process.env.SERVICE_MCP_MOCK_FAULTS = JSON.stringify([{ path: '/llms.txt', kind: 'unavailable' }]);
    try {
      const own = await startOfflineServer({ port: 0 });
      try {
        const response = await fetch(`${own.url}/llms.txt`);
        expect(response.status).toBe(503);
        await response.text();
      } finally {
        await own.close();
      }
    } finally {
      if (previous === undefined) delete process.env.SERVICE_MCP_MOCK_FAULTS;
      else process.env.SERVICE_MCP_MOCK_FAULTS = previous;
    }
  });
});
