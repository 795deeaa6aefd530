/**
 * The backend each command runs on, assembled once: the offline deployment injected (loaded on
 * first use, app/offline-deployment.ts), and with --redis-url the state replicas share.
 */
import type { Config } from '../config/config.js';
import type { Logger } from '../obs/log.js';
import { checkToolNames, exposedTools, type Backend } from '../tools/backend.js';
import { createBackend, type BackendOptions } from './backend.js';
import { UsageError } from './command-parts.js';

/**
 * A backend that loads the offline deployment itself (its API and its hosted market surface,
 * in-process) when the config asks for the offline API.
 */
function assembleBackend(config: Config, logger: Logger, options: BackendOptions = {}): Backend {
  const deployment = () => import('./offline-deployment.js').then((m) => m.createOfflineDeployment(config, logger));
  return createBackend(config, logger, { deployment, ...options });
}

/**
 * The backend of a command that calls the API: with --redis-url, connected first to the shared
 * state. A wrong password, or a `--tools` name that is no tool, fails here, before anything is
 * served; an unreachable Redis does not (state stays per process until it is back). A one-shot
 * command waits `redisWaitMs` at most.
 */
export async function startBackend(
  config: Config,
  logger: Logger,
  options: { redisWaitMs?: number } = {},
): Promise<Backend> {
  const backend = await connectBackend(config, logger, options);
  // The hosted list gets as long as one request may take: the wait `call` and `tools` give it.
  await checkToolNames(backend, config.timeoutMs);
  return backend;
}

async function connectBackend(config: Config, logger: Logger, { redisWaitMs }: { redisWaitMs?: number }) {
  if (config.redisUrl === undefined) return assembleBackend(config, logger);
  if (config.offline) {
    logger.warn(
      '--redis-url is ignored: the embedded offline API is answered in-process, with no rate limit or cache to share',
    );
    return assembleBackend(config, logger);
  }
  const { connectSharedState } = await import('../api/redis/index.js');
  const shared = await connectSharedState({
    url: config.redisUrl,
    apiOrigin: new URL(config.baseUrl!).origin,
    requestTimeoutMs: config.timeoutMs,
    logger,
    ...(redisWaitMs === undefined ? {} : { connectWaitMs: redisWaitMs }),
  }).catch((error: unknown) => {
    // A refused login is reported as bad usage (exit 2), like any wrong option.
    throw (error as Error).name === 'RedisAuthError' ? new UsageError((error as Error).message) : error;
  });
  return {
    ...assembleBackend(config, logger, {
      gate: shared.gate,
      store: config.cache ? shared.cacheStore : undefined,
      hostedList: shared.hostedList,
      ...(config.perClientRate ? { budget: shared.budget(config.perClientRate) } : {}),
    }),
    redisReady: shared.ready,
  };
}

/**
 * The tools `tools` lists: ours, and with the bridge on, those bridged from the hosted surface, read
 * once (for as long as one request may take; a surface that does not answer leaves ours alone).
 */
export async function listedTools(config: Config, logger: Logger) {
  const backend = assembleBackend(config, logger);
  await checkToolNames(backend, config.timeoutMs);
  await backend.bridge?.settled(config.timeoutMs);
  return exposedTools(backend);
}
