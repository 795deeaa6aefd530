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
import { ApiClient } from './api/client.js';
import { RetryAfterGate, type FetchLike } from './api/http.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import type { OfflineEngine } from './offline/engine.js';
import { OFFLINE_BASE_URL } from './offline/fetch.js';
import type { Mode } from './tools/provenance.js';

export interface Backend {
  client: ApiClient;
  mode: Mode;
  /** The origin requests go to (for offline mode, a placeholder that is never resolved). */
  baseUrl: string;
}

function lazyFetch(load: () => Promise<FetchLike>): FetchLike {
  let ready: Promise<FetchLike> | undefined;
  return async (url, init) => {
    ready ??= load();
    return (await ready)(url, init);
  };
}

async function loadOfflineFetch(engine?: OfflineEngine): Promise<FetchLike> {
  const [{ createOfflineFetch }, { createOfflineEngine }] = await Promise.all([import('./offline/fetch.js'), import('./offline/engine.js')]);
  return createOfflineFetch(engine ?? createOfflineEngine());
}

async function loadLiveFetch(config: Config): Promise<FetchLike> {
  const { createApiFetch } = await import('./api/dispatcher.js');
  return createApiFetch({ timeoutMs: config.timeoutMs, cache: config.cache });
}

export interface BackendOptions {
  gate?: RetryAfterGate;
  /** Serve this offline engine in-process (mock-api's MCP endpoint shares the engine, faults and all, with its REST routes). */
  engine?: OfflineEngine;
}

export function createBackend(config: Config, logger: Logger, { gate = new RetryAfterGate(), engine }: BackendOptions = {}): Backend {
  const offline = engine !== undefined || config.offline || config.baseUrl === undefined;
  const baseUrl = offline ? OFFLINE_BASE_URL : config.baseUrl!;
  const fetch = lazyFetch(offline ? () => loadOfflineFetch(engine) : () => loadLiveFetch(config));
  const client = new ApiClient({ baseUrl, fetch, timeoutMs: config.timeoutMs, maxRetryWaitS: config.maxRetryWaitS, logger, gate, checkCatalog: true });
  return { client, mode: offline ? 'offline' : 'live', baseUrl };
}
