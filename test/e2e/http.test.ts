/**
 * `serve --http` end to end: the built binary, the SDK's Streamable HTTP client, and the embedded
 * offline API over real HTTP (mock-api) as upstream. Covers the tools, the error kinds, and the
 * safety defaults (Host/Origin allow-lists, body limit, 405s, CORS only when configured).
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import registryEntry from '../../server.json' with { type: 'json' };
import { activeJob, inactiveJob } from './dataset.js';
import { runCli, startMockApi, textOf, type MockApi } from './helpers.js';
import {
  connectHttp,
  hitsOf,
  INITIALIZE,
  MCP_POST_HEADERS,
  rawRequest,
  startHttpServer,
  type HttpServerProcess,
  type HttpSession,
} from './http-helpers.js';

const TOOL_NAMES = [
  'search_jobs',
  'list_jobs',
  'get_job',
  'get_market_map',
  'get_company_interview_brief',
  'discover_api',
  'check_api_health',
];

let api: MockApi;
let server: HttpServerProcess;
let session: HttpSession;

beforeAll(async () => {
  api = await startMockApi();
  server = await startHttpServer([
    '--base-url',
    api.url,
    '--max-retry-wait-s',
    '3',
    '--timeout-ms',
    '5000',
    '--log-level',
    'info',
  ]);
  session = await connectHttp(server.url);
});
afterEach(() => api.clearFaults());
afterAll(async () => {
  await session?.close();
  await server?.stop();
  await api?.close();
});

const call = (name: string, args: Record<string, unknown> = {}) => session.client.callTool({ name, arguments: args });

describe('log notifications over HTTP', () => {
  it('reach the client whose call logged them, and no other client', async () => {
    const other = await connectHttp(server.url);
    try {
      const mine: string[] = [];
      const theirs: string[] = [];
      session.client.setNotificationHandler('notifications/message', (n) => void mine.push(String(n.params.data)));
      other.client.setNotificationHandler('notifications/message', (n) => void theirs.push(String(n.params.data)));
      await Promise.all([
        session.client.callTool({ name: 'get_job', arguments: { job_id: inactiveJob.job_id } }),
        other.client.callTool({ name: 'check_api_health', arguments: {} }),
      ]);
      expect(mine.join('\n')).toMatch(/get_job failed: not_found/);
      expect(theirs.join('\n')).not.toMatch(/get_job|jobs\//);
    } finally {
      await other.close();
    }
  });
});

describe('MCP over stateless Streamable HTTP', () => {
  it('prints exactly one stdout line, the listening URL with the real port', () => {
    expect(server.stdout()).toBe(`service-mcp HTTP listening on http://127.0.0.1:${server.port}/mcp\n`);
    expect(server.port).toBeGreaterThan(0);
  });

  it('initializes with the same server as stdio, and lists the registry', async () => {
    expect(session.client.getServerVersion()).toMatchObject({ name: 'service-mcp', version: pkg.version });
    expect(session.client.getServerCapabilities()).toMatchObject({
      tools: {},
      prompts: {},
      resources: {},
      logging: {},
      completions: {},
    });
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true && t.outputSchema)).toBe(true);
  });

  it('calls a tool (the SDK client checks structuredContent against its outputSchema)', async () => {
    const result = await call('get_job', { job_id: activeJob.job_id });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain(activeJob.job_id);
    expect((result.structuredContent as { data: { job_id: string } }).data.job_id).toBe(activeJob.job_id);
    expect(textOf(await call('search_jobs', { domain: 'ai', per_page: 3 }))).toMatch(
      /^FICTIONAL [^\n]*\nPage 1 of \d+, \d+ total \(jobs 1–3\)/,
    );
  });

  it('answers a tool call without a prior initialize: no session to lose between replicas', async () => {
    const response = await rawRequest(server.origin, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'get_market_map', arguments: {} },
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers['mcp-session-id']).toBeUndefined();
    expect(response.body).toMatch(/"id":7/);
    expect(response.body).toMatch(/Market map: \d+ dimensions/);
  });

  it('error kinds: invalid_argument with nothing sent upstream, not_found, unknown tool as a protocol error', async () => {
    const before = JSON.stringify(await api.stats());
    const invalid = await call('search_jobs', { per_page: 1000 });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/^invalid_argument: per_page: must be at most 100/);
    expect(JSON.stringify(await api.stats())).toBe(before);

    const missing = await call('get_job', { job_id: inactiveJob.job_id });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^not_found: HTTP 404/);

    const unknown = await call('no_such_tool').catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(ProtocolError);
    expect((unknown as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
  });

  it("streams progress notifications on the call's own response while it waits out a Retry-After", async () => {
    await api.setFaults([{ path: '/api/public/v1/search/jobs', kind: 'rate_limit', retryAfter: 1, times: 1 }]);
    const progress: Array<{ message?: string }> = [];
    const result = await session.client.callTool(
      { name: 'search_jobs', arguments: { q: 'progress over http' } },
      { onprogress: (p) => progress.push(p) },
    );
    expect(result.isError).toBeFalsy();
    expect(progress[0]?.message).toMatch(/^rate limited: waiting 1 s \(Retry-After\)/);
  });

  it('a client that goes away cancels its call upstream (the closed connection is the cancellation)', async () => {
    // Stateless: a notifications/cancelled POST reaches a fresh server that never saw the call,
    // so what stops the work is the call's own connection closing.
    await api.setFaults([{ path: '/api/public/v1/market-map', kind: 'hang' }]);
    const before = await hitsOf(api, '/api/public/v1/market-map');
    const leaving = await connectHttp(server.url);
    // Arguments no other test asks for, so the response cache cannot answer it.
    const pending = leaving.client
      .callTool({ name: 'get_market_map', arguments: { status: 'missing' } })
      .catch((error: unknown) => error);
    await expect.poll(() => hitsOf(api, '/api/public/v1/market-map')).toBeGreaterThan(before);
    await leaving.close();
    await pending;
    await expect.poll(() => server.stderr(), { timeout: 3_000 }).toMatch(/get_market_map failed: cancelled/);
  });
});

describe('HTTP surface', () => {
  // The SDK's own words, as they come: its issue list, JSON over several lines (the HTTP error
  // rewriting that reworded it read an undocumented layout and is gone; stdio still condenses it).
  it("missing params is the SDK's -32602 naming what is wrong, in both eras", async () => {
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const asks: Array<{ headers: Record<string, string>; body: object }> = [
      { headers: { 'mcp-protocol-version': '2025-11-25' }, body: { jsonrpc: '2.0', id: 5, method: 'tools/call' } },
      {
        headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' },
        body: { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { _meta: envelope } },
      },
    ];
    for (const ask of asks) {
      const response = await rawRequest(server.origin, {
        method: 'POST',
        headers: { ...MCP_POST_HEADERS, ...ask.headers },
        body: JSON.stringify(ask.body),
      });
      const line = response.body
        .split('\n')
        .find((l) => l.includes('"id":5'))!
        .replace(/^data: /, '');
      const error = (JSON.parse(line) as { error: { code: number; message: string } }).error;
      expect(error.code).toBe(-32602);
      expect(error.message).toMatch(/^Invalid tools\/call request: /);
      expect(error.message).toMatch(/"path": \[\s*"params"/);
    }
  });

  it('GET and DELETE /mcp are 405 with Allow and a JSON-RPC error body (no SSE stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await rawRequest(server.origin, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe('POST');
      expect(response.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.stringMatching(/not allowed/i) },
      });
    }
  });

  it('GET /healthz is a cheap liveness probe: no upstream call, and no Host check', async () => {
    const before = JSON.stringify(await api.stats());
    const response = await rawRequest(server.origin, { path: '/healthz', headers: { host: '10.1.2.3:3333' } });
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(JSON.stringify(await api.stats())).toBe(before);
  });

  it('serves the server card at both paths, from server.json, the package version, the capabilities and the tool registry', async () => {
    // What the initialize result says, as the SDK client read it.
    const capabilities = session.client.getServerCapabilities();
    for (const path of ['/mcp/server-card', '/.well-known/mcp/server-card.json']) {
      const response = await rawRequest(server.origin, { path });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.json()).toEqual({
        name: registryEntry.name,
        title: registryEntry.title,
        version: pkg.version,
        description: registryEntry.description,
        websiteUrl: registryEntry.websiteUrl,
        icons: session.client.getServerVersion()!.icons,
        // Both addresses: a client configured for the hosted service switches by changing the origin.
        remotes: [
          { type: 'streamable-http', url: server.url },
          { type: 'streamable-http', url: `${server.origin}/api/public/v1/mcp?surface=market` },
        ],
        capabilities,
        tools: TOOL_NAMES.map((name) => ({ name, title: expect.any(String) })),
      });
    }
  });

  it('404 elsewhere, 400 for a body that is not JSON', async () => {
    expect((await rawRequest(server.origin, { path: '/' })).status).toBe(404);
    expect((await rawRequest(server.origin, { path: '/mcp/other' })).status).toBe(404);
    const garbage = await rawRequest(server.origin, { method: 'POST', headers: MCP_POST_HEADERS, body: '{"jsonrpc":' });
    expect(garbage.status).toBe(400);
    expect(garbage.json()).toMatchObject({ error: { code: -32700 } });
  });
});

describe('safe by default', () => {
  it('refuses a foreign Host (DNS rebinding) with 403 and a JSON-RPC error', async () => {
    for (const host of [
      'evil.example.com',
      `evil.example.com:${server.port}`,
      `localhost:${server.port + 1}`,
      `127.0.0.1.nip.io:${server.port}`,
    ]) {
      const response = await rawRequest(server.origin, {
        method: 'POST',
        headers: { ...MCP_POST_HEADERS, host },
        body: INITIALIZE,
      });
      expect(response.status, host).toBe(403);
      expect(response.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.stringMatching(/^Forbidden: Host/) },
      });
    }
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`, `[::1]:${server.port}`]) {
      const response = await rawRequest(server.origin, {
        method: 'POST',
        headers: { ...MCP_POST_HEADERS, host },
        body: INITIALIZE,
      });
      expect(response.status, host).toBe(200);
    }
    await expect.poll(() => server.stderr()).toMatch(/refused POST \/mcp: Forbidden: Host "evil\.example\.com"/);
  });

  it('refuses a foreign Origin with 403, accepts the loopback ones, and sends no CORS headers by default', async () => {
    const foreign = await rawRequest(server.origin, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, origin: 'https://evil.example.com' },
      body: INITIALIZE,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json()).toMatchObject({ error: { message: expect.stringMatching(/^Forbidden: Origin/) } });
    expect(
      (
        await rawRequest(server.origin, {
          method: 'POST',
          headers: { ...MCP_POST_HEADERS, origin: 'null' },
          body: INITIALIZE,
        })
      ).status,
    ).toBe(403);
    const local = await rawRequest(server.origin, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, origin: server.origin },
      body: INITIALIZE,
    });
    expect(local.status).toBe(200);
    expect(local.headers['access-control-allow-origin']).toBeUndefined();
    expect((await rawRequest(server.origin, { method: 'OPTIONS', headers: { origin: server.origin } })).status).toBe(
      405,
    );
  });

  it('refuses a body over 1 MB with 413, declared or streamed', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024) } });
    const declared = await rawRequest(server.origin, { method: 'POST', headers: MCP_POST_HEADERS, body: big });
    expect(declared.status).toBe(413);
    expect(declared.json()).toMatchObject({
      error: { message: expect.stringMatching(/^Payload Too Large: .* 1048576 bytes/) },
    });
    const streamed = await rawRequest(server.origin, {
      method: 'POST',
      headers: MCP_POST_HEADERS,
      body: big,
      chunked: true,
    });
    expect(streamed.status).toBe(413);
    // Just under the limit is fine.
    const fits = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { _meta: { pad: 'x'.repeat(1000 * 1000) } },
    });
    expect(
      (
        await rawRequest(server.origin, {
          method: 'POST',
          headers: { ...MCP_POST_HEADERS, 'mcp-protocol-version': '2025-06-18' },
          body: fits,
        })
      ).status,
    ).toBe(200);
  });
});

describe('deliberate exposure and lifecycle', () => {
  it('--allowed-hosts and --allowed-origins admit named callers, and only then reflect CORS', async () => {
    const exposed = await startHttpServer([
      '--offline',
      '--allowed-hosts',
      'mcp.example.com,other.example:8443',
      '--allowed-origins',
      'https://app.example.com',
    ]);
    try {
      const post = (headers: Record<string, string>) =>
        rawRequest(exposed.origin, { method: 'POST', headers: { ...MCP_POST_HEADERS, ...headers }, body: INITIALIZE });
      expect((await post({ host: 'mcp.example.com' })).status).toBe(200);
      expect((await post({ host: 'other.example:8443' })).status).toBe(200);
      expect((await post({ host: 'other.example:9999' })).status).toBe(403);
      const allowed = await post({ host: 'mcp.example.com', origin: 'https://app.example.com' });
      expect(allowed.status).toBe(200);
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(allowed.headers.vary).toBe('Origin');
      // A browser client may read the 2026-07-28 standard headers, and send them (preflight below).
      expect(allowed.headers['access-control-expose-headers']).toBe('MCP-Protocol-Version, Mcp-Method, Mcp-Name');
      expect((await post({ host: 'mcp.example.com', origin: 'https://evil.example.com' })).status).toBe(403);
      const preflight = await rawRequest(exposed.origin, {
        method: 'OPTIONS',
        headers: {
          host: 'mcp.example.com',
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
      expect(preflight.headers['access-control-allow-headers']).toMatch(/MCP-Protocol-Version, Mcp-Method, Mcp-Name/);
      const card = await rawRequest(exposed.origin, {
        path: '/.well-known/mcp/server-card.json',
        headers: { host: 'mcp.example.com', 'x-forwarded-proto': 'https' },
      });
      expect(card.json<{ remotes: unknown }>().remotes).toEqual([
        { type: 'streamable-http', url: 'https://mcp.example.com/mcp' },
        { type: 'streamable-http', url: 'https://mcp.example.com/api/public/v1/mcp?surface=market' },
      ]);
    } finally {
      await exposed.stop();
    }
  });

  it('warns on stderr when bound beyond loopback', async () => {
    const wide = await startHttpServer(['--offline', '--host', '0.0.0.0']);
    try {
      await expect
        .poll(() => wide.stderr())
        .toMatch(
          /warn: listening on every interface, beyond loopback: anyone who can reach port \d+ can call the tools/,
        );
    } finally {
      await wide.stop();
    }
  });

  it('SIGTERM stops accepting, finishes the call in flight, then exits 0', async () => {
    const lame = await startHttpServer(['--base-url', api.url]);
    const client = await connectHttp(lame.url);
    await api.setFaults([{ path: '/api/public/v1/market-map', kind: 'delay', delayMs: 1_500 }]);
    const before = await hitsOf(api, '/api/public/v1/market-map');
    const pending = client.client.callTool({ name: 'get_market_map', arguments: {} });
    await expect.poll(() => hitsOf(api, '/api/public/v1/market-map')).toBe(before + 1);
    const exit = lame.stop('SIGTERM');
    await expect
      .poll(() =>
        rawRequest(lame.origin, { path: '/healthz' }).then(
          () => 'up',
          () => 'refused',
        ),
      )
      .toBe('refused');
    const result = await pending;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/Market map: \d+ dimensions/);
    expect(await exit).toBe(0);
    await client.close().catch(() => {});
  });

  it('usage errors exit 2: serve without --http, a bad port, a malformed allow-list entry', async () => {
    const noHttp = await runCli(['serve']);
    expect(noHttp.code).toBe(2);
    expect(noHttp.stderr).toMatch(/serve needs --http/);
    expect((await runCli(['serve', '--http', '--port', 'abc'])).code).toBe(2);
    const badOrigin = await runCli(['serve', '--http', '--port', '0', '--allowed-origins', 'app.example.com/path']);
    expect(badOrigin.code).toBe(2);
    expect(badOrigin.stderr).toMatch(/--allowed-origins: "app\.example\.com\/path" is not an origin/);
    expect((await runCli(['serve', '--http', '--port', '0', '--allowed-hosts', 'a b'])).code).toBe(2);
    const taken = await runCli(['serve', '--http', '--port', String(server.port)]);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/);
  });
});
