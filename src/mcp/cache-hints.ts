/**
 * Cache hints (MCP 2026-07-28) for what this server answers the same to everyone. The tool,
 * prompt and resource lists are fixed for a build; an hour lets a client skip re-listing for a
 * whole conversation while a deployment of a new version still reaches it the same day.
 */
import type { CacheHint, ServerOptions } from '@modelcontextprotocol/server';
import type { HostedBridge } from '../hosted/bridge.js';

export const CATALOG_CACHE_HINT: CacheHint = { ttlMs: 60 * 60_000, cacheScope: 'public' };

const LIST_CACHE_HINTS: NonNullable<ServerOptions['cacheHints']> = {
  'tools/list': CATALOG_CACHE_HINT,
  'prompts/list': CATALOG_CACHE_HINT,
  'resources/list': CATALOG_CACHE_HINT,
  'resources/templates/list': CATALOG_CACHE_HINT,
  'server/discover': CATALOG_CACHE_HINT,
};

/**
 * With tools bridged from the hosted surface, tools/list holds until the hosted list is due to be
 * read again (LIST_TTL_MS after its read, LIST_RETRY_MS after a failed one): a stateless 2026-07-28
 * client that opened no subscription learns of a change by listing again once the hint runs out.
 * While a first (or overdue) read is under way it holds for nothing: ttlMs 0, list again; a 2025
 * client is told with notifications/tools/list_changed instead. The hint is read as each answer is
 * sent (a getter: stdio's one server outlives the state it was built in). Still the same for everyone.
 */
export function listCacheHints(bridge: HostedBridge | undefined): NonNullable<ServerOptions['cacheHints']> {
  if (!bridge) return LIST_CACHE_HINTS;
  const tools: CacheHint = {
    cacheScope: 'public',
    get ttlMs() {
      return bridge.holdsForMs();
    },
  };
  return { ...LIST_CACHE_HINTS, 'tools/list': tools };
}
