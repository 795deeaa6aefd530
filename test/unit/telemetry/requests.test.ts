/**
 * Telemetry follows each request on its server's transport: its answer, a cancellation naming it or
 * the transport closing ends its operation (span, duration, calls in flight), once.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it, vi } from 'vitest';
import type { Instruments } from '../../../src/telemetry/metrics.js';
import { Operations } from '../../../src/telemetry/requests.js';

function setUp() {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('test');
  const inFlight = new Map<string, number>();
  const instruments = {
    inFlight: {
      add: (n: number, labels: Record<string, string>) =>
        inFlight.set(labels['mcp.method.name']!, (inFlight.get(labels['mcp.method.name']!) ?? 0) + n),
    },
    operationDuration: { record: vi.fn() },
  } as unknown as Instruments;
  const sent: JSONRPCMessage[] = [];
  const transport: Transport = {
    start: async () => {},
    close: async () => {},
    send: async (message) => void sent.push(message),
  };
  const known = { tools: new Set(['get_job']), prompts: new Set<string>() };
  const view = new Operations(tracer, instruments).follow(transport, known);
  const handled: JSONRPCMessage[] = [];
  view.onmessage = (message) => void handled.push(message);
  const closed = vi.fn();
  view.onclose = closed;
  const ended = () => exporter.getFinishedSpans().map((span) => [span.name, span.attributes['error.type']]);
  return { transport, view, ended, inFlight, handled, sent, closed };
}

const call = (id: number, name = 'get_job') => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});

describe('telemetry following requests', () => {
  it('ends a request at its answer, with the error code when it failed', async () => {
    const { transport, view, ended, inFlight, handled, sent } = setUp();
    transport.onmessage!(call(1));
    transport.onmessage!(call(2, 'invented'));
    expect(handled).toHaveLength(2);
    expect(inFlight.get('tools/call')).toBe(2);
    await view.send({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    await view.send({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Tool invented not found' } });
    expect(ended()).toEqual([
      ['tools/call get_job', undefined],
      ['tools/call _OTHER', '-32602'],
    ]);
    expect(inFlight.get('tools/call')).toBe(0);
    expect(sent).toHaveLength(2);
  });

  it('ends a cancelled request at its cancellation, and no later message with its id ends it again', async () => {
    const { transport, view, ended, inFlight } = setUp();
    transport.onmessage!(call(1));
    transport.onmessage!({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(ended()).toEqual([['tools/call get_job', 'cancelled']]);
    await view.send({ jsonrpc: '2.0', id: 1, result: { content: [] } });
    expect(ended()).toHaveLength(1);
    expect(inFlight.get('tools/call')).toBe(0);
  });

  it("takes a request of the server's own with the same id for no answer", async () => {
    const { transport, view, ended } = setUp();
    transport.onmessage!(call(0));
    await view.send({ jsonrpc: '2.0', id: 0, method: 'roots/list' });
    expect(ended()).toEqual([]);
  });

  it('ends every request still open as cancelled when the transport closes, and tells the server', () => {
    const { transport, ended, inFlight, closed } = setUp();
    transport.onmessage!(call(1));
    transport.onmessage!({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    transport.onclose!();
    expect(ended().map(([, error]) => error)).toEqual(['cancelled', 'cancelled']);
    expect([inFlight.get('tools/call'), inFlight.get('tools/list')]).toEqual([0, 0]);
    expect(closed).toHaveBeenCalledOnce();
  });
});
