/**
 * Builds the API client the configuration asks for (the hosted API through undici, or the embedded
 * offline API in-process) and the bridge to the deployment's hosted surface, each loaded on first
 * use, so start-up does no I/O. The response cache and the sharing of identical requests in flight
 * sit on the undici dispatcher (api/dispatcher.ts); the in-process offline API has neither: it
 * answers from memory in microseconds, and a cache would only hold a second copy of the snapshot.
 * The bridge reads the endpoint health names when it is on the base URL's origin, else the base
 * URL's own hosted path, through undici for a live deployment and in-process for the offline one.
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
import { HostedBridge } from '../hosted/bridge.js';
import { listFile, type SharedListStore } from '../hosted/kept-list.js';
import { userCacheDir } from '../lib/cache-dir.js';
import { keptFile } from '../lib/kept-file.js';
import type { WebFetch } from '../hosted/guarded-fetch.js';
import { LocalBudget, type UpstreamBudget } from '../api/fair-share.js';
import { API_PREFIX } from '../contract/operations.js';
import { oneLine } from '../lib/text.js';

/** The spec's hosted tool endpoint, and the surface this server bridges. */
const HOSTED_SURFACE_PATH = `${API_PREFIX}/mcp?surface=market`;

declare const __SERVICE_MCP_OFFLINE_LIST__: unknown[] | undefined;

/**
 * The offline deployment's hosted list, read by the build (scripts/offline-list.ts) from the same
 * surface the bridge would read at run time: it is fixed for a build. Unbuilt, the bridge reads it.
 */
const BUILT_OFFLINE_LIST =
  typeof __SERVICE_MCP_OFFLINE_LIST__ === 'undefined' ? undefined : __SERVICE_MCP_OFFLINE_LIST__;

function lazyFetch(load: () => Promise<FetchLike>): FetchLike {
  let ready: Promise<FetchLike> | undefined;
  const loaded = () => (ready ??= load());
  const fetch: FetchLike = async (url, init) => (await loaded())(url, init);
  fetch.lastAnswer = async (url, init) => (await loaded()).lastAnswer?.(url, init);
  return fetch;
}

async function loadOfflineFetch(engine: () => Promise<OfflineEngine>) {
  const { createOfflineFetch } = await import('../offline/fetch.js');
  return createOfflineFetch(engine());
}

function loadDeployment(deployment: BackendOptions['deployment']): Promise<OfflineEngine> {
  if (!deployment) return Promise.reject(new Error('an offline backend needs its engine or a deployment to load'));
  return deployment();
}

async function loadHostedFetch(config: Config): Promise<WebFetch> {
  const { createHostedFetch } = await import('../api/dispatcher.js');
  return createHostedFetch({ timeoutMs: config.timeoutMs });
}

/** The endpoint health names, when it may be used; else the base URL's hosted path and why. */
async function endpointOf(client: ApiClient, baseUrl: string): Promise<{ url: string; note?: string }> {
  const fallback = `${baseUrl}${HOSTED_SURFACE_PATH}`;
  let named: string | undefined;
  try {
    named = (await client.getHealth({}, { unchecked: true })).data.mcp_endpoint;
  } catch (error) {
    return { url: fallback, note: `health could not be read (${oneLine(String((error as Error).message), 120)})` };
  }
  if (named === undefined || !URL.canParse(named)) return { url: fallback, note: 'health names no mcp_endpoint' };
  const url = new URL(named);
  // A health answer must not send the bridge, and the arguments it carries, to another host.
  if (url.origin !== new URL(baseUrl).origin)
    return { url: fallback, note: `health names an endpoint on another origin (${url.origin}), not used` };
  if (!url.searchParams.has('surface')) url.searchParams.set('surface', 'market');
  return { url: url.href };
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
  const offline = engine !== undefined || config.offline;
  const baseUrl = offline ? OFFLINE_BASE_URL : config.baseUrl!;
  let loaded: Promise<OfflineEngine> | undefined;
  const offlineEngine = () => (loaded ??= engine ? Promise.resolve(engine) : loadDeployment(deployment));
  // The embedded API is answered in-process: no upstream, so no share to keep.
  const share = offline || !config.perClientRate ? undefined : (budget ?? new LocalBudget(config.perClientRate));
  const fetch = lazyFetch(offline ? () => loadOfflineFetch(offlineEngine) : () => loadLiveFetch(config, store, share));
  // What an earlier run read of a live API is kept in the user's cache directory: the catalog and the hosted list.
  const cacheDir = offline ? undefined : userCacheDir('service-mcp');
  const client = new ApiClient({
    baseUrl,
    fetch,
    timeoutMs: config.timeoutMs,
    maxRetryWaitS: config.maxRetryWaitS,
    logger,
    gate,
    checkCatalog: true,
    keptCatalog:
      cacheDir === undefined
        ? undefined
        : keptFile(cacheDir, 'catalog', baseUrl, (message) => logger.debug(`deployed catalog ${message}`)),
    budget: share,
  });
  const bridging = config.bridge && !noBridge;
  const bridge = bridging
    ? new HostedBridge({
        endpoint: () => endpointOf(client, baseUrl),
        fetch: () => (offline ? loadOfflineFetch(offlineEngine) : loadHostedFetch(config)),
        gate,
        budget: share,
        timeoutMs: config.timeoutMs,
        maxRetryWaitS: config.maxRetryWaitS,
        // A hosted tool named as one of ours is never bridged.
        ours: new Set(TOOL_NAMES),
        logger,
        store: hostedList,
        // A deployment given as an engine may carry faults: its surface is read, not taken from the build.
        built: config.offline && engine === undefined ? BUILT_OFFLINE_LIST : undefined,
        file: cacheDir === undefined ? undefined : listFile(cacheDir, baseUrl, logger),
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
