/** An ApiClient wired to an offline engine in-process, with test-friendly retry settings. */
import { ApiClient, type ApiClientOptions } from '../../src/api/client.js';
import { RetryAfterGate } from '../../src/api/retry-after-gate.js';
import type { OfflineEngine } from '../../src/offline/engine.js';
import { createOfflineFetch, OFFLINE_BASE_URL } from '../../src/offline/fetch.js';

export function offlineClient(engine: OfflineEngine, options: Partial<ApiClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl: OFFLINE_BASE_URL,
    fetch: createOfflineFetch(engine),
    gate: new RetryAfterGate(),
    unavailableRetries: 0,
    random: () => 0,
    ...options,
  });
}

/** A GET straight to the engine, bypassing the client, to look at raw statuses and headers. */
export function get(engine: OfflineEngine, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return engine.handle(new Request(`${OFFLINE_BASE_URL}${path}`, { headers }));
}
