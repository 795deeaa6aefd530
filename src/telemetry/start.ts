/**
 * Whether telemetry was asked for, and starting it only then: traces on the standard OTel
 * variables (an OTLP endpoint set, OTEL_TRACES_EXPORTER not `none`), metrics on --metrics-port.
 * OpenTelemetry is imported here, lazily, and nowhere else; without either nothing of it loads.
 */
import type { Config } from '../config/config.js';
import type { Logger } from '../obs/log.js';

/** Traces are exported when an OTLP endpoint is set and the traces exporter is not turned off. */
export function tracesWanted(env: NodeJS.ProcessEnv): boolean {
  const endpoint =
    (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? '').trim() || (env.OTEL_EXPORTER_OTLP_ENDPOINT ?? '').trim();
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim().toLowerCase());
  return endpoint !== '' && !exporters.includes('none');
}

export interface TelemetryStart {
  config: Config;
  logger: Logger;
  /** Whether Redis answers, when --redis-url is set: shown as a gauge. */
  redisReady?: (() => boolean) | undefined;
  env?: NodeJS.ProcessEnv;
}

/** Starts what was asked for (nothing when nothing was); resolves once the metrics listener listens. */
export async function startTelemetry({ config, logger, redisReady, env = process.env }: TelemetryStart): Promise<void> {
  const traces = tracesWanted(env);
  if (!traces && config.metricsPort === undefined) return;
  const { startOpenTelemetry } = await import('./otel.js');
  await startOpenTelemetry({
    traces,
    metrics: config.metricsPort === undefined ? undefined : { host: config.metricsHost, port: config.metricsPort },
    redisReady,
    logger,
  });
}
