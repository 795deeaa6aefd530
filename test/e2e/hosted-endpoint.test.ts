/**
 * The hosted tool endpoint, POST /api/public/v1/mcp, as an agent meets it: by URL, with the SDK
 * v2 client in both protocol eras. Served by `mock-api` (over the same in-process engine as its
 * REST routes, faults included) and by `serve --http` (beside /mcp), with the same definitions.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/index.js';
import { activeJob, MARKET_TOOLS } from './dataset.js';
import { startMockApi, textOf, type MockApi } from './helpers.js';
import {
  hitsOf,
  INITIALIZE,
  MCP_POST_HEADERS,
  rawRequest,
  startHttpServer,
  type HttpServerProcess,
} from './http-helpers.js';

type Era = 'modern' | 'legacy';
const HOSTED = '/api/public/v1/mcp';

let api: MockApi;
let http: HttpServerProcess;

beforeAll(async () => {
  api = await startMockApi();
  http = await startHttpServer(['--base-url', api.url, '--no-cache', '--max-retry-wait-s', '0']);
});
afterEach(() => api.clearFaults());
afterAll(async () => {
  await http?.stop();
  await api?.close();
});

async function connect(url: string, era: Era): Promise<Client> {
  const client = new Client(
    { name: `hosted-e2e-${era}`, version: '0.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Everything a client learns from the lists, for comparing two servers. */
async function definitions(client: Client) {
  const [tools, prompts, resources, templates] = await Promise.all([
    client.listTools(),
    client.listPrompts(),
    client.listResources(),
    client.listResourceTemplates(),
  ]);
  return {
    tools: tools.tools,
    prompts: prompts.prompts,
    resources: resources.resources,
    templates: templates.resourceTemplates,
  };
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

describe.each(['modern', 'legacy'] as const)('mock-api hosts the tool endpoint, %s era', (era) => {
  let client: Client;
  let reference: Client;
  beforeAll(async () => {
    client = await connect(`${api.url}${HOSTED}?surface=market`, era);
    reference = await connect(http.url, era);
  });
  afterAll(async () => {
    await client?.close();
    await reference?.close();
  });

  it('negotiates the era and offers the definitions serve --http offers, then the market tools REST lacks', async () => {
    expect(client.getProtocolEra()).toBe(era);
    const hosted = await definitions(client);
    const own = await definitions(reference);
    expect(hosted.tools.map((tool) => tool.name)).toEqual([...TOOLS.map((tool) => tool.name), ...MARKET_TOOLS]);
    expect({ ...hosted, tools: hosted.tools.slice(0, TOOLS.length) }).toEqual(own);
    // Its own tools, read-only: the surface a bridge reads, never a bridge itself.
    for (const tool of hosted.tools.slice(TOOLS.length)) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
  });

  it('an agent searches, then reads a job in detail, and is told the data is fictional', async () => {
    const found = await call(client, 'search_jobs', { q: 'engineer', per_page: 3 });
    expect(found.isError, textOf(found)).toBeFalsy();
    const ids = (found.structuredContent as { data: { jobs: Array<{ job_id: string }> } }).data.jobs.map(
      (job) => job.job_id,
    );
    expect(ids.length).toBeGreaterThan(0);
    const detail = await call(client, 'get_job', { job_id: ids[0]! });
    expect(detail.isError, textOf(detail)).toBeFalsy();
    expect(textOf(detail)).toContain(ids[0]!);
    expect(textOf(detail)).toMatch(/^FICTIONAL sample data, by the API's own word: /);
    expect(
      (detail.structuredContent as { provenance: { reached: string; fictional: boolean } }).provenance,
    ).toMatchObject({ reached: 'embedded', fictional: true });
  });

  it("the engine's fault injection reaches the tools, and their requests count in its statistics", async () => {
    const path = `/api/public/v1/jobs/${activeJob.job_id}`;
    const before = await hitsOf(api, path);
    // One 429 asking for a second: the tool waits it out (mock-api's default wait budget is 20 s) and asks again.
    await api.setFaults([{ path, kind: 'rate_limit', retryAfter: 1, times: 1 }]);
    const waited = await call(client, 'get_job', { job_id: activeJob.job_id });
    expect(waited.isError, textOf(waited)).toBeFalsy();
    expect(await hitsOf(api, path)).toBe(before + 2);
    await api.setFaults([{ path, kind: 'unavailable' }]);
    const down = await call(client, 'get_job', { job_id: activeJob.job_id });
    expect(textOf(down)).toMatch(/^upstream_unavailable: HTTP 503/);
  });
});

describe('addresses and refusals', () => {
  it('surface=market is the default: the endpoint without the query answers the same', async () => {
    const client = await connect(`${api.url}${HOSTED}`, 'modern');
    try {
      const result = await call(client, 'get_market_map');
      expect(result.isError, textOf(result)).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('another surface is a 400 naming the surfaces served, at mock-api and at serve --http alike', async () => {
    for (const origin of [api.url, http.origin]) {
      for (const query of ['surface=admin', 'surface=market&surface=candidate']) {
        const response = await rawRequest(origin, {
          method: 'POST',
          path: `${HOSTED}?${query}`,
          headers: MCP_POST_HEADERS,
          body: INITIALIZE,
        });
        expect(response.status, `${origin} ${query}`).toBe(400);
        expect(response.json()).toMatchObject({
          jsonrpc: '2.0',
          id: null,
          error: { message: expect.stringMatching(/not served here; the surfaces served are: market/) },
        });
      }
    }
  });

  it('the same safety rules at the hosted path: a foreign Host or Origin is refused with 403', async () => {
    for (const origin of [api.url, http.origin]) {
      const host = await rawRequest(origin, {
        method: 'POST',
        path: HOSTED,
        headers: { ...MCP_POST_HEADERS, host: 'evil.example.com' },
        body: INITIALIZE,
      });
      expect(host.status, origin).toBe(403);
      const foreign = await rawRequest(origin, {
        method: 'POST',
        path: HOSTED,
        headers: { ...MCP_POST_HEADERS, origin: 'https://evil.example.com' },
        body: INITIALIZE,
      });
      expect(foreign.status, origin).toBe(403);
    }
  });

  it('serve --http answers at the hosted path too, so a client switches by changing the origin alone', async () => {
    for (const era of ['modern', 'legacy'] as const) {
      const client = await connect(`${http.origin}${HOSTED}?surface=market`, era);
      try {
        expect(client.getProtocolEra()).toBe(era);
        const result = await call(client, 'get_job', { job_id: activeJob.job_id });
        expect(result.isError, textOf(result)).toBeFalsy();
      } finally {
        await client.close();
      }
    }
  });

  it('mock-api still serves its REST routes and documents, and its catalog lists the endpoint as served', async () => {
    const discovery = (await (await fetch(`${api.url}/api/public/v1`)).json()) as {
      data: { endpoints: Array<{ path: string; method: string; description: string }> };
    };
    const endpoint = discovery.data.endpoints.find((e) => e.path === HOSTED);
    expect(endpoint).toMatchObject({ method: 'POST', description: expect.stringMatching(/mock-api/) });
  });
});
