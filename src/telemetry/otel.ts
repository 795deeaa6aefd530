/**
 * The OpenTelemetry side of obs/telemetry-hooks.ts, loaded only when traces or metrics were asked
 * for (telemetry/start.ts): traces (traces.ts) and metrics (metrics.ts) started as asked, each MCP
 * request followed on its server's transport (requests.ts), and the hooks the API client and the
 * Retry-After gate call. The HTTP client span and `http.client.request.duration` follow the
 * semantic conventions; what they do not name is prefixed `service_mcp.`.
 */
import { context, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Logger } from '../obs/log.js';
import { redactSecrets } from '../lib/redact.js';
import { VERSION } from '../contract/version.js';
import type { CallRecord, UpstreamExchange } from '../obs/call-record.js';
import { CallerLabels, instrumentsOf, startMetrics, type Instruments } from './metrics.js';
import { Operations } from './requests.js';
import { startTracing, type Tracing } from './traces.js';
import {
  installTelemetry,
  type KnownNames,
  type TelemetryHooks,
  type UpstreamRequest,
} from '../obs/telemetry-hooks.js';

export interface OpenTelemetryOptions {
  traces: boolean;
  metrics?: { host: string; port: number } | undefined;
  redisReady?: (() => boolean) | undefined;
  logger: Logger;
}

async function resourceFor() {
  const { defaultResource, detectResources, envDetector, resourceFromAttributes } =
    await import('@opentelemetry/resources');
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (envDetector) outrank our defaults.
  return defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'service-mcp', 'service.version': VERSION }))
    .merge(detectResources({ detectors: [envDetector] }));
}

function createHooks(tracing: Tracing | undefined, instruments: Instruments | undefined): TelemetryHooks {
  const tracer = tracing?.tracer;
  const operations = new Operations(tracer, instruments);
  const callers = new CallerLabels();

  return {
    instrumentServer(mcp: McpServer, names: KnownNames) {
      const connect = mcp.connect.bind(mcp);
      mcp.connect = (transport) => connect(operations.follow(transport, names));
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
      const op = operations.current();
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
