/**
 * The stdio call lane answers plain tools/call requests the way the SDK server does (same handler,
 * same reply and error shapes, same cancellation), and leaves everything else to the SDK.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { OFFLINE_BASE_URL } from '../../../src/offline/fetch.js';
import { withJsonText } from '../../../src/mcp/json-text.js';
import { createServerParts, type CallTool } from '../../../src/server.js';
import { StdioCalls } from '../../../src/transports/stdio-calls.js';
import { offlineClient } from '../../helpers/offline-client.js';

function lane(callTool: CallTool) {
  const lines: unknown[] = [];
  const notified: Array<{ notification: ServerNotification; relatedRequestId: unknown }> = [];
  const calls = new StdioCalls({
    callTool,
    notify: async (notification, relatedRequestId) => void notified.push({ notification, relatedRequestId }),
    write: (text) => {
      expect(text.endsWith('\n')).toBe(true);
      for (const line of text.slice(0, -1).split('\n')) lines.push(JSON.parse(line));
    },
  });
  const settled = () => new Promise((resolve) => setTimeout(resolve, 10));
  return { calls, lines, notified, settled };
}

const call = (id: unknown, params: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });

/** A call that runs until its signal aborts, telling the client something first. */
const hanging: CallTool = (_params, extra) =>
  new Promise((_resolve, reject) => {
    void extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'started' } });
    extra.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });

describe('StdioCalls', () => {
  it('writes a result that carries its JSON text with that text', async () => {
    const written: string[] = [];
    const result = { content: [{ type: 'text' as const, text: 'x' }], structuredContent: { data: { n: 1.5 } } };
    const calls = new StdioCalls({ callTool: async () => withJsonText(result, '{"content":[{"type":"text","text":"x"}],"structuredContent":{"data":{"n":1.50}}}'), notify: async () => {}, write: (line) => void written.push(line) });
    calls.take(call(3, { name: 'get_job' }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(written).toEqual(['{"result":{"content":[{"type":"text","text":"x"}],"structuredContent":{"data":{"n":1.50}}},"jsonrpc":"2.0","id":3}\n']);
    expect(JSON.parse(written[0]!)).toEqual({ result, jsonrpc: '2.0', id: 3 });
  });

  it('answers a plain call with the handler result, tied to its id', async () => {
    const { calls, lines, settled } = lane(async (params) => ({ content: [{ type: 'text', text: `called ${params.name}` }] }));
    expect(calls.take(call(7, { name: 'get_job', arguments: { job_id: 'x' }, _meta: { progressToken: 't' } }))).toBe(true);
    expect(calls.take(call('s-1', { name: 'discover_api' }))).toBe(true);
    await settled();
    expect(lines).toEqual([
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'called get_job' }] } },
      { jsonrpc: '2.0', id: 's-1', result: { content: [{ type: 'text', text: 'called discover_api' }] } },
    ]);
    expect(calls.size).toBe(0);
  });

  it('leaves anything but a plain, well-formed call to the SDK', () => {
    const { calls } = lane(async () => ({ content: [] }));
    const refused = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '1.0', id: 1, method: 'tools/call', params: { name: 'x' } },
      call(null, { name: 'x' }),
      call(1.5, { name: 'x' }),
      call(undefined, { name: 'x' }),
      call(1, undefined),
      call(1, { name: 7 }),
      call(1, { name: 'x', arguments: [] }),
      call(1, { name: 'x', arguments: null }),
      call(1, { name: 'x', task: { ttl: 1000 } }),
      call(1, { name: 'x', _meta: { 'io.modelcontextprotocol/related-task': { taskId: 't' } } }),
      call(1, { name: 'x', _meta: { progressToken: { not: 'a token' } } }),
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } },
      'not an object',
    ];
    for (const message of refused) expect(calls.take(message), JSON.stringify(message)).toBe(false);
  });

  it('leaves a second call under an id still running here to the SDK', () => {
    const { calls } = lane(hanging);
    expect(calls.take(call(1, { name: 'x' }))).toBe(true);
    expect(calls.take(call(1, { name: 'x' }))).toBe(false);
  });

  it('turns a thrown error into the JSON-RPC error the SDK sends', async () => {
    const errors: unknown[] = [Object.assign(new Error('Unknown tool: "x"'), { code: -32602, data: { tools: 7 } }), new Error('plain'), Object.assign(new Error('odd code'), { code: 'E1' })];
    const { calls, lines, settled } = lane(async () => {
      throw errors.shift();
    });
    for (const id of [1, 2, 3]) calls.take(call(id, { name: 'x' }));
    await settled();
    expect(lines).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Unknown tool: "x"', data: { tools: 7 } } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'plain' } },
      { jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'odd code' } },
    ]);
  });

  it('answers with an internal error, not silence, when a result cannot be serialized', async () => {
    const { calls, lines, settled } = lane(async () => ({ content: [], structuredContent: { count: 1n } }));
    calls.take(call(9, { name: 'x' }));
    await settled();
    expect(lines).toEqual([{ jsonrpc: '2.0', id: 9, error: { code: -32603, message: expect.stringMatching(/^Internal error: the result could not be serialized \(.*BigInt/) } }]);
  });

  it('sends notifications tied to the call, and after notifications/cancelled aborts it, sends nothing more and no answer', async () => {
    const { calls, lines, notified, settled } = lane(hanging);
    calls.take(call(5, { name: 'x' }));
    await settled();
    expect(notified).toEqual([{ notification: { method: 'notifications/message', params: { level: 'info', data: 'started' } }, relatedRequestId: 5 }]);
    expect(calls.take({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'user' } })).toBe(true);
    await settled();
    expect(lines).toEqual([]);
    expect(calls.size).toBe(0);
  });

  it('abortAll ends every call without an answer', async () => {
    const { calls, lines, settled } = lane(hanging);
    calls.take(call(1, { name: 'x' }));
    calls.take(call(2, { name: 'y' }));
    calls.abortAll(new Error('closing'));
    await settled();
    expect(lines).toEqual([]);
    expect(calls.size).toBe(0);
  });

  it('writes the answer to the only call running at once, and holds answers finished beside running calls to the end of the turn', async () => {
    const writes: string[] = [];
    const finish = new Map<string, () => void>();
    const callTool: CallTool = (params) => new Promise((resolve) => finish.set(params.name, () => resolve({ content: [{ type: 'text', text: params.name }] })));
    const calls = new StdioCalls({ callTool, notify: async () => {}, write: (lines) => void writes.push(lines) });
    const ids = (text: string) => text.trim().split('\n').map((line) => (JSON.parse(line) as { id: number }).id);
    const microtasks = () => new Promise<void>((resolve) => process.nextTick(resolve));
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

    // Alone: written before the turn ends.
    calls.take(call(1, { name: 'a' }));
    finish.get('a')!();
    for (let i = 0; i < 5; i++) await microtasks();
    expect(writes.map(ids)).toEqual([[1]]);
    await turn();

    // Three running; two finish in one turn: held, then written together in the order they finished.
    writes.length = 0;
    for (const [id, name] of [[2, 'b'], [3, 'c'], [4, 'd']] as const) calls.take(call(id, { name }));
    finish.get('c')!();
    finish.get('b')!();
    for (let i = 0; i < 5; i++) await microtasks();
    expect(writes).toEqual([]);
    await turn();
    expect(writes.map(ids)).toEqual([[3, 2]]);

    // The last one, alone again, goes out at once.
    finish.get('d')!();
    for (let i = 0; i < 5; i++) await microtasks();
    expect(writes.map(ids)).toEqual([[3, 2], [4]]);

    // flush() writes what is held (the stdio server calls it when the session closes).
    for (const [id, name] of [[5, 'e'], [6, 'f']] as const) calls.take(call(id, { name }));
    finish.get('e')!();
    for (let i = 0; i < 5; i++) await microtasks();
    calls.flush();
    expect(writes.map(ids)).toEqual([[3, 2], [4], [5]]);
    calls.abortAll(new Error('closing'));
    await turn();
    expect(writes).toHaveLength(3);
  });

  it('answers exactly as the SDK server does, for results, tool errors and protocol errors', async () => {
    const client = offlineClient(await createOfflineEngine());
    const { server, callTool } = createServerParts({ backend: { client, mode: 'offline', baseUrl: OFFLINE_BASE_URL } });
    const [sdkSide, ours] = InMemoryTransport.createLinkedPair();
    await server.connect(sdkSide);
    const sdkAnswers = new Map<unknown, unknown>();
    ours.onmessage = (message: JSONRPCMessage) => void ('id' in message && sdkAnswers.set(message.id, message));
    await ours.start();
    const { calls, lines, settled } = lane(callTool);
    const requests = [
      call(1, { name: 'get_job', arguments: { job_id: 'job_ai_0013' } }),
      call(2, { name: 'get_job', arguments: { job_id: 'no_such_job' } }),
      call(3, { name: 'search_jobs', arguments: { per_page: '20' } }),
      call(4, { name: 'no_such_tool', arguments: {} }),
    ];
    for (const request of requests) {
      expect(calls.take(request)).toBe(true);
      await ours.send(request as JSONRPCMessage);
    }
    await settled();
    await expect.poll(() => sdkAnswers.size).toBe(4);
    // Only the retrieval times (with milliseconds) may differ between the two answers.
    const strip = (answer: unknown) => JSON.parse(JSON.stringify(answer).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '(retrieved)'));
    expect(lines).toHaveLength(4);
    for (const answer of lines) expect(strip(answer)).toEqual(strip(sdkAnswers.get((answer as { id: unknown }).id)));
    await server.close();
  });
});
