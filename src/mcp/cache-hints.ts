/**
 * Cache hints (MCP 2026-07-28) for what this server answers the same to everyone. The tool,
 * prompt and resource lists are fixed for a build; an hour lets a client skip re-listing for a
 * whole conversation while a deployment of a new version still reaches it the same day.
 */
import type { CacheHint, ServerOptions } from '@modelcontextprotocol/server';
import { LIST_TTL_MS } from '../hosted/caps.js';

export const CATALOG_CACHE_HINT: CacheHint = { ttlMs: 60 * 60_000, cacheScope: 'public' };

const LIST_CACHE_HINTS: NonNullable<ServerOptions['cacheHints']> = {
  'tools/list': CATALOG_CACHE_HINT,
  'prompts/list': CATALOG_CACHE_HINT,
  'resources/list': CATALOG_CACHE_HINT,
  'resources/templates/list': CATALOG_CACHE_HINT,
  'server/discover': CATALOG_CACHE_HINT,
};

/**
 * With tools bridged from the hosted surface, tools/list holds for as long as the hosted list is
 * kept (LIST_TTL_MS): a stateless 2026-07-28 client that opened no subscription learns of a change
 * by listing again once the hint runs out. It is still the same answer for everyone.
 */
export function listCacheHints(bridged: boolean): NonNullable<ServerOptions['cacheHints']> {
  return bridged
    ? { ...LIST_CACHE_HINTS, 'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'public' } }
    : LIST_CACHE_HINTS;
}
