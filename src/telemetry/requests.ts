/**
 * Each MCP request a server handles, followed on its transport from arrival to answer (or
 * cancellation, or close): the server span `{mcp.method.name} {target}` and the
 * `mcp.server.operation.duration` histogram of the MCP semantic conventions, and the calls in
 * flight. The SDK keeps its running requests to itself and says nothing of one cancelled or dropped
 * at close, so each connection keeps its open operations by id here, the one piece of per-request
 * state telemetry holds; a request-lifecycle hook on the SDK's Protocol would let that map go.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import {
  isJSONRPCRequest,
  isJSONRPCResponse,
  isSpecType,
  PROTOCOL_VERSION_META_KEY,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
  type RequestMethod,
  type Transport,
} from '@modelcontextprotocol/server';
import type { CallRecord } from '../obs/call-record.js';
import type { KnownNames } from '../obs/telemetry-hooks.js';
import type { Instruments } from './metrics.js';

/**
 * The requests a client sends a server, as the SDK names them. A metric label or a span name is
 * one of these, or a tool or prompt name the server has; anything else a caller sends is `_OTHER`
 * (the semantic conventions' word), so that invented names cannot grow the series without end.
 */
const METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'logging/setLevel',
] satisfies RequestMethod[]);
const OTHER = '_OTHER';

export interface Operation {
  id: RequestId;
  /** The method as labelled: one of METHODS, or `_OTHER`. */
  method: string;
  span: Span | undefined;
  /** The context its handler runs in, the span current. */
  context: Context;
  started: number;
  /** Low-cardinality attributes, shared by the span and the duration histogram. */
  attributes: Attributes;
  /** A tools/call's record, handed over by the MCP layer when the call ends (toolCallEnded). */
  record?: CallRecord;
}

/**
 * The caller's trace: from `params._meta` (whose keys are the W3C header names) when it has a
 * traceparent, else (over HTTP) from the request's headers.
 */
function parentContext(meta: Record<string, unknown> | undefined, extra: MessageExtraInfo | undefined): Context {
  const fromMeta = typeof meta?.[TRACEPARENT_META_KEY] === 'string' ? meta : undefined;
  const headers = extra?.request?.headers;
  return propagation.extract(context.active(), undefined, {
    keys: () => [TRACEPARENT_META_KEY, TRACESTATE_META_KEY],
    get: (_, key) => {
      const value = fromMeta ? fromMeta[key] : headers?.get(key);
      return typeof value === 'string' && value !== '' ? value : undefined;
    },
  });
}

export class Operations {
  /** The operation a request's handler runs under, so that the call's record finds its span. */
  private readonly running = new AsyncLocalStorage<Operation>();

  constructor(
    private readonly tracer: Tracer | undefined,
    private readonly instruments: Instruments | undefined,
  ) {}

  /** The operation whose request is being handled in this async context. */
  current(): Operation | undefined {
    return this.running.getStore();
  }

  private begin(
    request: JSONRPCRequest,
    extra: MessageExtraInfo | undefined,
    protocolVersion: string | undefined,
    known: KnownNames,
  ): Operation {
    const method = METHODS.has(request.method) ? request.method : OTHER;
    const params = request.params;
    const meta = params?._meta;
    const names = method === 'tools/call' ? known.tools : method === 'prompts/get' ? known.prompts : undefined;
    const target =
      names && typeof params?.name === 'string' ? (names.has(params.name) ? params.name : OTHER) : undefined;
    const metaVersion = meta?.[PROTOCOL_VERSION_META_KEY];
    const version =
      (typeof metaVersion === 'string' ? metaVersion : undefined) ??
      extra?.request?.headers.get('mcp-protocol-version') ??
      protocolVersion;
    const attributes: Attributes = {
      'mcp.method.name': method,
      'network.transport': extra?.request ? 'tcp' : 'pipe',
      ...(method === 'tools/call' && target !== undefined
        ? { 'gen_ai.tool.name': target, 'gen_ai.operation.name': 'execute_tool' }
        : {}),
      ...(method === 'prompts/get' && target !== undefined ? { 'gen_ai.prompt.name': target } : {}),
    };
    this.instruments?.inFlight.add(1, { 'mcp.method.name': method });
    let span: Span | undefined;
    let ctx = context.active();
    if (this.tracer) {
      const parent = parentContext(meta, extra);
      span = this.tracer.startSpan(
        target === undefined ? method : `${method} ${target}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            ...attributes,
            'jsonrpc.request.id': String(request.id),
            ...(version ? { 'mcp.protocol.version': version } : {}),
            ...(method === 'resources/read' && typeof params?.uri === 'string'
              ? { 'mcp.resource.uri': params.uri }
              : {}),
          },
        },
        parent,
      );
      ctx = trace.setSpan(parent, span);
    }
    return { id: request.id, method, span, context: ctx, started: performance.now(), attributes };
  }

  /** Ends `op` once: answered (with an error type when it failed), or cancelled. */
  private end(op: Operation, errorType: string | undefined, description?: string): void {
    const attributes = errorType === undefined ? op.attributes : { ...op.attributes, 'error.type': errorType };
    this.instruments?.inFlight.add(-1, { 'mcp.method.name': op.method });
    this.instruments?.operationDuration.record((performance.now() - op.started) / 1000, attributes);
    if (!op.span) return;
    if (errorType !== undefined) {
      op.span.setAttribute('error.type', errorType);
      op.span.setStatus({ code: SpanStatusCode.ERROR, ...(description ? { message: description } : {}) });
    }
    op.span.end();
  }

  /** The view of `transport` the server is given: what it hands on and sends passes through here. */
  follow(transport: Transport, known: KnownNames): Transport {
    const open = new Map<RequestId, Operation>();
    let protocolVersion: string | undefined;
    let deliver: Transport['onmessage'];
    let closed: Transport['onclose'];
    const end = (op: Operation, errorType: string | undefined, description?: string) => {
      open.delete(op.id);
      this.end(op, errorType, description);
    };
    const onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      if (isJSONRPCRequest(message)) {
        const asked = message.params?.protocolVersion;
        if (message.method === 'initialize' && typeof asked === 'string') protocolVersion = asked;
        const op = this.begin(message, extra, protocolVersion, known);
        open.set(message.id, op);
        this.running.run(op, () => context.with(op.context, () => deliver?.(message, extra)));
        return;
      }
      if (isSpecType.CancelledNotification(message)) {
        const op = message.params.requestId === undefined ? undefined : open.get(message.params.requestId);
        if (op) end(op, 'cancelled');
      }
      deliver?.(message, extra);
    };
    const close = () => {
      for (const op of open.values()) end(op, 'cancelled');
      closed?.();
    };
    const send: Transport['send'] = (message, options) => {
      const op = 'id' in message && message.id !== undefined ? open.get(message.id) : undefined;
      // Only its answer ends it: a request of the server's own may carry the same id.
      if (op && isJSONRPCResponse(message)) {
        if ('error' in message) end(op, String(message.error.code), message.error.message);
        else end(op, message.result.isError === true ? (op.record?.error?.kind ?? 'tool_error') : undefined);
      }
      return transport.send(message, options);
    };
    // The server sees the transport through this view, so the protocol layer's own onmessage and
    // onclose (which chain to what they find there) stay apart from ours, set on the transport.
    transport.onmessage = onmessage;
    transport.onclose = close;
    return new Proxy(transport, {
      get(target, key) {
        if (key === 'onmessage') return deliver;
        if (key === 'onclose') return closed;
        if (key === 'send') return send;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
      set(target, key, value) {
        if (key === 'onmessage') deliver = value as Transport['onmessage'];
        else if (key === 'onclose') closed = value as Transport['onclose'];
        else return Reflect.set(target, key, value, target);
        return true;
      },
    });
  }
}
