/**
 * The bridged tools through an outside client: the v1 TypeScript SDK's Client (what most hosts
 * embed today, a separate implementation from the v2 client the other e2e tests drive), over stdio
 * and HTTP to the built binary pointed at mock-api. It lists the hosted market tools beside ours,
 * calls one, cancels one, meets a hosted 429 and a hosted endpoint that is down, and sees
 * `--tools` name a bridged tool and `--no-bridge` leave ours alone.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/contract/tool-names.js';
import { bridgedNames, names } from './bridged-names.js';
import { MARKET_TOOLS } from './dataset.js';
import { BIN, cleanEnv, ROOT, startMockApi, textOf, type MockApi } from './helpers.js';
import { hitsOf, startHttpServer } from './http-helpers.js';

const HOSTED_PATH = '/api/public/v1/mcp';

let api: MockApi;
const opened: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  api = await startMockApi();
});
afterEach(() => api.clearFaults());
afterAll(async () => {
  await Promise.all(opened.map((target) => target.close().catch(() => {})));
  await api?.close();
});

const live = (...args: string[]) => ['--base-url', api.url, '--no-cache', ...args];

async function overStdio(args: string[], env = cleanEnv({ SERVICE_MCP_NO_BRIDGE: '0' })): Promise<Client> {
  const client = new Client({ name: 'outside-client-e2e', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], env, cwd: ROOT }));
  opened.push(client);
  return client;
}

async function overHttp(args: string[]): Promise<Client> {
  const server = await startHttpServer(args, cleanEnv({ SERVICE_MCP_NO_BRIDGE: '0' }));
  opened.push({ close: async () => void (await server.stop()) });
  const client = new Client({ name: 'outside-client-e2e', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`)));
  opened.push(client);
  return client;
}

describe('bridged tools through the v1 SDK client', () => {
  it.each(['stdio', 'http'] as const)('over %s: listed after ours, and called with its provenance', async (wire) => {
    const client = wire === 'stdio' ? await overStdio(live()) : await overHttp(live());
    expect(await bridgedNames(client)).toEqual([...TOOL_NAMES, ...MARKET_TOOLS]);
    const evidence = await client.callTool({ name: 'list_frontier_ai_evidence', arguments: { limit: 2 } });
    expect(evidence.isError, textOf(evidence)).toBeFalsy();
    expect(textOf(evidence)).toMatch(/^FICTIONAL sample data, by the deployment's own word: /);
    expect(textOf(evidence)).toContain('Provenance: hosted tool list_frontier_ai_evidence at ');
    const bad = await client.callTool({ name: 'list_frontier_ai_evidence', arguments: { limit: 'many' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^invalid_argument: limit/);
  });

  it('a cancelled bridged call ends the hosted request, and the next call is answered', async () => {
    const client = await overStdio(live());
    await bridgedNames(client);
    await api.setFaults([{ path: HOSTED_PATH, kind: 'hang', times: 1 }]);
    // Counted before the call: counted after, a request already in would be waited for again, forever.
    const before = await hitsOf(api, HOSTED_PATH);
    const controller = new AbortController();
    const pending = client
      .callTool({ name: 'get_company_funding', arguments: { company: 'quillmark' } }, undefined, {
        signal: controller.signal,
      })
      .catch((error: unknown) => error);
    while ((await hitsOf(api, HOSTED_PATH)) === before) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(new Error('user cancelled'));
    expect(await pending).toBeInstanceOf(Error);
    const after = await client.callTool({ name: 'get_company_funding', arguments: { company: 'quillmark' } });
    expect(after.isError, textOf(after)).toBeFalsy();
  });

  it('a hosted 429 past the wait budget is rate_limited; a hosted endpoint that is down leaves ours working', async () => {
    const client = await overStdio(live('--max-retry-wait-s', '2'));
    await bridgedNames(client);
    await api.setFaults([{ path: HOSTED_PATH, kind: 'rate_limit', retryAfter: 30, times: 1 }]);
    const limited = await client.callTool({ name: 'get_company_funding', arguments: { company: 'halcyon-labs' } });
    expect(limited.isError).toBe(true);
    expect(textOf(limited)).toMatch(/^rate_limited: .*30s pause/);

    const down = await startMockApi();
    opened.push(down);
    await down.setFaults([{ path: HOSTED_PATH, kind: 'unavailable' }]);
    const beside = await overStdio(['--base-url', down.url, '--no-cache']);
    expect(await names(beside)).toEqual(TOOL_NAMES);
    expect((await beside.callTool({ name: 'list_jobs', arguments: { per_page: 1 } })).isError).toBeFalsy();
    expect(textOf(await beside.callTool({ name: 'check_api_health', arguments: {} }))).toMatch(
      /- Hosted tools: the hosted surface from .* could not be read: .*503/,
    );
  });

  it('--tools may name a bridged tool; --no-bridge leaves our seven', async () => {
    const chosen = await overStdio(live('--tools', 'get_job,get_compensation_benchmarks'));
    expect(await bridgedNames(chosen, ['get_compensation_benchmarks'])).toEqual([
      'get_job',
      'get_compensation_benchmarks',
    ]);
    expect(await names(await overStdio(live('--no-bridge')))).toEqual(TOOL_NAMES);
  });
});
