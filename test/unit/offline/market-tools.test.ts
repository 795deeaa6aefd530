/** The offline hosted market surface's tools, called as a bridge would call them. */
import { Client, InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { loadSnapshot } from '../../../src/offline/dataset.js';
import { registerMarketTools } from '../../../src/app/offline-deployment.js';

async function client(): Promise<Client> {
  const mcp = new McpServer({ name: 'market', version: '0' });
  registerMarketTools(mcp, await loadSnapshot());
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const c = new Client({ name: 'market-test', version: '0' });
  await c.connect(clientSide);
  return c;
}

const text = (result: CallToolResult) => result.content.map((b) => ('text' in b ? b.text : '')).join('\n');

describe('get_compensation_benchmarks', () => {
  it('names the roles with data when a role matches none, so the caller can ask again', async () => {
    const c = await client();
    const none = (await c.callTool({
      name: 'get_compensation_benchmarks',
      arguments: { role: 'ML Engineer' },
    })) as CallToolResult;
    expect(text(none)).toMatch(
      /0 benchmark rows\. No role with salary data contains "ML Engineer"; roles with data: .*Machine Learning Engineer/,
    );
    const some = (await c.callTool({
      name: 'get_compensation_benchmarks',
      arguments: { role: 'Machine Learning Engineer' },
    })) as CallToolResult;
    expect(text(some)).toMatch(/[1-9]\d* benchmark rows\. Machine Learning Engineer \(/);
    expect(text(some)).not.toContain('roles with data');
    await c.close();
  });
});
