/**
 * The MCP endpoint reads and parses each body once: what parsed reaches the SDK's Node adapter as
 * its `parsedBody`, and only a body that is not JSON is left for the SDK to read and refuse.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../src/obs/log.js';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { OFFLINE_BASE_URL } from '../../../src/offline/fetch.js';
import { TOOLS } from '../../../src/tools/index.js';
import { offlineClient } from '../../helpers/offline-client.js';
import type { RunningHttpServer } from '../../../src/transports/http.js';

const handed: unknown[] = [];

const backend = async () => ({
  client: offlineClient(await createOfflineEngine()),
  mode: 'embedded' as const,
  baseUrl: OFFLINE_BASE_URL,
  tools: TOOLS,
});

vi.mock('@modelcontextprotocol/node', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@modelcontextprotocol/node')>();
  return {
    ...actual,
    toNodeHandler: (...args: Parameters<typeof actual.toNodeHandler>) => {
      const handler = actual.toNodeHandler(...args);
      return (req: Parameters<typeof handler>[0], res: Parameters<typeof handler>[1], parsedBody?: unknown) => {
        handed.push(parsedBody);
        return handler(req, res, parsedBody);
      };
    },
  };
});

/**
 * Loaded after the mock, afresh: the unit tests share one module cache per worker
 * (vitest.config.ts), and a file before this one may have loaded the real adapter.
 */
let startHttpServer: (typeof import('../../../src/transports/http.js'))['startHttpServer'];
beforeAll(async () => {
  vi.resetModules();
  ({ startHttpServer } = await import('../../../src/transports/http.js'));
});

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close(0);
  running = undefined;
  handed.length = 0;
});

const post = (url: string, body: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body,
  });

describe('the MCP endpoint', () => {
  it('hands the SDK the body it parsed, and the SDK answers from it', async () => {
    running = await startHttpServer({ backend: await backend(), logger: silentLogger, port: 0 });
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'discover_api', arguments: {} } };
    const response = await post(running.url, JSON.stringify(call));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"id":7');
    expect(handed).toEqual([call]);
  });

  it('leaves a body that is not JSON for the SDK to refuse in its own words', async () => {
    running = await startHttpServer({ backend: await backend(), logger: silentLogger, port: 0 });
    const response = await post(running.url, '{"jsonrpc":');
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32700);
    expect(handed).toEqual([undefined]);
  });
});
