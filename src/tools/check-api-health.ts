import * as z from 'zod';
import type { ApiClient } from '../api/client.js';
import type { ApiResult } from '../api/answers.js';
import type { ShareState } from '../api/fair-share.js';
import { HealthResponseSchema, type HealthResponse } from '../contract/schemas.js';
import { ServerStateSchema, type ServerState } from '../contract/server-state.js';
import { failedHealthSide, renderHealth, renderServerState, serverTroubles } from '../render/health.js';
import { VERSION } from '../contract/version.js';
import type { HostedBridge } from '../hosted/bridge.js';
import { FIRST_LIST_WAIT_MS } from '../hosted/caps.js';
import { defineTool } from './define.js';
import { callsInFlight } from './calls-in-flight.js';

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** `value` without the members that have nothing to say. */
const defined = <T extends object>(value: T) =>
  Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;

/** The caller's own share, in counts: how many callers this process holds buckets for is not theirs to know. */
function fairShare({ rate, callers: _callers, ...counts }: ShareState): ServerState['fair_share'] {
  return { per_minute: rate.perMinute, burst: rate.burst, ...counts };
}

function serverState(client: ApiClient, bridge: HostedBridge | undefined, share: ShareState | undefined): ServerState {
  const state = client.state();
  return {
    version: VERSION,
    node: process.version,
    calls_in_flight: callsInFlight(),
    rate_limit: defined({
      cool_down_until: iso(state.coolDownUntil),
      last_429_at: iso(state.lastRateLimit?.at),
      last_retry_after_s: state.lastRateLimit?.retryAfterS,
    }),
    ...(state.catalog && {
      catalog: defined({
        checked: state.catalog.read,
        at: iso(state.catalog.at),
        from: state.catalog.read ? (state.catalog.kept ? ('earlier_run' as const) : ('api' as const)) : undefined,
        failure: state.catalog.failure || undefined,
      }),
    }),
    cache: {
      answers: state.answers,
      hits: state.cacheHits,
      ...(state.answers > 0 ? { hit_ratio: Math.round((state.cacheHits / state.answers) * 1000) / 1000 } : {}),
    },
    ...(state.redisConnected === undefined ? {} : { redis: { connected: state.redisConnected } }),
    bridge: bridge ? defined(bridge.status()) : { state: 'off', bridged: [], skipped: [] },
    ...(share ? { fair_share: fairShare(share) } : {}),
  };
}

type HealthResult = ApiResult<HealthResponse> & { server: ServerState };

export const checkApiHealth = defineTool({
  name: 'check_api_health',
  title: 'Check API health',
  operation: 'getHostedMcpHealth',
  description:
    'Is the API working (up or down), and is this server rate-limited (429, throttled, over a limit): why calls fail with errors or time out, what is wrong, status (ok or failing probes).',
  input: z.strictObject({}),
  example: {},
  data: HealthResponseSchema,
  call: async (_args, { client, bridge, ...options }): Promise<HealthResult> => {
    // Health says what the bridge found, so it gives the first hosted read the time a tools/list does.
    const [health] = await Promise.all([client.getHealth(options), bridge?.settled(FIRST_LIST_WAIT_MS)]);
    // The share is read after the health request, so it counts the share that request took.
    return { ...health, server: serverState(client, bridge, await client.shareOf(options.caller)) };
  },
  render: (data, _args, result) => {
    const { server } = result as HealthResult;
    return `${renderHealth(data, result.status, serverTroubles(server))}\n${renderServerState(server)}`;
  },
  // Most wanted when the API fails: the error says whose problem it is, and this server's state follows
  // (without the caller's fair share, which takes a read this synchronous note cannot wait for).
  failed: (kind, { client, bridge }) => {
    if (kind === 'cancelled') return undefined;
    const server = serverState(client, bridge, undefined);
    return { side: failedHealthSide(kind, serverTroubles(server)), more: renderServerState(server) };
  },
  extra: { key: 'server', schema: ServerStateSchema, build: (_data, result) => (result as HealthResult).server },
  // The generic hints send the reader here; from here they must point elsewhere.
  hints: {
    upstream_unavailable:
      'The health endpoint itself did not answer; try again in a minute, and if it keeps failing the API is down.',
    upstream_contract:
      'The health endpoint answered with something that is not the health response; discover_api shows what this base URL serves.',
  },
});
