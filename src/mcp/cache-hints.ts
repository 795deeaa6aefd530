/**
 * Cache hints (MCP 2026-07-28) for what this server answers the same to everyone. The tool,
 * prompt and resource lists are fixed for a build; an hour lets a client skip re-listing for a
 * whole conversation while a deployment of a new version still reaches it the same day.
 */
import type { CacheHint, ServerOptions } from '@modelcontextprotocol/server';

export const CATALOG_CACHE_HINT: CacheHint = { ttlMs: 60 * 60_000, cacheScope: 'public' };

export const LIST_CACHE_HINTS: NonNullable<ServerOptions['cacheHints']> = {
  'tools/list': CATALOG_CACHE_HINT,
  'prompts/list': CATALOG_CACHE_HINT,
  'resources/list': CATALOG_CACHE_HINT,
  'resources/templates/list': CATALOG_CACHE_HINT,
  'server/discover': CATALOG_CACHE_HINT,
};
