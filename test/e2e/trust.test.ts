/**
 * What a job-seeker's assistant can trust at a glance, through the built binary against mock-api
 * on loopback: fiction by the API's own word however it is reached, a wrong base URL never read as
 * "the job is gone", and the small defects that misled (both --offline and --base-url, Redis
 * holding up a one-shot call, a placeholder address shown as real, an invisible character hidden).
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, connectStdio, runCli, startMockApi, textOf, type MockApi, type StdioSession } from './helpers.js';

const FICTIONAL = ' · fictional: yes';
let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(() => api?.close());

const call = async (session: StdioSession, name: string, args: Record<string, unknown> = {}) =>
  (await session.client.callTool({ name, arguments: args })) as CallToolResult;
const provenanceOf = (result: CallToolResult) =>
  (result.structuredContent as { provenance: Record<string, unknown> }).provenance;

describe("fiction by the API's own word", () => {
  it('mock-api reached by --base-url is labelled fictional, its health included (discovery said so)', async () => {
    const session = await connectStdio(['--base-url', api.url, '--no-cache']);
    try {
      const health = await call(session, 'check_api_health');
      expect(textOf(health)).toContain(FICTIONAL);
      expect(provenanceOf(health)).toMatchObject({ reached: 'http', fictional: true });
      const search = await call(session, 'search_jobs', { q: 'engineer', per_page: 1 });
      expect(textOf(search)).toContain(FICTIONAL);
      expect(provenanceOf(search)).toMatchObject({ reached: 'http', fictional: true });
      // The first line, word for word in structuredContent's notices.
      expect((search.structuredContent as { notices: string[] }).notices).toEqual([textOf(search).split('\n')[0]]);
      expect(textOf(search)).toMatch(/^FICTIONAL sample data, by the API's own word: [^\n]*\n/);
      expect(textOf(search)).toMatch(/ · reached: http · fictional: yes$/);
    } finally {
      await session.close();
    }
  });
});

describe('a wrong base URL is never "the job is gone"', () => {
  it('a base URL that repeats the API prefix stops start-up with the origin to use', async () => {
    const { code, stderr, stdout } = await runCli([
      '--base-url',
      `${api.url}/api/public/v1`,
      'call',
      'get_job',
      '{"job_id":"job_ai_0013"}',
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      `ends in the API's path prefix /api/public/v1, which every request adds itself; use ${api.url} instead`,
    );
  });

  it('with the catalog unread, a 404 for a job is upstream_contract naming the path, not not_found', async () => {
    await api.setFaults([{ path: '/api/public/v1', kind: 'unavailable' }]);
    try {
      const { code, stdout } = await runCli(['--base-url', api.url, 'call', 'get_job', '{"job_id":"job_none_0000"}']);
      expect(code).toBe(1);
      expect(stdout).toMatch(
        /^upstream_contract: HTTP 404 from GET \/api\/public\/v1\/jobs\/job_none_0000 .*nothing has shown that the API answers at the base URL/,
      );
      expect(stdout).not.toMatch(/no longer active; use search_jobs/);
      expect(stdout).toMatch(/\nHint: Check the base URL/);
    } finally {
      await api.clearFaults();
    }
    // Where the catalog was read, the same 404 is what it says: the job is gone.
    const { stdout } = await runCli(['--base-url', api.url, 'call', 'get_job', '{"job_id":"job_none_0000"}']);
    expect(stdout).toMatch(/^not_found: /);
  });
});

describe('the smaller defects', () => {
  it('--offline with --base-url is an error naming both', async () => {
    const { code, stderr } = await runCli(['--offline', '--base-url', api.url, 'tools']);
    expect(code).toBe(2);
    expect(stderr).toContain('--offline / SERVICE_MCP_OFFLINE and --base-url / SERVICE_MCP_BASE_URL are both set');
  });

  it('a one-shot call gives a Redis that does not answer a quarter second, says so, and answers', async () => {
    // Accepts connections and never says a word: the connection neither fails nor becomes ready.
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const { code, stdout, stderr } = await runCli(
        [
          '--base-url',
          api.url,
          '--redis-url',
          `redis://127.0.0.1:${port}`,
          'call',
          'get_job',
          '{"job_id":"job_ai_0013"}',
        ],
        cleanEnv(),
      );
      expect(code).toBe(0);
      expect(stdout).toMatch(/^FICTIONAL [^\n]*\njob_ai_0013 /);
      expect(stderr).toContain('is unavailable (no connection within 250 ms)');
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('offline health, and a bridged answer, show no placeholder address as if it were real', async () => {
    const bridging = cleanEnv({ SERVICE_MCP_NO_BRIDGE: '0' });
    const { stdout } = await runCli(['--offline', 'call', 'check_api_health'], bridging);
    expect(stdout).not.toContain('.invalid');
    expect(stdout).toContain('Hosted MCP endpoint: in-process (the embedded offline API answers it');
    const bridged = await runCli(['--offline', 'call', 'get_company_funding', '{"company":"quillmark"}'], bridging);
    expect(bridged.stdout).not.toContain('.invalid');
    expect(bridged.stdout).toContain(
      "hosted tool get_company_funding at the embedded offline API's own hosted surface (in-process)",
    );
  });

  it('an id with an invisible character is shown escaped in the error that echoes it', async () => {
    const { code, stdout } = await runCli([
      '--offline',
      'call',
      'get_job',
      JSON.stringify({ job_id: 'job_ai_0013\u200B' }),
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^not_found: .*"job_ai_0013\\u200B"/);
  });
});
