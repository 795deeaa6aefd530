/**
 * MCP Apps on the wire, from the one server definition served in process by the SDK's HTTP entry
 * to the SDK's real client: every client gets each view-bearing tool linked to its `ui://` view,
 * and the same text and structuredContent whether it renders views or not.
 */
import { readFileSync } from 'node:fs';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import {
  Client,
  StreamableHTTPClientTransport,
  type CallToolResult,
  type ClientCapabilities,
} from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { VIEW_LIST, VIEWS } from '../../../src/contract/views.js';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { OFFLINE_BASE_URL } from '../../../src/offline/fetch.js';
import { createServer } from '../../../src/mcp/server.js';
import { toolCatalog } from '../../../src/tools/tools-list.js';
import { offlineClient } from '../../helpers/offline-client.js';
import { TOOLS } from '../../../src/tools/index.js';

const UI: ClientCapabilities = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } };
const CATALOG = JSON.parse(
  readFileSync(new URL('../tools/__snapshots__/tools.json', import.meta.url), 'utf8'),
) as unknown;
const LINKED: Record<string, string> = {
  search_jobs: VIEWS.jobList.uri,
  list_jobs: VIEWS.jobList.uri,
  get_job: VIEWS.job.uri,
  get_market_map: VIEWS.marketMap.uri,
  get_company_interview_brief: VIEWS.interviewBrief.uri,
};

let handler: ReturnType<typeof createMcpHandler>;

beforeAll(async () => {
  const client = offlineClient(await createOfflineEngine());
  handler = createMcpHandler(() =>
    createServer({ backend: { client, mode: 'embedded', baseUrl: OFFLINE_BASE_URL, tools: TOOLS } }),
  );
});

async function connect(
  capabilities: ClientCapabilities,
  era: '2026-07-28' | '2025-11-25' = '2026-07-28',
): Promise<Client> {
  const client = new Client(
    { name: 'views-test', version: '0.0.0' },
    { capabilities, ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {}) },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (input, init) => handler.fetch(new Request(input, init)),
    }),
  );
  return client;
}

const toolsOf = async (client: Client) => (await client.listTools()).tools;

describe('tools/list and the MCP Apps extension', () => {
  it('links each view-bearing tool to its view, as registerAppTool writes it', async () => {
    const tools = await toolsOf(await connect(UI));
    for (const tool of tools) {
      const uri = LINKED[tool.name];
      if (uri === undefined) expect(tool._meta, tool.name).toBeUndefined();
      else expect(tool._meta, tool.name).toEqual({ ui: { resourceUri: uri }, [RESOURCE_URI_META_KEY]: uri });
    }
    expect(tools).toEqual(toolCatalog());
    expect(tools).toEqual(CATALOG);
  });

  // A host that renders no views ignores `_meta.ui`; one list for everyone is what lets tools/list
  // say `cacheScope: public` truthfully.
  it.each<[string, ClientCapabilities, '2026-07-28' | '2025-11-25']>([
    ['no extensions', {}, '2026-07-28'],
    ['another extension', { extensions: { 'io.example/other': {} } }, '2026-07-28'],
    [
      'the UI extension without the MCP Apps HTML type',
      { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } },
      '2026-07-28',
    ],
    ['the UI extension, in the 2025 era', UI, '2025-11-25'],
    ['no extensions, in the 2025 era', {}, '2025-11-25'],
  ])('gives a client with %s the same catalog', async (_case, capabilities, era) => {
    expect(await toolsOf(await connect(capabilities, era))).toEqual(CATALOG);
  });
});

describe('results and resources with the MCP Apps extension', () => {
  /** A result with the moment of retrieval taken out, the one thing that differs between two calls. */
  const timeless = (result: CallToolResult) =>
    JSON.parse(JSON.stringify(result).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, 'T')) as unknown;

  it('gives the same text and structuredContent to a client with views as to one without', async () => {
    // One clock for both calls: the ages in the text ("3 minutes ago") are read from it, and two
    // calls that straddled a minute on a busy machine told different ages (seen in a full run).
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T12:00:00Z') });
    try {
      const [withViews, without] = await Promise.all([connect(UI), connect({})]);
      for (const [name, args] of [
        ['search_jobs', { q: 'engineer', per_page: 3 }],
        ['get_market_map', {}],
        ['get_company_interview_brief', { slug: 'northwind-neural' }],
      ] as const) {
        const [a, b] = await Promise.all([
          withViews.callTool({ name, arguments: args }),
          without.callTool({ name, arguments: args }),
        ]);
        expect(timeless(a as CallToolResult), name).toEqual(timeless(b as CallToolResult));
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('lists the four views as ui:// resources of the MCP Apps type, declaring that they reach no origin', async () => {
    const { resources } = await (await connect({})).listResources();
    const views = resources.filter((resource) => resource.uri.startsWith('ui://'));
    expect(views.map((view) => view.uri)).toEqual(VIEW_LIST.map((view) => view.uri));
    expect(new Set(Object.values(LINKED))).toEqual(new Set(views.map((view) => view.uri)));
    for (const view of views) {
      expect(view.mimeType).toBe(RESOURCE_MIME_TYPE);
      expect(view._meta).toEqual({
        ui: {
          csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
          prefersBorder: true,
        },
      });
    }
  });
});
