/**
 * Records the answers to `initialize` and `tools/list` by asking the real server (createServer over
 * an in-memory transport), so the recorded copy is what the SDK would send, by construction. Run
 * at build time (tsup.config.ts writes dist/static-answers.json) and by the tests that compare the
 * stdio fast path with the SDK.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ApiClient } from '../api/client.js';
import { OFFLINE_BASE_URL } from '../offline/fetch.js';
import { createServer } from '../server.js';
import { VERSION } from '../version.js';
import type { StaticAnswers } from './static-answers.js';

/** Sends one request to the server over `transport` and resolves with its result. */
function ask(transport: InMemoryTransport, id: number, method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    transport.onmessage = (message: JSONRPCMessage) => {
      if (!('id' in message) || message.id !== id) return;
      if ('result' in message) resolve(message.result as Record<string, unknown>);
      else reject(new Error(`${method} failed: ${JSON.stringify(message)}`));
    };
    void transport.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
  });
}

export async function precomputeStaticAnswers(): Promise<StaticAnswers> {
  // initialize and tools/list never reach the API, so the client is one that cannot.
  const client = new ApiClient({ baseUrl: OFFLINE_BASE_URL, fetch: () => Promise.reject(new Error('no API while recording static answers')) });
  const server = createServer({ backend: { client, mode: 'offline', baseUrl: OFFLINE_BASE_URL } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  try {
    const initialize = await ask(clientSide, 1, 'initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'precompute', version: VERSION } });
    const toolsList = await ask(clientSide, 2, 'tools/list');
    return {
      initialize: initialize as StaticAnswers['initialize'],
      toolsList: toolsList as StaticAnswers['toolsList'],
      supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      latestProtocolVersion: LATEST_PROTOCOL_VERSION,
      version: VERSION,
    };
  } finally {
    await server.close();
  }
}
