import * as z from 'zod';
import type { ApiClient } from '../api/client.js';
import type { ApiResult } from '../api/result.js';
import type { ShareState } from '../api/fair-share.js';
import { HealthResponseSchema, type HealthResponse } from '../contract/schemas.js';
import { failedHealthSide, renderHealth, renderServerState, serverTroubles } from '../render/health.js';
import { VERSION } from '../contract/version.js';
import type { HostedBridge } from '../hosted/bridge.js';
import { FIRST_LIST_WAIT_MS } from '../hosted/caps.js';
import { defineTool } from './define.js';
import { callsInFlight } from './calls-in-flight.js';

/** What this server knows of itself besides the API's answer: times in ISO 8601, never a secret. */
const ServerStateSchema = z.object({
  version: z.string(),
  node: z.string(),
  calls_in_flight: z.number().int(),
  rate_limit: z.object({
    cool_down_until: z.string().optional(),
    last_429_at: z.string().optional(),
    last_retry_after_s: z.number().optional(),
  }),
  catalog: z.object({ checked: z.boolean(), at: z.string().optional(), failure: z.string().optional() }).optional(),
  cache: z.object({ answers: z.number().int(), hits: z.number().int(), hit_ratio: z.number().optional() }),
  redis: z.object({ connected: z.boolean() }).optional(),
  bridge: z
    .object({
      state: z.enum(['off', 'not_read', 'reading', 'ready', 'failed']),
      endpoint: z.string().optional(),
      endpoint_note: z.string().optional(),
      era: z.string().optional(),
      read_at: z.string().optional(),
      failure: z.string().optional(),
      bridged: z.array(z.string()),
      skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
    })
    .describe("The tools bridged from the deployment's hosted market surface, and those skipped with the reason"),
  /** The calling client's own share (HTTP mode with --per-client-rate): counts, never a token or another caller. */
  fair_share: z
    .object({
      per_minute: z.number(),
      burst: z.number().int(),
      left: z.number().int(),
      sent: z.number().int(),
      refused: z.number().int(),
      shared: z.boolean(),
    })
    .optional(),
});
type ServerState = z.infer<typeof ServerStateSchema>;

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** The bridge's side, with no member that has nothing to say. */
function bridgeState(bridge: HostedBridge | undefined): ServerState['bridge'] {
  if (!bridge) return { state: 'off', bridged: [], skipped: [] };
  const status = bridge.status();
  return Object.fromEntries(Object.entries(status).filter(([, value]) => value !== undefined)) as ServerState['bridge'];
}

function serverState(client: ApiClient, bridge: HostedBridge | undefined, share: ShareState | undefined): ServerState {
  const state = client.state();
  return {
    version: VERSION,
    node: process.version,
    calls_in_flight: callsInFlight(),
    rate_limit: {
      ...(state.coolDownUntil === undefined ? {} : { cool_down_until: iso(state.coolDownUntil) }),
      ...(state.lastRateLimit
        ? { last_429_at: iso(state.lastRateLimit.at), last_retry_after_s: state.lastRateLimit.retryAfterS }
        : {}),
    },
    ...(state.catalog
      ? {
          catalog: {
            checked: state.catalog.read,
            ...(state.catalog.at === undefined ? {} : { at: iso(state.catalog.at) }),
            ...(state.catalog.failure ? { failure: state.catalog.failure } : {}),
          },
        }
      : {}),
    cache: {
      answers: state.answers,
      hits: state.cacheHits,
      ...(state.answers > 0 ? { hit_ratio: Math.round((state.cacheHits / state.answers) * 1000) / 1000 } : {}),
    },
    ...(state.redisConnected === undefined ? {} : { redis: { connected: state.redisConnected } }),
    bridge: bridgeState(bridge),
    ...(share
      ? {
          fair_share: {
            per_minute: share.rate.perMinute,
            burst: share.rate.burst,
            left: share.left,
            sent: share.sent,
            refused: share.refused,
            shared: share.shared,
          },
        }
      : {}),
  };
}

type HealthResult = ApiResult<HealthResponse> & { server: ServerState };

export const checkApiHealth = defineTool({
  name: 'check_api_health',
  title: 'Check API health',
  operation: 'getHostedMcpHealth',
  description:
    "API health (ok, or failing probes) and this server's cool-down, last 429 and cache. Use after upstream errors.",
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
