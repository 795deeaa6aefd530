/**
 * The OpenTelemetry side of telemetry/hooks.ts, loaded only when traces or metrics were asked for
 * (telemetry/start.ts). Names follow the semantic conventions: the MCP server span
 * `{mcp.method.name} {target}` and the `mcp.server.operation.duration` histogram, the HTTP client
 * span and `http.client.request.duration`; what they do not name is prefixed `service_mcp.`.
 * Traces are OTLP over HTTP (OTEL_EXPORTER_OTLP_PROTOCOL: http/protobuf, the default, or
 * http/json); metrics are Prometheus text at GET /metrics on a listener of their own.
 * Over 250 lines: the tracing, metrics and hooks of one optional, lazily loaded dependency, kept
 * in one chunk that loads only when asked for.
 */
import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Histogram,
  type Meter,
  type Span,
  type Tracer,
  type UpDownCounter,
  type Counter,
} from '@opentelemetry/api';
import {
  PROTOCOL_VERSION_META_KEY,
  type JSONRPCMessage,
  type McpServer,
  type MessageExtraInfo,
  type RequestMethod,
  type Transport,
} from '@modelcontextprotocol/server';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from '../obs/log.js';
import { isRecord } from '../lib/is-record.js';
import { redactSecrets } from '../lib/redact.js';
import { VERSION } from '../contract/version.js';
import type { UpstreamExchange } from '../obs/exchanges.js';
import type { CallRecord } from '../obs/call-record.js';
import { CallerLabels } from './caller-labels.js';
import {
  installTelemetry,
  type KnownNames,
  type TelemetryHooks,
  type UpstreamRequest,
} from '../obs/telemetry-hooks.js';

/** The bucket boundaries, in seconds, the MCP semantic conventions recommend for operation durations. */
const DURATION_BUCKETS_S = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

export interface OpenTelemetryOptions {
  traces: boolean;
  metrics?: { host: string; port: number } | undefined;
  redisReady?: (() => boolean) | undefined;
  logger: Logger;
}

interface Instruments {
  operationDuration: Histogram;
  upstreamDuration: Histogram;
  inFlight: UpDownCounter;
  retryWaits: Counter;
  retryWaitSeconds: Counter;
  cacheHits: Counter;
  cacheMisses: Counter;
  fairShare: Counter;
}

async function resourceFor() {
  const { defaultResource, detectResources, envDetector, resourceFromAttributes } =
    await import('@opentelemetry/resources');
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) outrank our defaults.
  return defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'service-mcp', 'service.version': VERSION }))
    .merge(detectResources({ detectors: [envDetector] }));
}

interface Tracing {
  tracer: Tracer;
  /** Exports the spans still batched. */
  flush(): Promise<void>;
}

async function startTracing(resource: Awaited<ReturnType<typeof resourceFor>>): Promise<Tracing> {
  const [
    { AsyncLocalStorageContextManager },
    { BasicTracerProvider, BatchSpanProcessor },
    { W3CTraceContextPropagator },
  ] = await Promise.all([
    // CommonJS only: its exports are the module's default, as Node's import() gives them (and the bundle keeps).
    import('@opentelemetry/context-async-hooks').then((module) => module.default),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/core'),
  ]);
  const protocol = (
    process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ??
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL ??
    'http/protobuf'
  ).trim();
  const { OTLPTraceExporter } =
    protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return { tracer: trace.getTracer('service-mcp', VERSION), flush: () => provider.forceFlush() };
}

async function startMetrics(
  resource: Awaited<ReturnType<typeof resourceFor>>,
  where: { host: string; port: number },
  logger: Logger,
): Promise<Meter> {
  const [{ MeterProvider }, { PrometheusExporter }] = await Promise.all([
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-prometheus').then((module) => module.default), // CommonJS only, as above
  ]);
  const exporter = await new Promise<InstanceType<typeof PrometheusExporter>>((resolve, reject) => {
    const made: InstanceType<typeof PrometheusExporter> = new PrometheusExporter(
      { host: where.host, port: where.port },
      (error) => (error ? reject(error) : resolve(made)),
    );
  });
  logger.info(`metrics at http://${where.host.includes(':') ? `[${where.host}]` : where.host}:${where.port}/metrics`);
  return new MeterProvider({ resource, readers: [exporter] }).getMeter('service-mcp', VERSION);
}

function instrumentsOf(meter: Meter, redisReady: (() => boolean) | undefined): Instruments {
  if (redisReady) {
    meter
      .createObservableGauge('service_mcp.redis.up', {
        description: 'Whether the shared Redis (--redis-url) is connected and answering: 1 or 0',
      })
      .addCallback((result) => result.observe(redisReady() ? 1 : 0));
  }
  return {
    operationDuration: meter.createHistogram('mcp.server.operation.duration', {
      unit: 's',
      description: 'Duration of MCP requests as the server handled them',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
    }),
    upstreamDuration: meter.createHistogram('http.client.request.duration', {
      unit: 's',
      description: 'Duration of requests sent to the API (cache hits excluded), by operation and status',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS_S },
    }),
    inFlight: meter.createUpDownCounter('service_mcp.calls.in_flight', {
      description: 'MCP requests being handled right now',
    }),
    retryWaits: meter.createCounter('service_mcp.retry_after.waits', {
      description: 'Waits for a Retry-After cool-down before asking the API',
    }),
    retryWaitSeconds: meter.createCounter('service_mcp.retry_after.wait_seconds', {
      unit: 's',
      description: 'Seconds of Retry-After cool-down waited',
    }),
    cacheHits: meter.createCounter('service_mcp.cache.hits', {
      description: 'API requests answered by the response cache',
    }),
    cacheMisses: meter.createCounter('service_mcp.cache.misses', {
      description: 'API requests the response cache did not answer',
    }),
    fairShare: meter.createCounter('service_mcp.fair_share.requests', {
      description:
        "Requests about to be sent to the API, by caller (a token's name, an OAuth subject or a client address, never a token; past the first 100, _OTHER) and whether its share allowed them",
    }),
  };
}

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

type Meta = Record<string, unknown>;
const asRecord = (value: unknown): Meta | undefined => (isRecord(value) ? value : undefined);

/** The caller's trace: `params._meta.traceparent` first, else (over HTTP) the traceparent header. */
function parentContext(meta: Meta | undefined, extra: MessageExtraInfo | undefined): Context {
  const carrier: Record<string, string> = {};
  if (typeof meta?.traceparent === 'string') {
    carrier.traceparent = meta.traceparent;
    if (typeof meta.tracestate === 'string') carrier.tracestate = meta.tracestate;
  } else {
    const headers = extra?.request?.headers;
    const header = headers?.get('traceparent');
    if (header) {
      carrier.traceparent = header;
      const state = headers?.get('tracestate');
      if (state) carrier.tracestate = state;
    }
  }
  return carrier.traceparent ? propagation.extract(context.active(), carrier) : context.active();
}

interface Operation {
  span: Span | undefined;
  context: Context;
  started: number;
  attributes: Attributes;
  /** A tools/call's record, handed over by the MCP layer when the call ends (toolCallEnded). */
  record?: CallRecord;
}

function createHooks(tracing: Tracing | undefined, instruments: Instruments | undefined): TelemetryHooks {
  const tracer = tracing?.tracer;
  /** The operation a request's handler runs under, so the call's record finds its span. */
  const current = new AsyncLocalStorage<Operation>();
  const begin = (
    request: { id: string | number; method: string; params?: unknown },
    extra: MessageExtraInfo | undefined,
    protocolVersion: string | undefined,
    known: KnownNames,
  ): Operation => {
    const message = { ...request, method: METHODS.has(request.method) ? request.method : OTHER };
    const params = asRecord(message.params);
    const meta = asRecord(params?._meta);
    const names =
      message.method === 'tools/call' ? known.tools : message.method === 'prompts/get' ? known.prompts : undefined;
    const target =
      names && typeof params?.name === 'string' ? (names.has(params.name) ? params.name : OTHER) : undefined;
    const version =
      (typeof meta?.[PROTOCOL_VERSION_META_KEY] === 'string'
        ? (meta[PROTOCOL_VERSION_META_KEY] as string)
        : undefined) ??
      extra?.request?.headers.get('mcp-protocol-version') ??
      protocolVersion;
    // Low-cardinality attributes, shared by the span and the duration histogram.
    const attributes: Attributes = {
      'mcp.method.name': message.method,
      'network.transport': extra?.request ? 'tcp' : 'pipe',
      ...(message.method === 'tools/call' && target !== undefined
        ? { 'gen_ai.tool.name': target, 'gen_ai.operation.name': 'execute_tool' }
        : {}),
      ...(message.method === 'prompts/get' && target !== undefined ? { 'gen_ai.prompt.name': target } : {}),
    };
    instruments?.inFlight.add(1, { 'mcp.method.name': message.method });
    let span: Span | undefined;
    let ctx = context.active();
    if (tracer) {
      const parent = parentContext(meta, extra);
      span = tracer.startSpan(
        target === undefined ? message.method : `${message.method} ${target}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            ...attributes,
            'jsonrpc.request.id': String(message.id),
            ...(version ? { 'mcp.protocol.version': version } : {}),
            ...(message.method === 'resources/read' && typeof params?.uri === 'string'
              ? { 'mcp.resource.uri': params.uri }
              : {}),
          },
        },
        parent,
      );
      ctx = trace.setSpan(parent, span);
    }
    return { span, context: ctx, started: performance.now(), attributes };
  };

  const end = (op: Operation, method: string, errorType: string | undefined, description?: string) => {
    const attributes = errorType === undefined ? op.attributes : { ...op.attributes, 'error.type': errorType };
    instruments?.inFlight.add(-1, { 'mcp.method.name': method });
    instruments?.operationDuration.record((performance.now() - op.started) / 1000, attributes);
    if (op.span) {
      if (errorType !== undefined) {
        op.span.setAttribute('error.type', errorType);
        op.span.setStatus({ code: SpanStatusCode.ERROR, ...(description ? { message: description } : {}) });
      }
      op.span.end();
    }
  };

  /** Follows each request a transport hands the server, from its arrival to its answer. */
  const follow = (transport: Transport, known: KnownNames): Transport => {
    const open = new Map<string | number, { op: Operation; method: string }>();
    let protocolVersion: string | undefined;
    let deliver: Transport['onmessage'];
    let closed: Transport['onclose'];
    const onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
      const request = message as { id?: string | number; method?: string; params?: unknown };
      if (request.method === 'initialize')
        protocolVersion = asRecord(request.params)?.protocolVersion as string | undefined;
      if (request.method !== undefined && request.id !== undefined) {
        const op = begin(request as { id: string | number; method: string }, extra, protocolVersion, known);
        open.set(request.id, { op, method: op.attributes['mcp.method.name'] as string });
        current.run(op, () => context.with(op.context, () => deliver?.(message, extra)));
        return;
      }
      if (request.method === 'notifications/cancelled') {
        const id = asRecord(request.params)?.requestId as string | number | undefined;
        const entry = id === undefined ? undefined : open.get(id);
        if (entry) {
          open.delete(id!);
          end(entry.op, entry.method, 'cancelled');
        }
      }
      deliver?.(message, extra);
    };
    const close = () => {
      for (const { op, method } of open.values()) end(op, method, 'cancelled');
      open.clear();
      closed?.();
    };
    const send: Transport['send'] = (message, options) => {
      const answer = message as {
        id?: string | number;
        method?: string;
        result?: unknown;
        error?: { code?: number; message?: string };
      };
      const entry = answer.method === undefined && answer.id !== undefined ? open.get(answer.id) : undefined;
      if (entry) {
        open.delete(answer.id!);
        const result = asRecord(answer.result);
        if (answer.error) end(entry.op, entry.method, String(answer.error.code ?? 'error'), answer.error.message);
        else
          end(
            entry.op,
            entry.method,
            result?.isError === true ? (entry.op.record?.error?.kind ?? 'tool_error') : undefined,
          );
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
  };

  const callers = new CallerLabels();

  return {
    instrumentServer(mcp: McpServer, names: KnownNames) {
      const connect = mcp.connect.bind(mcp);
      mcp.connect = (transport) => connect(follow(transport, names));
    },
    flush: async () => {
      await tracing?.flush().catch(() => {});
    },
    upstream(url: string, operation: string, method = 'GET'): UpstreamRequest {
      const target = new URL(url);
      const started = performance.now();
      const common: Attributes = {
        'http.request.method': method,
        'server.address': target.hostname,
        ...(target.port ? { 'server.port': Number(target.port) } : {}),
        'service_mcp.operation': operation,
      };
      const span = tracer?.startSpan(
        method,
        { kind: SpanKind.CLIENT, attributes: { ...common, 'url.full': redactSecrets(url) } },
        context.active(),
      );
      return {
        ended({ status, cacheHit, failure }: UpstreamExchange) {
          const errorType = failure ?? (status !== undefined && status >= 400 ? String(status) : undefined);
          // A hit never left the process: it is counted as a hit, not as a request to the API; and a
          // request the caller's fair share refused was never sent at all.
          if (!cacheHit && failure !== 'fair_share')
            instruments?.upstreamDuration.record((performance.now() - started) / 1000, {
              ...common,
              ...(status === undefined ? {} : { 'http.response.status_code': status }),
              ...(errorType === undefined ? {} : { 'error.type': errorType }),
            });
          if (status !== undefined)
            (cacheHit ? instruments?.cacheHits : instruments?.cacheMisses)?.add(1, {
              'service_mcp.operation': operation,
            });
          if (span) {
            if (status !== undefined)
              span.setAttributes({ 'http.response.status_code': status, 'service_mcp.cache.hit': cacheHit });
            if (errorType !== undefined)
              span.setAttributes({ 'error.type': errorType }).setStatus({ code: SpanStatusCode.ERROR });
            span.end();
          }
        },
      };
    },
    fairShare(caller: string, allowed: boolean) {
      instruments?.fairShare.add(1, {
        'service_mcp.caller': callers.label(caller),
        'service_mcp.fair_share.outcome': allowed ? 'sent' : 'refused',
      });
    },
    toolCallEnded(record: CallRecord) {
      const op = current.getStore();
      if (op) op.record = record;
    },
    retryAfterWait(seconds: number) {
      instruments?.retryWaits.add(1);
      instruments?.retryWaitSeconds.add(seconds);
      trace.getActiveSpan()?.addEvent('service_mcp.retry_after.wait', { 'service_mcp.retry_after.seconds': seconds });
    },
    traceIds() {
      const span = trace.getActiveSpan();
      if (!span) return undefined;
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  };
}

export async function startOpenTelemetry({ traces, metrics, redisReady, logger }: OpenTelemetryOptions): Promise<void> {
  const resource = await resourceFor();
  const tracing = traces ? await startTracing(resource) : undefined;
  const meter = metrics ? await startMetrics(resource, metrics, logger) : undefined;
  installTelemetry(createHooks(tracing, meter ? instrumentsOf(meter, redisReady) : undefined));
}
