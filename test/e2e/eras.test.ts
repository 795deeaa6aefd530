/**
 * Both protocol eras over both transports, with the SDK v2 client as real clients connect: pinned
 * to 2026-07-28 (server/discover, no initialize), and the 2025 `initialize` handshake. Against the
 * built binary and mock-api on loopback: every tool's happy path, with structuredContent checked
 * against the tool's output schema and against the text, each error kind, a waited-out 429 with
 * progress, and cancellation.
 */
import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  StreamableHTTPClientTransport,
  type CallToolResult,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/index.js';
import { findTool } from '../helpers/tools.js';
import { outputSchemaOf } from '../../src/tools/run.js';
import { activeJob, inactiveJob } from './dataset.js';
import { BIN, cleanEnv, ROOT, startMockApi, textOf, type MockApi } from './helpers.js';
import { hitsOf, startHttpServer, type HttpServerProcess } from './http-helpers.js';

type Era = 'modern' | 'legacy';
type Wire = 'stdio' | 'http';

const clientFor = (era: Era) =>
  new Client(
    { name: `service-mcp-e2e-${era}`, version: '0.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );

let api: MockApi;
let http: HttpServerProcess;

beforeAll(async () => {
  api = await startMockApi();
  http = await startHttpServer(['--base-url', api.url, '--no-cache', '--max-retry-wait-s', '5']);
});

afterAll(async () => {
  await http?.stop();
  await api?.close();
});

async function connect(wire: Wire, era: Era): Promise<Client> {
  const client = clientFor(era);
  const transport =
    wire === 'stdio'
      ? new StdioClientTransport({
          command: process.execPath,
          args: [BIN, '--base-url', api.url, '--no-cache', '--max-retry-wait-s', '5'],
          env: cleanEnv(),
          cwd: ROOT,
          stderr: 'ignore',
        })
      : new StreamableHTTPClientTransport(new URL(http.url));
  await client.connect(transport);
  return client;
}

/** What the text must show of the data: every job's id, or the record's own words. */
function describedBy(name: string, data: Record<string, unknown>): string[] {
  if (name === 'search_jobs' || name === 'list_jobs')
    return (data.jobs as Array<{ job_id: string }>).map((job) => job.job_id);
  if (name === 'get_job') return [String(data.job_id), String(data.title)];
  if (name === 'check_api_health') return [String(data.status)];
  if (name === 'discover_api')
    return (data.endpoints as Array<{ path: string }>).slice(0, 3).map((endpoint) => endpoint.path);
  return [];
}

describe.each([
  ['stdio', 'modern'],
  ['stdio', 'legacy'],
  ['http', 'modern'],
  ['http', 'legacy'],
] as const)('%s, %s era', (wire, era) => {
  let client: Client;

  beforeAll(async () => {
    client = await connect(wire, era);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('negotiates the era and lists every tool', async () => {
    expect(client.getProtocolEra()).toBe(era);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
  });

  it.each(TOOLS.map((tool) => tool.name))(
    '%s: structuredContent fits the output schema and is the data the text describes',
    async (name) => {
      const tool = findTool(name)!;
      const args = name === 'get_job' ? { job_id: activeJob.job_id } : tool.example;
      const result = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      const structured = outputSchemaOf(tool).parse(result.structuredContent) as {
        data: Record<string, unknown>;
        provenance: { source: string | null };
      };
      const text = textOf(result);
      for (const shown of describedBy(name, structured.data)) expect(text).toContain(shown);
      if (structured.provenance.source) expect(text).toContain(structured.provenance.source);
    },
  );

  it('answers each error kind: invalid_argument and not_found as results, an unknown tool as a protocol error', async () => {
    const bad = (await client.callTool({ name: 'search_jobs', arguments: { per_page: 500 } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^invalid_argument: per_page: must be at most 100, got 500/);
    const gone = (await client.callTool({
      name: 'get_job',
      arguments: { job_id: inactiveJob.job_id },
    })) as CallToolResult;
    expect(textOf(gone)).toMatch(/^not_found: /);
    const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(ProtocolError);
    expect((unknown as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
    expect((unknown as ProtocolError).message).toMatch(/Tool no_such_tool not found/);
  });

  it('waits out a 429 and reports the wait as progress', async () => {
    const path = '/api/public/v1/market-map';
    await api.setFaults([{ path, kind: 'rate_limit', retryAfter: 1, times: 1 }]);
    try {
      const progress: string[] = [];
      const result = (await client.callTool(
        { name: 'get_market_map', arguments: {} },
        { onprogress: (p) => void progress.push(p.message ?? '') },
      )) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(progress.some((message) => /rate limited: waiting 1 s/.test(message))).toBe(true);
    } finally {
      await api.clearFaults();
    }
  });

  it('cancellation ends the call, and the server goes on serving', async () => {
    const path = '/api/public/v1/jobs';
    await api.setFaults([{ path, kind: 'hang' }]);
    try {
      const before = await hitsOf(api, path);
      const controller = new AbortController();
      const pending = client
        .callTool({ name: 'list_jobs', arguments: {} }, { signal: controller.signal })
        .catch((error: unknown) => error);
      await expect.poll(() => hitsOf(api, path)).toBe(before + 1);
      controller.abort();
      expect(await pending).toBeInstanceOf(Error);
    } finally {
      await api.clearFaults();
    }
    const after = (await client.callTool({
      name: 'get_job',
      arguments: { job_id: activeJob.job_id },
    })) as CallToolResult;
    expect(after.isError).toBeFalsy();
  });
});

describe('log lines over stdio reach a client only as its revision allows', () => {
  const session = async (era: Era) => {
    const client = clientFor(era);
    const logs: string[] = [];
    client.setNotificationHandler('notifications/message', (n) => void logs.push(String(n.params.data)));
    const args = [BIN, '--base-url', api.url, '--no-cache', '--log-level', 'debug'];
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args, env: cleanEnv(), cwd: ROOT, stderr: 'ignore' }),
    );
    return { client, logs };
  };
  const getJob = { name: 'get_job', arguments: { job_id: activeJob.job_id } };

  it('2026-07-28: none for a request without a log level, and those at or above the level a request names', async () => {
    const { client, logs } = await session('modern');
    try {
      await client.callTool(getJob);
      expect(logs).toEqual([]);
      await client.callTool({ ...getJob, _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } });
      expect(logs.some((line) => /GET \/api\/public\/v1\/jobs\//.test(line))).toBe(true);
      logs.length = 0;
      await client.callTool({ ...getJob, _meta: { 'io.modelcontextprotocol/logLevel': 'error' } });
      expect(logs).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('2025: at the level the session set with logging/setLevel', async () => {
    const { client, logs } = await session('legacy');
    try {
      await client.setLoggingLevel('error');
      await client.callTool(getJob);
      expect(logs).toEqual([]);
      await client.setLoggingLevel('debug');
      await client.callTool(getJob);
      expect(logs.some((line) => /GET \/api\/public\/v1\/jobs\//.test(line))).toBe(true);
    } finally {
      await client.close();
    }
  });
});
