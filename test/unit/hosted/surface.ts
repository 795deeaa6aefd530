/**
 * A hosted surface made to order for the bridge's tests: the SDK's low-level Server (so the tool
 * list is whatever a test says, however broken), served in-process by the SDK's HTTP handler, and
 * a fault hook that answers in its place for a method (a 429, a 503, 50 MB, bad JSON, silence).
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, Server, type CallToolResult } from '@modelcontextprotocol/server';
import { RetryAfterGate } from '../../../src/api/retry-after-gate.js';
import { HostedBridge } from '../../../src/hosted/bridge.js';
import type { WebFetch } from '../../../src/hosted/guarded-fetch.js';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { OFFLINE_BASE_URL } from '../../../src/offline/fetch.js';
import { createServer } from '../../../src/mcp/server.js';
import { TOOLS } from '../../../src/tools/index.js';
import { TOOL_NAMES } from '../../../src/contract/tool-names.js';
import { offlineClient } from '../../helpers/offline-client.js';

/** Answers in the surface's place for a method, or (resolving to undefined) lets the surface answer after it. */
export type Fault = (method: string, signal: AbortSignal) => Promise<Response | undefined> | undefined;

export interface SurfaceOptions {
  tools: unknown[];
  call?: (name: string, args: unknown) => CallToolResult;
  fault?: Fault;
}

export interface Surface {
  fetch: WebFetch;
  /** Methods asked for, in order (notifications included). */
  seen: string[];
  /** Signals of the requests that reached the surface, in order. */
  signals: AbortSignal[];
}

export function surface(options: SurfaceOptions): Surface {
  const handler = createMcpHandler(
    () => {
      const server = new Server({ name: 'bad-surface', version: '0.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => ({ tools: options.tools as never[] }));
      server.setRequestHandler('tools/call', (request) =>
        (options.call ?? (() => ({ content: [{ type: 'text', text: 'ok' }] })))(
          request.params.name,
          request.params.arguments,
        ),
      );
      return server;
    },
    { legacy: 'stateless' },
  );
  const seen: string[] = [];
  const signals: AbortSignal[] = [];
  const fetch: WebFetch = async (url, init) => {
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
    const method = body.method ?? '(none)';
    seen.push(method);
    signals.push(init.signal!);
    const faulty = await options.fault?.(method, init.signal!);
    if (faulty) return faulty;
    return handler.fetch(new Request(url, init));
  };
  return { fetch, seen, signals };
}

type BridgeOptions = ConstructorParameters<typeof HostedBridge>[0];

export function bridgeOver(
  target: Surface,
  {
    timeoutMs = 2_000,
    maxRetryWaitS = 0,
    gate = new RetryAfterGate(),
    now,
    store,
    file,
    built,
  }: Partial<Pick<BridgeOptions, 'timeoutMs' | 'maxRetryWaitS' | 'gate' | 'now' | 'store' | 'file' | 'built'>> = {},
): HostedBridge {
  return new HostedBridge({
    endpoint: async () => ({ url: 'http://surface.test/api/public/v1/mcp?surface=market' }),
    fetch: async () => target.fetch,
    gate,
    timeoutMs,
    maxRetryWaitS,
    ours: new Set(TOOL_NAMES),
    now,
    store,
    file,
    built,
  });
}

/** Never answers; ends when the request is aborted, as a socket would. */
export const silence = (signal: AbortSignal) =>
  new Promise<Response>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));

export const READ_ONLY_TOOL = {
  name: 'get_company_funding',
  description: 'Funding rounds.',
  inputSchema: { type: 'object', properties: { company: { type: 'string', minLength: 1 } }, required: ['company'] },
  outputSchema: {
    type: 'object',
    properties: { rounds: { type: 'array' }, meta: { type: 'object' } },
    required: ['rounds'],
  },
  annotations: { readOnlyHint: true },
};

/**
 * Our own server over `bridge` (the embedded API behind our seven), following it as stdio's server
 * does, connected in memory to a client; `prepare` sees the client before it connects.
 */
export async function servedOver(bridge: HostedBridge, prepare?: (client: Client) => void): Promise<Client> {
  const mcp = createServer({
    backend: {
      client: offlineClient(await createOfflineEngine()),
      mode: 'embedded',
      baseUrl: OFFLINE_BASE_URL,
      tools: TOOLS,
      bridge,
    },
    bridged: true,
    follow: true,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: 'hosted-unit', version: '0' });
  prepare?.(client);
  await client.connect(clientSide);
  return client;
}
