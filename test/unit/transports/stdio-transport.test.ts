/** The line transport's own rules, with a stream for stdin and a recorder for stdout. */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LineTransport, type LineOutput } from '../../../src/transports/stdio-transport.js';

class Output extends EventEmitter implements LineOutput {
  lines: string[] = [];
  full = false;
  write(chunk: string): boolean {
    this.lines.push(chunk);
    return !this.full;
  }
  drain(): void {
    this.full = false;
    this.emit('drain');
  }
}

function setUp(
  endGraceMs = 1_000,
  maxLineBytes?: number,
  bound: { maxInFlight?: number; readAheadBytes?: number } = {},
) {
  const input = new PassThrough();
  const output = new Output();
  const transport = new LineTransport(input, output, {
    endGraceMs,
    ...(maxLineBytes !== undefined && { maxLineBytes }),
    ...bound,
  });
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => void received.push(message);
  const closed = vi.fn();
  transport.onclose = closed;
  return { input, output, transport, received, closed };
}

const request = (id: number, method = 'ping') => `${JSON.stringify({ jsonrpc: '2.0', id, method })}\n`;
const tick = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('LineTransport', () => {
  it('hands on whole lines only, CRLF or LF, and a last line without its newline at the end', async () => {
    const { input, transport, received } = setUp();
    await transport.start();
    const line = request(1);
    input.write(line.slice(0, 10));
    await tick();
    expect(received).toEqual([]);
    input.write(`${line.slice(10, -1)}\r\n${request(2).trimEnd()}`);
    await tick();
    expect(received.map((m) => (m as { id: number }).id)).toEqual([1]);
    input.end();
    await tick();
    expect(received.map((m) => (m as { id: number }).id)).toEqual([1, 2]);
  });

  it('stops handing on lines and pauses stdin while stdout is backed up, and goes on after drain', async () => {
    const { input, output, transport, received } = setUp();
    await transport.start();
    output.full = true;
    input.write(request(1));
    await tick();
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    input.write(request(2) + request(3));
    await tick();
    expect(received).toHaveLength(1);
    expect(input.isPaused()).toBe(true);
    output.drain();
    await tick();
    expect(received).toHaveLength(3);
    expect(input.isPaused()).toBe(false);
  });

  it('at the end of input, closes once every request handed on is answered or cancelled', async () => {
    const { input, transport, closed } = setUp();
    await transport.start();
    input.write(request(1) + request(2));
    input.end();
    await tick();
    expect(closed).not.toHaveBeenCalled();
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(closed).not.toHaveBeenCalled();
    await transport.send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'p', progress: 1 },
    });
    expect(closed).not.toHaveBeenCalled();
    await transport.send({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'x' } });
    expect(closed).toHaveBeenCalledOnce();
  });

  it('does not wait for a request the client cancelled, which is never answered', async () => {
    const { input, transport, closed } = setUp();
    await transport.start();
    input.write(request(1));
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })}\n`);
    input.end();
    await tick();
    expect(closed).toHaveBeenCalledOnce();
  });

  it('when no answer comes for the grace period, answers what is owed with an error and closes', async () => {
    vi.useFakeTimers();
    const { input, output, transport, closed } = setUp(500);
    await transport.start();
    input.write(request(1) + request(2));
    input.end();
    await vi.advanceTimersByTimeAsync(400);
    // An answer restarts the wait: calls still coming in are not stuck.
    await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    await vi.advanceTimersByTimeAsync(499);
    expect(closed).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(closed).toHaveBeenCalledOnce();
    expect(output.lines.map((line) => JSON.parse(line))).toEqual([
      { jsonrpc: '2.0', id: 1, result: {} },
      {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32000, message: expect.stringMatching(/no answer within 500 ms after the end of input/) },
      },
    ]);
  });

  it('answers an oversized line without holding it, and reads the next line', async () => {
    const { input, output, transport, received } = setUp(1_000, 64);
    await transport.start();
    input.write('x'.repeat(50));
    input.write(`${'y'.repeat(50)}\n${request(5)}`);
    await tick();
    expect(JSON.parse(output.lines[0]!)).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringMatching(/more than 64 bytes/) },
    });
    expect(received.map((m) => (m as { id: number }).id)).toEqual([5]);
  });

  it('writes one line per error message, the SDK dump of schema issues condensed', async () => {
    const { output, transport } = setUp();
    await transport.start();
    const dump = `Invalid tools/call request: ${JSON.stringify([{ code: 'invalid_type', path: ['params', 'name'], message: 'expected string' }], null, 2)}`;
    await transport.send({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: dump } });
    expect(output.lines).toHaveLength(1);
    expect(JSON.parse(output.lines[0]!).error.message).toBe('Invalid tools/call request: params.name: expected string');
  });
});

const idsOf = (messages: JSONRPCMessage[]) =>
  messages.map((m) => ('id' in m ? m.id : (m as { method: string }).method));
const cancel = (id: number) =>
  `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } })}\n`;
const answer = (id: number) => ({ jsonrpc: '2.0' as const, id, result: {} });

describe('LineTransport with a bound on requests in flight', () => {
  it('hands on at most maxInFlight requests, and the next one as soon as one is answered', async () => {
    const { input, transport, received } = setUp(1_000, undefined, { maxInFlight: 2 });
    await transport.start();
    input.write(request(1) + request(2) + request(3) + request(4));
    await tick();
    expect(idsOf(received)).toEqual([1, 2]);
    await transport.send(answer(2));
    await tick();
    expect(idsOf(received)).toEqual([1, 2, 3]);
    await transport.send({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'x' } });
    await tick();
    expect(idsOf(received)).toEqual([1, 2, 3, 4]);
  });

  it('a request id sent again while it runs takes no second slot, so no slot is lost when both are answered', async () => {
    const { input, transport, received } = setUp(1_000, undefined, { maxInFlight: 2 });
    await transport.start();
    input.write(request(1) + request(1) + request(2) + request(3));
    await tick();
    expect(idsOf(received)).toEqual([1, 1, 2]);
    for (const id of [1, 1, 2]) await transport.send(answer(id));
    await tick();
    expect(idsOf(received)).toEqual([1, 1, 2, 3]);
    await transport.send(answer(3));
    input.write(request(4) + request(5) + request(6));
    await tick();
    expect(idsOf(received)).toEqual([1, 1, 2, 3, 4, 5]);
  });

  it('reads a cancellation behind waiting requests: a running call frees its slot, a waiting one is dropped unstarted', async () => {
    const { input, transport, received } = setUp(1_000, undefined, { maxInFlight: 2 });
    await transport.start();
    input.write(request(1) + request(2) + request(3) + request(4) + request(5));
    await tick();
    input.write(cancel(1) + cancel(4));
    await tick();
    // 1 was cancelled while running: the SDK is told, and 3 takes its slot; 4 never starts.
    expect(idsOf(received)).toEqual([1, 2, 'notifications/cancelled', 3]);
    await transport.send(answer(2));
    await tick();
    expect(idsOf(received)).toEqual([1, 2, 'notifications/cancelled', 3, 5]);
  });

  it('keeps other notifications in order behind waiting requests, and hands on a client answer at once', async () => {
    const { input, transport, received } = setUp(1_000, undefined, { maxInFlight: 1 });
    await transport.start();
    input.write(
      request(1) +
        request(2) +
        `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' })}\n` +
        `${JSON.stringify({ jsonrpc: '2.0', id: 'server-1', result: {} })}\n`,
    );
    await tick();
    expect(idsOf(received)).toEqual([1, 'server-1']);
    await transport.send(answer(1));
    await tick();
    expect(idsOf(received)).toEqual([1, 'server-1', 2, 'notifications/roots/list_changed']);
  });

  it('does not count a subscriptions/listen stream, which stays open until cancelled, as a call', async () => {
    const { input, transport, received } = setUp(1_000, undefined, { maxInFlight: 1 });
    await transport.start();
    input.write(request(1, 'subscriptions/listen') + request(2) + request(3));
    await tick();
    expect(idsOf(received)).toEqual([1, 2]);
  });

  it('pauses stdin once readAheadBytes of requests wait for a slot, and reads on as they start', async () => {
    const { input, transport, received } = setUp(1_000, undefined, {
      maxInFlight: 1,
      readAheadBytes: 2 * request(1).trimEnd().length,
    });
    await transport.start();
    input.write(request(1) + request(2));
    await tick();
    expect(input.isPaused()).toBe(false);
    input.write(request(3));
    await tick();
    expect(input.isPaused()).toBe(true);
    await transport.send(answer(1));
    await tick();
    expect(idsOf(received)).toEqual([1, 2]);
    expect(input.isPaused()).toBe(false);
  });

  it('at the end of input, still starts every request waiting, then closes once all are answered', async () => {
    const { input, transport, received, closed } = setUp(1_000, undefined, { maxInFlight: 1 });
    await transport.start();
    input.write(request(1) + request(2) + request(3));
    input.end();
    for (const id of [1, 2, 3]) {
      await tick();
      expect(closed).not.toHaveBeenCalled();
      expect(idsOf(received).at(-1)).toBe(id);
      await transport.send(answer(id));
    }
    await tick();
    expect(closed).toHaveBeenCalledOnce();
  });

  it('once stopping, answers waiting and newly read requests with an error at once, lets running ones finish, and answerRemaining answers those left', async () => {
    const { input, output, transport, received } = setUp(1_000, undefined, { maxInFlight: 2 });
    await transport.start();
    input.write(request(1) + request(2) + request(3));
    await tick();
    transport.stopping('stopping (SIGTERM)');
    input.write(request(4) + cancel(2));
    await tick();
    expect(idsOf(received)).toEqual([1, 2, 'notifications/cancelled']);
    expect(transport.owed).toBe(1);
    let settled = false;
    void transport.settled().then(() => (settled = true));
    transport.answerRemaining('stopped (SIGTERM)');
    await tick();
    expect(settled).toBe(true);
    // The SDK's own answer, arriving after that, is not a second one.
    await transport.send(answer(1));
    expect(output.lines.map((line) => JSON.parse(line))).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'stopping (SIGTERM)' } },
      { jsonrpc: '2.0', id: 4, error: { code: -32000, message: 'stopping (SIGTERM)' } },
      { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'stopped (SIGTERM)' } },
    ]);
  });
});
