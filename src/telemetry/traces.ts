/**
 * The traces: OTLP over HTTP (OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf, the default, or
 * http/json), batched, with the W3C trace context propagated.
 */
import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import { VERSION } from '../contract/version.js';

export interface Tracing {
  tracer: Tracer;
  /** Exports the spans still batched. */
  flush(): Promise<void>;
}

export async function startTracing(resource: Resource): Promise<Tracing> {
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
