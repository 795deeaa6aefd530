/**
 * One truth about the two paths of `serve --http`: /mcp and the hosted path list the same tools,
 * the bridged ones included, and README, docs/http.md, docs/tools.md and the server card say so;
 * and a deployment whose hosted endpoint is service-mcp itself does not bridge itself, with or
 * without the header that marks a bridge's requests.
 */
import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/contract/tool-names.js';
import { bridgedNames, names } from './bridged-names.js';
import { MARKET_TOOLS } from './dataset.js';
import { cleanEnv, ROOT, startMockApi, textOf, type MockApi } from './helpers.js';
import { startHttpServer } from './http-helpers.js';

const HOSTED_PATH = '/api/public/v1/mcp';
const PATHS = ['/mcp', HOSTED_PATH] as const;

let api: MockApi;
const opened: Array<{ close(): Promise<unknown> }> = [];

beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await Promise.all(opened.map((item) => item.close().catch(() => {})));
  await api?.close();
});

const bridging = () => cleanEnv({ SERVICE_MCP_NO_BRIDGE: '0' });

async function serve(baseUrl: string) {
  const server = await startHttpServer(['--base-url', baseUrl, '--no-cache'], bridging());
  opened.push({ close: () => server.stop() });
  return server;
}

async function connect(url: string, era: 'modern' | 'legacy'): Promise<Client> {
  const client = new Client(
    { name: 'mcp-paths-e2e', version: '0.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  opened.push(client);
  return client;
}

const doc = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8').replace(/\s+/g, ' ');

/** What each document says the two paths list: the same tools at both (the claim this test holds them to). */
const SAME_AT_BOTH: Array<[string, RegExp]> = [
  [
    'README.md',
    /\| the same tools over stateless Streamable HTTP at `POST \/mcp` and at the hosted path `POST \/api\/public\/v1\/mcp`/,
  ],
  [
    'README.md',
    /serves the same tools, prompts and resources over stateless Streamable HTTP at `http:\/\/127\.0\.0\.1:3333\/mcp` \(and at the hosted path `\/api\/public\/v1\/mcp`\)/,
  ],
  ['docs/http.md', /serves the same tools, prompts and resources over stateless/],
  [
    'docs/http.md',
    /also answers at the hosted service's path, `\/api\/public\/v1\/mcp` \([^)]*\), with the same tools, the bridged ones included/,
  ],
  ['docs/http.md', /the tool names, which are the same at both URLs/],
  [
    'docs/tools.md',
    /`serve --http` offers the same tools, bridged ones included, at `\/mcp` and at the hosted path `\/api\/public\/v1\/mcp`/,
  ],
];

describe('what each path lists, as the documents say', () => {
  it.each(['modern', 'legacy'] as const)(
    '%s era: /mcp and the hosted path list the same tools, bridged ones included, and so do README, docs and the server card',
    async (era) => {
      const server = await serve(api.url);
      // Once /mcp has the bridged tools, the hosted list is read: the hosted path has no reason to wait.
      const listed: Record<string, string[]> = { '/mcp': await bridgedNames(await connect(server.url, era)) };
      listed[HOSTED_PATH] = await names(await connect(`${server.origin}${HOSTED_PATH}`, era));
      expect(listed['/mcp']).toEqual([...TOOL_NAMES, ...MARKET_TOOLS]);
      expect(listed[HOSTED_PATH]).toEqual(listed['/mcp']);

      const card = (await (await fetch(`${server.origin}/.well-known/mcp/server-card.json`)).json()) as {
        remotes: Array<{ url: string }>;
        tools: Array<{ name: string }>;
      };
      // One tool list for the card's two remotes: it must be what each of them lists.
      expect(card.remotes.map((remote) => new URL(remote.url).pathname)).toEqual([...PATHS]);
      for (const path of PATHS) expect(card.tools.map((tool) => tool.name)).toEqual(listed[path]);

      for (const [file, claim] of SAME_AT_BOTH) expect(doc(file), `${file} no longer says ${claim}`).toMatch(claim);
      // And none says the hosted path lists fewer (the claim before the two paths became one list).
      for (const file of ['README.md', 'docs/http.md', 'docs/tools.md', 'docs/contract.md', 'docs/deploy.md'])
        expect(doc(file)).not.toMatch(/hosted path[^.]*(own (seven )?tools|seven tools)/i);
    },
  );
});

/**
 * A deployment's one origin, as its reverse proxy makes it: the hosted path goes to `hosted` (set
 * once it is known; requests wait for it), the rest to `rest`. It counts the requests sent to the
 * hosted path, and may drop the header that marks a bridge's requests, as a strict proxy could.
 */
async function frontOf(rest: string, { dropBridgeHeader }: { dropBridgeHeader: boolean }) {
  let hosted: URL | undefined;
  let routed!: () => void;
  const known = new Promise<void>((resolve) => (routed = resolve));
  let hostedRequests = 0;
  const server = createServer((req, res) => {
    const toHosted = new URL(req.url ?? '/', 'http://front').pathname === HOSTED_PATH;
    if (toHosted) hostedRequests++;
    void (toHosted ? known : Promise.resolve()).then(() => {
      const target = toHosted ? hosted! : new URL(rest);
      const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
      if (dropBridgeHeader) delete headers['service-mcp-bridge'];
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  opened.push({
    close: () => new Promise((resolve) => server.close(resolve)).finally(() => server.closeAllConnections()),
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    route(origin: string) {
      hosted = new URL(origin);
      routed();
    },
    hostedRequests: () => hostedRequests,
  };
}

interface BridgeState {
  state: string;
  bridged: string[];
  skipped: Array<{ name: string; reason: string }>;
}

describe('a deployment whose hosted endpoint is service-mcp itself', () => {
  it.each([
    ['the bridge header passed on', false],
    ['a proxy that drops the bridge header', true],
  ])(
    '%s: both paths list our tools once, the bridge skips its own, and listing again reads nothing more',
    async (_, dropBridgeHeader) => {
      const front = await frontOf(api.url, { dropBridgeHeader });
      const server = await serve(front.url);
      front.route(server.origin);
      const client = await connect(`${server.origin}/mcp`, 'legacy');
      // The bridge's first read is of this very server (counted attempts, bounded by the test's timeout).
      let bridge: BridgeState;
      for (;;) {
        const health = (await client.callTool({ name: 'check_api_health', arguments: {} })) as CallToolResult;
        bridge = (health.structuredContent as { server: { bridge: BridgeState } }).server.bridge;
        if (bridge.state !== 'reading' && bridge.state !== 'not_read') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(bridge.state, JSON.stringify(bridge)).toBe('ready');
      expect(bridge.bridged).toEqual([]);
      expect(bridge.skipped).toEqual(TOOL_NAMES.map((name) => ({ name, reason: 'our own tool of that name wins' })));

      const reads = front.hostedRequests();
      for (const path of PATHS) {
        const at = await connect(`${server.origin}${path}`, 'modern');
        expect(await names(at)).toEqual(TOOL_NAMES);
      }
      expect(await names(client)).toEqual(TOOL_NAMES);
      expect(textOf(await client.callTool({ name: 'get_job', arguments: { job_id: 'job_ai_0124' } }))).toContain(
        'job_ai_0124',
      );
      // The list is kept for five minutes: clients listing at either path send the bridge nowhere.
      expect(front.hostedRequests()).toBe(reads);
    },
  );
});
