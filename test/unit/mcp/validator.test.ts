/**
 * The SDK builds an Ajv validator for every Server it constructs unless given one; this server
 * never asks a client for elicitation, the only thing the validator is for, so none is built.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it, vi } from 'vitest';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { OFFLINE_BASE_URL } from '../../../src/offline/fetch.js';
import { createServer } from '../../../src/server.js';
import { offlineClient } from '../../helpers/offline-client.js';

const built = vi.hoisted(() => ({ count: 0 }));
vi.mock('@modelcontextprotocol/sdk/validation/ajv-provider.js', async (original) => {
  const { AjvJsonSchemaValidator } = await original<typeof import('@modelcontextprotocol/sdk/validation/ajv-provider.js')>();
  return {
    AjvJsonSchemaValidator: class extends AjvJsonSchemaValidator {
      constructor(...args: ConstructorParameters<typeof AjvJsonSchemaValidator>) {
        super(...args);
        built.count++;
      }
    },
  };
});

describe('the JSON Schema validator', () => {
  it('is not built by servers that list and call tools', async () => {
    const api = offlineClient(await createOfflineEngine());
    for (let i = 0; i < 3; i++) {
      const server = createServer({ backend: { client: api, mode: 'offline', baseUrl: OFFLINE_BASE_URL } });
      const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: 'test', version: '1' });
      await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
      await client.listTools();
      const result = await client.callTool({ name: 'get_job', arguments: { job_id: 'job_ai_0013' } });
      expect(result.isError).toBeFalsy();
      await client.close();
    }
    expect(built.count).toBe(0);
  });
});
