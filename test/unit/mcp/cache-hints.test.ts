/**
 * Cache hints (2026-07-28) on the wire, from the one server definition served by the SDK's HTTP
 * entry in process: the lists and server/discover are public for an hour; a resource read is
 * public for as long as that document holds, which offline is the life of the build.
 */
import { createMcpHandler } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { OFFLINE_BASE_URL } from '../../../src/offline/fetch.js';
import { createServer } from '../../../src/mcp/server.js';
import type { Mode } from '../../../src/api/provenance-record.js';
import { offlineClient } from '../../helpers/offline-client.js';
import { TOOLS } from '../../../src/tools/index.js';

const HOUR_MS = 3_600_000;

async function handlerFor(mode: Mode) {
  const client: ApiClient = offlineClient(await createOfflineEngine());
  return createMcpHandler(() => createServer({ backend: { client, mode, baseUrl: OFFLINE_BASE_URL, tools: TOOLS } }));
}

/** One 2026-07-28 request, as the SDK client sends it (the _meta envelope and the standard headers). */
async function ask(
  handler: Awaited<ReturnType<typeof handlerFor>>,
  method: string,
  params: Record<string, unknown> = {},
  name?: string,
) {
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const response = await handler.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(name !== undefined && { 'mcp-name': name }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } }),
    }),
  );
  const text = await response.text();
  const json = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((line) => line.startsWith('data: '))!
        .slice(6);
  return (JSON.parse(json) as { result: Record<string, unknown> }).result;
}

describe('cache hints on 2026-07-28 results', () => {
  it('mark the lists and server/discover public for an hour', async () => {
    const handler = await handlerFor('embedded');
    for (const method of [
      'tools/list',
      'prompts/list',
      'resources/list',
      'resources/templates/list',
      'server/discover',
    ]) {
      expect(await ask(handler, method), method).toMatchObject({ ttlMs: HOUR_MS, cacheScope: 'public' });
    }
  });

  it('give each resource read its own hint: an hour offline; live, 5 minutes for discovery and an hour for the OpenAPI document', async () => {
    const discovery = 'service-mcp://api/discovery';
    const openapi = 'service-mcp://api/openapi.json';
    const offline = await handlerFor('embedded');
    expect(await ask(offline, 'resources/read', { uri: discovery }, discovery)).toMatchObject({
      ttlMs: HOUR_MS,
      cacheScope: 'public',
    });
    const live = await handlerFor('http');
    expect(await ask(live, 'resources/read', { uri: discovery }, discovery)).toMatchObject({
      ttlMs: 5 * 60_000,
      cacheScope: 'public',
    });
    expect(await ask(live, 'resources/read', { uri: openapi }, openapi)).toMatchObject({
      ttlMs: HOUR_MS,
      cacheScope: 'public',
    });
  });

  it('leave tool results uncached', async () => {
    const result = await ask(
      await handlerFor('embedded'),
      'tools/call',
      { name: 'check_api_health', arguments: {} },
      'check_api_health',
    );
    expect(result).not.toHaveProperty('ttlMs');
    expect(result.resultType).toBe('complete');
  });
});
