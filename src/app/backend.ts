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
import type { Backend } from '../tools/backend.js';
import { TOOL_NAMES } from '../contract/tool-names.js';
import { toolSet } from '../tools/index.js';
import type { SharedListStore } from '../hosted/bridge.js';
import { hostedBridge } from './backend-bridge.js';
import { LocalBudget, type UpstreamBudget } from '../api/fair-share.js';

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

function loadDeployment(deployment: BackendOptions['deployment']): Promise<OfflineEngine> {
  if (!deployment) return Promise.reject(new Error('an offline backend needs its engine or a deployment to load'));
  return deployment();
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
  /**
   * Loads the offline deployment (its API and hosted surface, app/offline-deployment.ts) on first
   * use, when no `engine` is given and the config asks for the offline API.
   */
  deployment?: () => Promise<OfflineEngine>;
}

export function createBackend(
  config: Config,
  logger: Logger,
  { gate = new RetryAfterGate(), engine, store, hostedList, noBridge = false, budget, deployment }: BackendOptions = {},
): Backend {
  const offline = engine !== undefined || config.offline || config.baseUrl === undefined;
  const baseUrl = offline ? OFFLINE_BASE_URL : config.baseUrl!;
  let loaded: Promise<OfflineEngine> | undefined;
  const offlineEngine = () => (loaded ??= engine ? Promise.resolve(engine) : loadDeployment(deployment));
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
