/**
 * The bridge a backend gets: which endpoint it reads (the health response's mcp_endpoint when it is
 * on the base URL's origin, else the base URL's own hosted path), and what it sends through: the
 * undici agent (proxies, caps) for a live deployment, the embedded offline API in-process for the
 * offline one, so offline needs no socket at all.
 */
import type { ApiClient } from '../api/client.js';
import { API_PREFIX } from '../contract/operations.js';
import type { UpstreamBudget } from '../api/fair-share.js';
import type { RetryAfterGate } from '../api/retry-after-gate.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../obs/log.js';
import type { OfflineEngine } from '../offline/engine.js';
import { oneLine } from '../lib/text.js';
import { HostedBridge, type SharedListStore } from '../hosted/bridge.js';
import type { WebFetch } from '../hosted/guarded-fetch.js';

/** The spec's hosted tool endpoint, and the surface this server bridges. */
const HOSTED_SURFACE_PATH = `${API_PREFIX}/mcp?surface=market`;

interface BridgeInputs {
  config: Config;
  logger: Logger;
  client: ApiClient;
  gate: RetryAfterGate;
  baseUrl: string;
  /** The offline deployment, when the backend answers from it. */
  offlineEngine: (() => Promise<OfflineEngine>) | undefined;
  hostedList: SharedListStore | undefined;
  /** Each caller's share of upstream requests (--per-client-rate), the one the REST client's requests take from. */
  budget: UpstreamBudget | undefined;
  /** Our own tool names: a hosted tool of the same name is never bridged. */
  ours: ReadonlySet<string>;
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

async function liveFetch(config: Config): Promise<WebFetch> {
  const { createHostedFetch } = await import('../api/dispatcher.js');
  return createHostedFetch({ timeoutMs: config.timeoutMs });
}

async function offlineFetch(engine: () => Promise<OfflineEngine>): Promise<WebFetch> {
  const { createOfflineFetch } = await import('../offline/fetch.js');
  return createOfflineFetch(engine());
}

export function hostedBridge(inputs: BridgeInputs): HostedBridge {
  const { config, logger, client, gate, baseUrl, offlineEngine, hostedList, budget, ours } = inputs;
  return new HostedBridge({
    endpoint: () => endpointOf(client, baseUrl),
    fetch: () => (offlineEngine ? offlineFetch(offlineEngine) : liveFetch(config)),
    gate,
    budget,
    timeoutMs: config.timeoutMs,
    maxRetryWaitS: config.maxRetryWaitS,
    ours,
    logger,
    store: hostedList,
  });
}
