/**
 * The metrics: Prometheus text at GET /metrics on a listener of its own, and the instruments the
 * hooks record into. Names follow the semantic conventions where they name the thing
 * (`mcp.server.operation.duration`, `http.client.request.duration`); the rest are `service_mcp.`.
 */
import type { Meter } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { Logger } from '../obs/log.js';
import { VERSION } from '../contract/version.js';
import { bracketed } from '../lib/http-server.js';

/** The bucket boundaries, in seconds, the MCP semantic conventions recommend for operation durations. */
const DURATION_BUCKETS_S = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

export async function startMetrics(
  resource: Resource,
  where: { host: string; port: number },
  logger: Logger,
): Promise<Meter> {
  const [{ MeterProvider }, { PrometheusExporter }] = await Promise.all([
    import('@opentelemetry/sdk-metrics'),
    import('@opentelemetry/exporter-prometheus').then((module) => module.default), // CommonJS only, as in traces.ts
  ]);
  const exporter = await new Promise<InstanceType<typeof PrometheusExporter>>((resolve, reject) => {
    const made: InstanceType<typeof PrometheusExporter> = new PrometheusExporter(
      { host: where.host, port: where.port },
      (error) => (error ? reject(error) : resolve(made)),
    );
  });
  logger.info(`metrics at http://${bracketed(where.host)}:${where.port}/metrics`);
  return new MeterProvider({ resource, readers: [exporter] }).getMeter('service-mcp', VERSION);
}

export type Instruments = ReturnType<typeof instrumentsOf>;

export function instrumentsOf(meter: Meter, redisReady: (() => boolean) | undefined) {
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
 * The caller label of the fair-share counter: a static token's name comes from the operator's
 * list, but an OAuth subject or a client address is whatever arrives. The first MAX_CALLERS seen
 * keep their own series; any later one is counted as `_OTHER`, so that a stream of new subjects
 * or addresses cannot grow `/metrics` without end.
 */
export const MAX_CALLERS = 100;

export class CallerLabels {
  private readonly seen = new Set<string>();

  constructor(private readonly max = MAX_CALLERS) {}

  label(caller: string): string {
    if (this.seen.has(caller)) return caller;
    if (this.seen.size >= this.max) return '_OTHER';
    this.seen.add(caller);
    return caller;
  }
}
