import { stripKind, type ErrorKind } from '../contract/errors.js';
import type { HealthResponse } from '../contract/schemas.js';
import type { ServerState } from '../contract/server-state.js';
import { describeAge } from '../lib/age-words.js';
import { datum } from '../lib/text.js';

/** Which side has the problem, when the API answered: the sentence that ends the first line. */
function side(apiOk: boolean, troubles: readonly string[]): string {
  if (troubles.length === 0)
    return apiOk ? 'No problem on either side.' : "The problem is the API's, not this server's.";
  const own = troubles.join('; ');
  return apiOk
    ? `The API is fine; the problem is this server's: ${own}.`
    : `The API is degraded, and this server has a problem too: ${own}.`;
}

/**
 * ok or degraded first, and which side has the problem (the API, this server, neither), then the
 * failing probes (a 503 health is a result, not an error). `troubles`: this server's own, in words.
 */
export function renderHealth(health: HealthResponse, httpStatus: number, troubles: readonly string[] = []): string {
  const failing = health.probes.filter((probe) => !probe.ok);
  const lines = [
    `API health: ${health.status.toUpperCase()} (HTTP ${httpStatus}); ${health.probes.length - failing.length} of ${health.probes.length} probes passing. ${side(health.status === 'ok' && failing.length === 0, troubles)}`,
  ];
  for (const probe of health.probes) {
    const details = [
      probe.status === undefined ? '' : `HTTP ${probe.status}`,
      probe.path ? datum(probe.path, 80) : '',
      probe.ms === undefined ? '' : `${probe.ms} ms`,
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`- ${probe.ok ? 'ok' : 'FAILING'}: ${datum(probe.name, 60)}${details ? ` (${details})` : ''}`);
  }
  if (health.mcp_endpoint)
    lines.push(
      placeholder(health.mcp_endpoint)
        ? 'Hosted MCP endpoint: in-process (the embedded offline API answers it; `service-mcp mock-api` serves it over HTTP)'
        : `Hosted MCP endpoint: ${datum(health.mcp_endpoint, 200)}`,
    );
  return lines.join('\n');
}

/** An address under `.invalid` (RFC 6761), which the embedded offline API answers at: no one can reach it. */
function placeholder(url: string): boolean {
  return URL.canParse(url) && new URL(url).hostname.endsWith('.invalid');
}

/** A hosted endpoint as shown: the offline one, answered in-process, is named as such, never by its placeholder address. */
export function shownEndpoint(url: string): string {
  return placeholder(url) ? "the embedded offline API's own hosted surface (in-process)" : datum(url, 200);
}

/** The renderer's view: a state without the bridge's part says nothing of it. */
type ServerStateView = Omit<ServerState, 'bridge'> & Partial<Pick<ServerState, 'bridge'>>;

/** Why the last read failed (its words fenced: they may quote the surface), when, and when it is read again. */
function failedRead(bridge: ServerState['bridge']): string {
  const kind = bridge.failure_kind;
  const failure = bridge.failure ?? 'unknown';
  const why = kind ? `${kind}: ${datum(stripKind(failure, kind), 300)}` : datum(failure, 300);
  const when = bridge.failed_at ? `, at ${bridge.failed_at} (${describeAge(bridge.failed_age_s ?? null)})` : '';
  const next = bridge.retrying
    ? '; a new read is under way'
    : bridge.next_read_at
      ? `; next read due at ${bridge.next_read_at} (at the first tools/list or health check from then)`
      : '';
  return `${why}${when}${next}`;
}

/** When, and by whom, the list offered was read: its age is that read's. */
function listRead({ list_from: from, read_at: at }: ServerState['bridge']): string {
  if (from === 'build') return "as this build read them (the offline surface's list is fixed for a build)";
  const by =
    from === 'earlier_run'
      ? " by an earlier run, kept in the user's cache directory"
      : from === 'replica'
        ? ' by another replica, shared through Redis'
        : '';
  return `read at ${at}${by}`;
}

/** The bridge to the hosted surface: what it offers, what it skipped and why, or why it offers nothing. */
function renderBridge(bridge: ServerState['bridge']): string[] {
  if (bridge.state === 'off')
    return ["- Hosted tools: not bridged (--no-bridge); only this server's own tools are offered."];
  const where = bridge.endpoint ? ` from ${shownEndpoint(bridge.endpoint)}` : '';
  const lines = [
    bridge.state === 'failed'
      ? `- Hosted tools: the hosted surface${where} could not be read: ${failedRead(bridge)}; our own tools are unaffected${bridge.bridged.length > 0 ? `, and the ${bridge.bridged.length} bridged before stay offered (${listRead(bridge)})` : ''}.`
      : bridge.state === 'ready'
        ? `- Hosted tools: ${bridge.bridged.length} bridged${where}${bridge.era ? ` (${bridge.era} era)` : ''}, ${listRead(bridge)}${bridge.bridged.length > 0 ? `: ${bridge.bridged.join(', ')}` : ''}.`
        : `- Hosted tools: the hosted list is ${bridge.state === 'reading' ? 'being read' : 'not read yet'}${where}.`,
  ];
  if (bridge.endpoint_note) lines.push(`  Endpoint: ${datum(bridge.endpoint_note, 200)}.`);
  // One line a reason: the seven our own tools shadow share theirs.
  const byReason = new Map<string, string[]>();
  for (const { name, reason } of bridge.skipped)
    byReason.set(reason, [...(byReason.get(reason) ?? []), datum(name, 80)]);
  for (const [reason, names] of byReason) lines.push(`  Skipped ${names.join(', ')}: ${reason}.`);
  return lines;
}

/**
 * What is wrong on this server's own side, in words for the first line; none when it is working. A
 * catalog that could not be read is not one: it failed for the API's reasons, said on its own line.
 */
export function serverTroubles(state: ServerStateView): string[] {
  return state.redis && !state.redis.connected ? ['Redis unreachable (this replica uses its own state)'] : [];
}

/** Whose problem a failed health call is, by its error kind: the words after the kind on the first line. */
const FAILED_SIDE: Partial<Record<ErrorKind, string>> = {
  network: 'the API did not answer (the problem is the API, or the way to it, not this server)',
  timeout: 'the API did not answer in time (the problem is the API, or the way to it, not this server)',
  upstream_unavailable: "the API's health endpoint failed (the problem is the API's, not this server's)",
  upstream_contract: "the API's health endpoint broke its contract (the problem is the API's, not this server's)",
  rate_limited: "the API is rate-limiting this server (the API's limit, not a fault here; this server waits as asked)",
  not_deployed: 'this deployment lists no health endpoint (nothing was sent; this server is working)',
  internal: "a defect of this server (service-mcp), not the API's",
};

/** The first words of a failed health call's error line: which side has the problem, and this server's own. */
export function failedHealthSide(kind: ErrorKind, troubles: readonly string[]): string {
  const said = FAILED_SIDE[kind] ?? 'the health call did not finish';
  return troubles.length === 0 ? said : `${said}; this server also has a problem: ${troubles.join('; ')}`;
}

/** This server's own side: what it holds back, what it last heard, what it answered from memory. */
export function renderServerState(state: ServerStateView): string {
  const { rate_limit: limit, catalog, cache, redis } = state;
  const coolDown = limit.cool_down_until
    ? `Retry-After cool-down running until ${limit.cool_down_until} (no request goes to the API before then)`
    : 'no Retry-After cool-down running';
  const last429 = limit.last_429_at
    ? `last 429 at ${limit.last_429_at} (Retry-After ${limit.last_retry_after_s} s)`
    : 'no 429 since start';
  const lines = [
    `This server (service-mcp ${state.version}, Node ${state.node}): ${state.calls_in_flight} tool call(s) in flight, this one included.`,
    `- Rate limit: ${coolDown}; ${last429}.`,
  ];
  if (catalog)
    lines.push(
      `- Deployed catalog: ${catalog.checked ? `checked${catalog.at ? ` at ${catalog.at}` : ''}${catalog.from === 'earlier_run' ? " by an earlier run, kept in the user's cache directory" : ''}` : 'not read yet'}${catalog.failure ? `; last read failed: ${catalog.failure}` : ''}.`,
    );
  lines.push(
    `- Cache: ${cache.hits} of ${cache.answers} API answers since start from the response cache${cache.hit_ratio === undefined ? '' : ` (hit ratio ${cache.hit_ratio})`}.`,
  );
  if (redis)
    lines.push(
      `- Redis (shared cool-down and cache): ${redis.connected ? 'connected' : 'unreachable; this replica uses its own state until it is back'}.`,
    );
  if (state.bridge) lines.push(...renderBridge(state.bridge));
  const share = state.fair_share;
  if (share)
    lines.push(
      `- Your share of requests to the API: ${share.left} of a burst of ${share.burst} left, refilled at ${share.per_minute} a minute (cache hits are free); this replica sent ${share.sent} and refused ${share.refused} for you since start${share.shared ? ' (the share is one across replicas, kept in Redis)' : ''}.`,
    );
  return lines.join('\n');
}
