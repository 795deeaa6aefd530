/**
 * Builds the API client the configuration asks for: the hosted API through undici, or the
 * embedded offline API dispatched in-process. Both are loaded on first use, so start-up does no
 * I/O and loads neither undici nor the snapshot until a tool is called.
 *
 * The response cache (unless --no-cache) and the sharing of identical requests in flight sit on
 * the undici dispatcher (api/dispatcher.ts), so they serve the hosted API and mock-api. The
 * in-process offline API has neither: it answers from memory in microseconds, and a cache in
 * front of it would only hold a second copy of the snapshot.
 */
import { ApiClient } from '../api/client.js';
import type { FetchLike } from '../api/fetch-like.js';
import { RetryAfterGate } from '../api/retry-after-gate.js';
import type { CacheStore } from '../api/cache.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../obs/log.js';
import type { OfflineEngine } from '../offline/engine.js';
import { OFFLINE_BASE_URL } from '../offline/fetch.js';
import type { AnyTool, ExposedTool } from '../tools/define.js';
import { TOOL_NAMES, toolSet } from '../tools/index.js';
import type { Mode } from '../api/provenance-record.js';
import type { HostedBridge, SharedListStore } from '../hosted/bridge.js';
import { hostedBridge } from './backend-bridge.js';
import { LocalBudget, type UpstreamBudget } from '../api/fair-share.js';

export interface Backend {
  client: ApiClient;
  /** How the API is reached: embedded (in-process) or over HTTP from the base URL. */
  mode: Mode;
  /** Our own tools exposed over this client (`--tools`; all by default), chosen once per process. */
  tools: readonly AnyTool[];
  /** The names `--tools` asked for, bridged ones among them; undefined for all. */
  toolNames?: readonly string[] | undefined;
  /** The bridge to the deployment's hosted tools (src/hosted/), unless --no-bridge. */
  bridge?: HostedBridge | undefined;
  /** The origin requests go to (for offline mode, a placeholder that is never resolved). */
  baseUrl: string;
  /** With --redis-url: whether Redis is connected and answering right now. */
  redisReady?: (() => boolean) | undefined;
}

function lazyFetch(load: () => Promise<FetchLike>): FetchLike {
  let ready: Promise<FetchLike> | undefined;
  return async (url, init) => {
    ready ??= load();
    return (await ready)(url, init);
  };
}

async function loadOfflineFetch(engine: () => Promise<OfflineEngine>) {
  const { createOfflineFetch } = await import('../offline/fetch.js');
  return createOfflineFetch(engine());
}

/** The embedded offline deployment: its API, and its hosted market surface (market-surface.ts), in-process. */
async function loadOfflineDeployment(config: Config, logger: Logger): Promise<OfflineEngine> {
  const { createOfflineDeployment } = await import('./market-surface.js');
  return createOfflineDeployment(config, logger);
}

async function loadLiveFetch(
  config: Config,
  store: BackendOptions['store'],
  budget: UpstreamBudget | undefined,
): Promise<FetchLike> {
  const { createApiFetch } = await import('../api/dispatcher.js');
  return createApiFetch({ timeoutMs: config.timeoutMs, cache: config.cache, store, budget });
}

export interface BackendOptions {
  gate?: RetryAfterGate;
  /**
   * Serve this offline engine in-process (mock-api's MCP endpoint shares the engine, faults and all,
   * with its REST routes).
   */
  engine?: OfflineEngine;
  /** Where the response cache keeps entries, given the process's memory store (--redis-url). */
  store?: (memory: CacheStore) => CacheStore;
  /** Where the hosted tool list is shared with other replicas (--redis-url). */
  hostedList?: SharedListStore;
  /** No bridge, whatever the config says: the offline deployment's own surface is a server, never a bridge. */
  noBridge?: boolean;
  /** Each caller's share (--per-client-rate); the process's own buckets unless Redis shares them. */
  budget?: UpstreamBudget;
}

export function createBackend(
  config: Config,
  logger: Logger,
  { gate = new RetryAfterGate(), engine, store, hostedList, noBridge = false, budget }: BackendOptions = {},
): Backend {
  const offline = engine !== undefined || config.offline || config.baseUrl === undefined;
  const baseUrl = offline ? OFFLINE_BASE_URL : config.baseUrl!;
  let deployment: Promise<OfflineEngine> | undefined;
  const offlineEngine = () => (deployment ??= engine ? Promise.resolve(engine) : loadOfflineDeployment(config, logger));
  // The embedded API is answered in-process: no upstream, so no share to keep.
  const share = offline || !config.perClientRate ? undefined : (budget ?? new LocalBudget(config.perClientRate));
  const fetch = lazyFetch(offline ? () => loadOfflineFetch(offlineEngine) : () => loadLiveFetch(config, store, share));
  const client = new ApiClient({
    baseUrl,
    fetch,
    timeoutMs: config.timeoutMs,
    maxRetryWaitS: config.maxRetryWaitS,
    logger,
    gate,
    checkCatalog: true,
    budget: share,
  });
  const bridging = config.bridge && !noBridge;
  const bridge = bridging
    ? hostedBridge({
        config,
        logger,
        client,
        gate,
        baseUrl,
        offlineEngine: offline ? offlineEngine : undefined,
        hostedList,
        budget: share,
        ours: new Set(TOOL_NAMES),
      })
    : undefined;
  return {
    client,
    mode: offline ? 'embedded' : 'http',
    baseUrl,
    tools: toolSet(config.tools, { bridged: bridging }),
    toolNames: config.tools,
    bridge,
  };
}

/** Every tool a server offers now: ours, then the bridged ones (those `--tools` names, when it names any). */
export function exposedTools(backend: Backend): readonly ExposedTool[] {
  const bridged = backend.bridge?.tools() ?? [];
  const names = backend.toolNames;
  return [...backend.tools, ...(names ? bridged.filter((tool) => names.includes(tool.name)) : bridged)];
}

/**
 * The backend of a command that calls the API: with --redis-url, connected first to the shared
 * cool-down and cache (loaded only then). A wrong password fails here, before anything is served;
 * an unreachable Redis does not (state stays per process until it is back). A one-shot command
 * waits `redisWaitMs` at most for the first connection, since its one call is over long before.
 */
export async function startBackend(
  config: Config,
  logger: Logger,
  { redisWaitMs }: { redisWaitMs?: number } = {},
): Promise<Backend> {
  if (config.redisUrl === undefined) return createBackend(config, logger);
  const offline = config.offline || config.baseUrl === undefined;
  if (offline) {
    logger.warn(
      '--redis-url is ignored: the embedded offline API is answered in-process, with no rate limit or cache to share',
    );
    return createBackend(config, logger);
  }
  const { connectSharedState } = await import('../api/redis/index.js');
  const shared = await connectSharedState({
    url: config.redisUrl,
    apiOrigin: new URL(config.baseUrl!).origin,
    requestTimeoutMs: config.timeoutMs,
    logger,
    ...(redisWaitMs === undefined ? {} : { connectWaitMs: redisWaitMs }),
  });
  return {
    ...createBackend(config, logger, {
      gate: shared.gate,
      store: config.cache ? shared.cacheStore : undefined,
      hostedList: shared.hostedList,
      ...(config.perClientRate ? { budget: shared.budget(config.perClientRate) } : {}),
    }),
    redisReady: shared.ready,
  };
}
