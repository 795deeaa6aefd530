/**
 * A bridged call goes on its caller's share of upstream requests, as our own calls do (issue 38):
 * the caller's name travels as data from the SDK's authInfo through the server factory, the tool
 * boundary and the bridge to the fetch its SDK client sends through. Driven as HTTP mode drives it
 * (the SDK's handler, given authInfo per request), minus the socket; counted by the calls the
 * hosted surface saw, so a refused call is one that was never sent.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { createMcpHandler, type AuthInfo } from '@modelcontextprotocol/server';
import { HOSTED_OPERATION, newCallRecord } from '../../../src/obs/call-record.js';
import { describe, expect, it } from 'vitest';
import { LocalBudget } from '../../../src/api/fair-share.js';
import { RetryAfterGate } from '../../../src/api/retry-after-gate.js';
import { HostedBridge } from '../../../src/hosted/bridge.js';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { OFFLINE_BASE_URL } from '../../../src/offline/fetch.js';
import { serverFactory } from '../../../src/mcp/server.js';
import { TOOLS } from '../../../src/tools/index.js';
import { TOOL_NAMES } from '../../../src/contract/tool-names.js';
import { callerOf, withCaller } from '../../../src/transports/auth/caller.js';
import { runTool } from '../../../src/tools/run.js';
import { offlineClient } from '../../helpers/offline-client.js';
import { READ_ONLY_TOOL, surface } from './surface.js';

const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('a bridged call in HTTP mode', () => {
  it("takes from its caller's share: past it, refused with nothing sent; another caller goes on", async () => {
    const target = surface({
      tools: [READ_ONLY_TOOL],
      call: () => ({ content: [{ type: 'text', text: 'no rounds' }], structuredContent: { rounds: [] } }),
    });
    const budget = new LocalBudget({ perMinute: 1, burst: 2 });
    const bridge = new HostedBridge({
      endpoint: async () => ({ url: 'http://surface.test/api/public/v1/mcp?surface=market' }),
      fetch: async () => target.fetch,
      gate: new RetryAfterGate(),
      budget,
      timeoutMs: 5_000,
      maxRetryWaitS: 0,
      ours: new Set(TOOL_NAMES),
    });
    bridge.start();
    // Generous: an in-process surface answers in milliseconds; a loaded 2-core machine may take far longer.
    await bridge.settled(30_000);
    const backend = {
      client: offlineClient(await createOfflineEngine()),
      mode: 'embedded' as const,
      baseUrl: OFFLINE_BASE_URL,
      tools: TOOLS,
      bridge,
    };
    const handler = createMcpHandler(serverFactory({ backend }, { callerOf }), { legacy: 'stateless' });
    const verified: AuthInfo = { token: 'secret', clientId: 'c', scopes: [] };

    async function clientFor(caller: string) {
      const authInfo = withCaller(verified, caller);
      const client = new Client({ name: 'fair-share', version: '0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL('http://server.test/mcp'), {
          fetch: (url, init) => handler.fetch(new Request(url, init), { authInfo }),
        }),
      );
      return client;
    }
    const call = (client: Client) =>
      client.callTool({ name: READ_ONLY_TOOL.name, arguments: { company: 'Acme' } }) as Promise<CallToolResult>;
    const sent = () => target.seen.filter((method) => method === 'tools/call').length;

    const alice = await clientFor('token:alice');
    for (const _ of [1, 2]) {
      const answered = await call(alice);
      expect(answered.isError, text(answered)).toBeFalsy();
    }
    expect(sent()).toBe(2);

    const refused = await call(alice);
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^rate_limited: your share of this server's requests to the API is spent/);
    expect(sent()).toBe(2);

    const bob = await clientFor('token:bob');
    expect((await call(bob)).isError).toBeFalsy();
    expect(sent()).toBe(3);
    // The bridge's own list read names no caller and takes nothing from anyone's share.
    expect(await budget.state('token:alice')).toMatchObject({ sent: 2, refused: 1 });
    expect(await budget.state('token:bob')).toMatchObject({ sent: 1, refused: 0 });
    await Promise.all([alice.close(), bob.close(), handler.close()]);
  });
});

describe("a bridged call's record", () => {
  it('holds its arguments, each exchange with the surface, and a fair-share refusal, as ours does', async () => {
    const target = surface({
      tools: [READ_ONLY_TOOL],
      call: () => ({ content: [{ type: 'text', text: 'no rounds' }], structuredContent: { rounds: [] } }),
    });
    const bridge = new HostedBridge({
      endpoint: async () => ({ url: 'http://surface.test/api/public/v1/mcp?surface=market' }),
      fetch: async () => target.fetch,
      gate: new RetryAfterGate(),
      budget: new LocalBudget({ perMinute: 1, burst: 1 }),
      timeoutMs: 5_000,
      maxRetryWaitS: 0,
      ours: new Set(TOOL_NAMES),
    });
    bridge.start();
    await bridge.settled(30_000);
    const tool = bridge.tools().find((t) => t.name === READ_ONLY_TOOL.name)!;
    const context = { client: undefined as never, mode: 'http' as const, bridge, caller: 'token:alice' };

    const answered = newCallRecord(tool.name);
    await runTool(tool, { company: 'Acme' }, context, answered);
    expect(answered).toMatchObject({
      arguments: 'valid',
      error: undefined,
      upstream: [{ operation: HOSTED_OPERATION, status: 200 }],
    });
    expect(answered.result?.isError).toBeFalsy();

    const refused = newCallRecord(tool.name);
    await runTool(tool, { company: 'Acme' }, context, refused);
    expect(refused).toMatchObject({
      arguments: 'valid',
      error: { kind: 'rate_limited' },
      upstream: [{ operation: HOSTED_OPERATION, cacheHit: false, failure: 'fair_share' }],
    });

    const invalid = newCallRecord(tool.name);
    await runTool(tool, { company: '' }, context, invalid);
    expect(invalid).toMatchObject({ arguments: 'invalid', error: { kind: 'invalid_argument' }, upstream: [] });
  });
});
