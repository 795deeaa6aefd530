/**
 * The stdio fast start: initialize and tools/list answered from the recorded answers, everything
 * else (and a short idle) handed over to the SDK with the lines read so far replayed in order.
 */
import { PassThrough } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { precomputeStaticAnswers } from '../../../src/mcp/precompute.js';
import { loadStaticAnswers, staticReply, type StaticAnswers } from '../../../src/mcp/static-answers.js';
import { Feed, MAX_LINE_BYTES, REPLAY_ID, StdioFront, type Taker } from '../../../src/transports/stdio-front.js';

let answers: StaticAnswers;
beforeAll(async () => {
  answers = await precomputeStaticAnswers();
});
afterEach(() => vi.useRealTimers());

const initialize = (id: number | string, protocolVersion = '2025-06-18') => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion, capabilities: { roots: {} }, clientInfo: { name: 'test', version: '1' } } });
const line = (message: unknown) => `${JSON.stringify(message)}\n`;

/** A front over a fake stdin; `fed` collects what the SDK side would read after the handover. */
function harness(idleMs = 10_000, take?: Taker) {
  const input = new PassThrough();
  const written: unknown[] = [];
  const chunks: unknown[] = [];
  const oversized: number[] = [];
  const connect = vi.fn(async (feed: Feed) => {
    feed.on('data', (chunk: unknown) => chunks.push(chunk));
    return take;
  });
  // The SDK's transport concatenates what it is fed as Buffers, and decodes only whole lines.
  const fedRaw = () => {
    for (const chunk of chunks) expect(chunk).toBeInstanceOf(Buffer);
    return Buffer.concat(chunks as Buffer[]).toString('utf8');
  };
  const errors: unknown[] = [];
  const front = new StdioFront({ input, write: (text) => written.push(JSON.parse(text)), answers, connect, onError: (e) => errors.push(e), onOversize: (bytes) => oversized.push(bytes), idleMs });
  front.start();
  const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
  return { input, written, fedLines: () => fedRaw().split('\n').filter(Boolean).map((l) => JSON.parse(l)), fedRaw, connect, errors, oversized, flush };
}

describe('recorded answers', () => {
  it('are what the SDK server answers, for this version', () => {
    expect(answers.initialize).toMatchObject({ serverInfo: { name: 'service-mcp' }, capabilities: { tools: {} } });
    expect(answers.toolsList.tools.map((t) => (t as { name: string }).name)).toContain('search_jobs');
    expect(answers.supportedProtocolVersions).toContain(answers.latestProtocolVersion);
  });

  it('negotiate the protocol version as the SDK does: the client version when supported, else the latest', () => {
    const old = answers.supportedProtocolVersions.at(-1)!;
    expect((staticReply(initialize(1, old), answers)!.response.result as { protocolVersion: string }).protocolVersion).toBe(old);
    expect((staticReply(initialize(1, '1999-01-01'), answers)!.response.result as { protocolVersion: string }).protocolVersion).toBe(answers.latestProtocolVersion);
  });

  it('leave anything unusual to the SDK: a malformed initialize, unknown tools/list params, other methods, notifications', () => {
    expect(staticReply({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } }, answers)).toBeUndefined();
    expect(staticReply({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { surprise: true } }, answers)).toBeUndefined();
    expect(staticReply({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } }, answers)).toBeUndefined();
    expect(staticReply({ jsonrpc: '2.0', method: 'initialize', params: initialize(1).params }, answers)).toBeUndefined();
    expect(staticReply({ jsonrpc: '1.0', id: 1, method: 'tools/list' }, answers)).toBeUndefined();
    // An id the SDK's RequestIdSchema refuses (not a safe integer) is the SDK's to refuse.
    expect(staticReply({ jsonrpc: '2.0', id: 2 ** 60, method: 'tools/list' }, answers)).toBeUndefined();
    expect(staticReply({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { cursor: 'x', _meta: { progressToken: 1 } } }, answers)).toMatchObject({ kind: 'tools/list', response: { id: 7 } });
  });

  it('are not used when the file is missing or was recorded for another version', () => {
    expect(loadStaticAnswers('0.1.0', new URL('file:///nonexistent/static-answers.json'))).toBeUndefined();
  });
});

describe('StdioFront', () => {
  it('answers initialize and tools/list itself, without loading the SDK', async () => {
    const h = harness();
    h.input.write(line(initialize(1)) + line({ jsonrpc: '2.0', method: 'notifications/initialized' }) + line({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    await h.flush();
    expect(h.written).toEqual([
      { jsonrpc: '2.0', id: 1, result: { ...answers.initialize, protocolVersion: '2025-06-18' } },
      { jsonrpc: '2.0', id: 2, result: answers.toolsList },
    ]);
    expect(h.connect).not.toHaveBeenCalled();
  });

  it('hands over on the first other request, replaying initialize under the private id, then everything in order', async () => {
    const h = harness();
    h.input.write(line(initialize(1)) + line({ jsonrpc: '2.0', method: 'notifications/initialized' }) + line({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    h.input.write(line({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_job', arguments: { job_id: 'x' } } }));
    await h.flush();
    expect(h.connect).toHaveBeenCalledTimes(1);
    expect(h.fedLines()).toEqual([{ ...initialize(1), id: REPLAY_ID }, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_job', arguments: { job_id: 'x' } } }]);
    // Only the two static answers were written by the front; the SDK answers the rest.
    expect(h.written).toHaveLength(2);
  });

  it('after the handover passes bytes through untouched, a line split across chunks included', async () => {
    const h = harness();
    h.input.write(line({ jsonrpc: '2.0', id: 1, method: 'ping' }) + '{"jsonrpc":"2.0","id":2,');
    await h.flush();
    h.input.write('"method":"tools/list"}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    await h.flush();
    expect(h.fedLines()).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'ping' },
    ]);
    // tools/list after the handover is the SDK's to answer.
    expect(h.written).toEqual([]);
  });

  it('keeps a character cut between two chunks whole, before the handover and after it', async () => {
    const h = harness();
    const init = line({ ...initialize(1), params: { ...initialize(1).params, clientInfo: { name: 'Büro ✓', version: '1' } } });
    const call = line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_jobs', arguments: { q: 'Zürich' } } });
    const bytes = Buffer.from(init + call + call.replace('"id":2', '"id":3'));
    // Cut inside the ü of each line: the first before the handover, the others around it.
    const cuts = [init.indexOf('ü') + 1, Buffer.byteLength(init) + Buffer.byteLength(call.slice(0, call.indexOf('ü'))) + 1, bytes.length - 12];
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      h.input.write(bytes.subarray(from, cut));
      from = cut;
      await h.flush();
    }
    expect(h.written[0]).toMatchObject({ id: 1 });
    expect(h.fedLines().map((m) => m.params.clientInfo?.name ?? m.params.arguments.q)).toEqual(['Büro ✓', 'Zürich', 'Zürich']);
  });

  it('reads lines that end in CR LF as the same messages, before the handover and after it', async () => {
    const taken: unknown[] = [];
    const h = harness(10_000, (message) => (message as { method?: string }).method === 'tools/call' && taken.push(message) > 0);
    const crlf = (message: unknown) => `${JSON.stringify(message)}\r\n`;
    h.input.write(crlf(initialize(1)));
    await h.flush();
    expect(h.written).toEqual([{ jsonrpc: '2.0', id: 1, result: { ...answers.initialize, protocolVersion: '2025-06-18' } }]);
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'discover_api' } };
    h.input.write(crlf({ jsonrpc: '2.0', id: 2, method: 'ping' }) + crlf(call));
    await h.flush();
    await h.flush();
    expect(taken).toEqual([call]);
    expect(h.fedRaw()).not.toContain('\r');
    expect(h.fedLines().map((m) => (m as { method: string }).method)).toEqual(['initialize', 'ping']);
  });

  it('after the handover offers each message to the taker first; what it declines reaches the SDK', async () => {
    const taken: unknown[] = [];
    const h = harness(10_000, (message) => (message as { method?: string }).method === 'tools/call' && taken.push(message) > 0);
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_job', arguments: { job_id: 'x' } } };
    h.input.write(line({ jsonrpc: '2.0', id: 1, method: 'ping' }) + line(call) + '{"jsonrpc":"2.0",');
    await h.flush();
    h.input.write('"id":3,"method":"tools/call","params":{"name":"discover_api"}}\nnot json\n');
    await h.flush();
    expect(taken).toEqual([call, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'discover_api' } }]);
    expect(h.fedRaw()).toBe(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\nnot json\n`);
  });

  it('drops a line over the limit up to its newline, says how long it was, and reads on', async () => {
    for (const take of [undefined, () => false]) {
      const h = harness(10_000, take);
      h.input.write(line({ jsonrpc: '2.0', id: 1, method: 'ping' }));
      await h.flush();
      const mb = Buffer.alloc(1024 * 1024, 'a');
      // Before the handover finished, and after it: the limit holds either way.
      for (let i = 0; i < 11; i++) h.input.write(mb);
      h.input.write(`"}\n${line({ jsonrpc: '2.0', id: 2, method: 'ping' })}`);
      await h.flush();
      expect(h.oversized).toEqual(take ? [11 * mb.length + 2] : []);
      if (take) expect(h.fedLines()).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]);
    }
  });

  it('drops an oversized line even when its newline comes in the chunk that passes the limit', async () => {
    const h = harness(10_000, () => false);
    h.input.write(line({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    await h.flush();
    h.input.write(Buffer.alloc(MAX_LINE_BYTES - 10, 'a'));
    h.input.write(`${'b'.repeat(20)}\n${line({ jsonrpc: '2.0', id: 2, method: 'ping' })}`);
    await h.flush();
    expect(h.oversized).toEqual([MAX_LINE_BYTES + 10]);
    expect(h.fedLines()).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('passes an unparseable line on to the SDK, which reports it', async () => {
    const h = harness();
    h.input.write('not json\n');
    await h.flush();
    expect(h.connect).toHaveBeenCalledTimes(1);
    expect(h.fedRaw()).toBe('not json\n');
  });

  it('a notification alone does not load the SDK; a short idle after the static answers does', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const h = harness(50);
    h.input.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    await h.flush();
    expect(h.connect).not.toHaveBeenCalled();
    h.input.write(line(initialize(1)));
    await h.flush();
    await vi.advanceTimersByTimeAsync(49);
    expect(h.connect).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await h.flush();
    expect(h.connect).toHaveBeenCalledTimes(1);
    expect(h.fedLines().map((m) => m.id ?? m.method)).toEqual(['notifications/initialized', REPLAY_ID]);
  });

  it('reports a failed load', async () => {
    const input = new PassThrough();
    const errors: unknown[] = [];
    new StdioFront({ input, write: () => {}, answers, connect: () => Promise.reject(new Error('boom')), onError: (e) => errors.push(e) }).start();
    input.write(line({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([new Error('boom')]);
  });
});
