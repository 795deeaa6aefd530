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

function setUp(endGraceMs = 1_000, maxLineBytes?: number) {
  const input = new PassThrough();
  const output = new Output();
  const transport = new LineTransport(input, output, { endGraceMs, ...(maxLineBytes !== undefined && { maxLineBytes }) });
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
    await transport.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } });
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

  it('closes when the grace period is up, answered or not', async () => {
    vi.useFakeTimers();
    const { input, transport, closed } = setUp(500);
    await transport.start();
    input.write(request(1));
    input.end();
    await vi.advanceTimersByTimeAsync(499);
    expect(closed).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(closed).toHaveBeenCalledOnce();
  });

  it('answers an oversized line without holding it, and reads the next line', async () => {
    const { input, output, transport, received } = setUp(1_000, 64);
    await transport.start();
    input.write('x'.repeat(50));
    input.write(`${'y'.repeat(50)}\n${request(5)}`);
    await tick();
    expect(JSON.parse(output.lines[0]!)).toMatchObject({ id: null, error: { code: -32600, message: expect.stringMatching(/more than 64 bytes/) } });
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
