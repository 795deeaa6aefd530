/**
 * What each command assembles before it runs: its config and logger, the backend (with Redis when
 * asked for), telemetry, and for `serve --http` who may call; a failure the caller can fix is bad usage.
 */
import type { Command } from 'commander';
import { resolveConfig, type Config } from '../config/config.js';
import type { RawOptions } from '../config/options.js';
import { createLogger, type Logger } from '../obs/log.js';
import type { Backend } from '../tools/backend.js';
import { isBindError, UsageError } from './usage.js';

/** How long `call` waits for a first Redis connection before calling on local state. */
export const ONE_CALL_REDIS_WAIT_MS = 250;

export function configFrom(command: Command): { config: Config; logger: Logger } {
  const config = resolveConfig(command.optsWithGlobals() as RawOptions);
  return { config, logger: createLogger(config.logLevel, undefined, config.logFormat) };
}

/** Traces and metrics when asked for (nothing is loaded otherwise); a metrics port taken is bad usage. */
export async function telemetryFor(config: Config, logger: Logger, backend: Backend): Promise<void> {
  const { startTelemetry } = await import('../telemetry/start.js');
  try {
    await startTelemetry({ config, logger, redisReady: backend.redisReady });
  } catch (error) {
    if (isBindError(error))
      throw new UsageError(
        `--metrics-port: cannot listen on ${config.metricsHost}:${config.metricsPort}: ${(error as Error).message}`,
      );
    throw error;
  }
}

/**
 * The tools `tools` lists: ours, and with the bridge on, those bridged from the hosted surface, read
 * once (for as long as one request may take; a surface that does not answer leaves ours alone).
 */
export async function listedTools(config: Config, logger: Logger) {
  const [{ assembleBackend }, { exposedTools }] = await Promise.all([
    import('./start-backend.js'),
    import('../tools/backend.js'),
  ]);
  const backend = assembleBackend(config, logger);
  await backend.bridge?.settled(config.timeoutMs);
  return exposedTools(backend);
}

/** Who may call `serve --http`; a tokens file that cannot be used is bad usage (exit 2), before anything listens. */
export async function authGateFor(
  create: typeof import('../transports/auth/gate.js').createAuthGate,
  config: Config,
  logger: Logger,
) {
  if (config.perClientRate && config.offline && !config.authTokensFile && !config.authIssuer)
    logger.warn(
      '--per-client-rate is ignored: the embedded offline API is answered in-process, with no upstream to share',
    );
  try {
    return await create(
      {
        tokensFile: config.authTokensFile,
        oauth:
          config.authIssuer && config.authAudience
            ? { issuer: config.authIssuer, audience: config.authAudience, scopes: config.authScopes }
            : undefined,
        byAddress: config.perClientRate !== undefined,
      },
      logger,
    );
  } catch (error) {
    if ((error as Error).name === 'TokensFileError')
      throw new UsageError(`--auth-tokens-file: ${(error as Error).message}`);
    throw error;
  }
}
