/**
 * What the commands share: how a command ends and what it says (exit 0 ok, 1 a tool error or a
 * defect, 2 bad usage), the arguments a command parses itself, and what each command assembles
 * before it runs (config and logger, backend, telemetry, who may call `serve --http`); a failure
 * the caller can fix is bad usage.
 */
import type { Command } from 'commander';
import { resolveConfig, type Config } from '../config/config.js';
import type { RawOptions } from '../config/options.js';
import { isRecord } from '../lib/is-record.js';
import { createLogger, type Logger } from '../obs/log.js';
import type { Backend } from '../tools/backend.js';

export const EXIT_OK = 0;
export const EXIT_TOOL_ERROR = 1;
export const EXIT_USAGE = 2;

export class UsageError extends Error {}

export function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65_535)
    throw new UsageError(`--port must be a whole number from 0 to 65535, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** A port taken, or an address this machine does not have or may not bind: the caller's to change. */
const BIND_ERRORS = new Set(['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL', 'ENOTFOUND']);
export const isBindError = (error: unknown) => BIND_ERRORS.has(String((error as NodeJS.ErrnoException).code));

export function parseJsonArgs(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `json-args is not valid JSON: ${(error as Error).message}. Example: '{"q":"rust","per_page":5}'`,
    );
  }
  if (!isRecord(value)) throw new UsageError('json-args must be a JSON object, e.g. \'{"job_id":"job_ai_0001"}\'');
  return value;
}

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
