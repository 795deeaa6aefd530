/**
 * The server card: what a registry or client can learn without an MCP handshake (name, version,
 * description, where to connect, which tools). Shaped after the server-card draft (SEP-2127),
 * whose fields follow the MCP registry's server.json. Built from the package's own metadata and
 * the tool registry, so it cannot drift from what `tools/list` answers.
 */
// Only `description` is bundled: esbuild keeps the named top-level JSON members that are used.
import { description } from '../../package.json';
import { TOOLS } from '../tools/index.js';
import { PACKAGE_NAME, VERSION } from '../version.js';

export const SERVER_CARD_PATHS = ['/mcp/server-card', '/.well-known/mcp/server-card.json'] as const;

export interface ServerCard {
  name: string;
  version: string;
  description: string;
  remotes: Array<{ type: 'streamable-http'; url: string }>;
  tools: Array<{ name: string; title: string }>;
}

/** `mcpUrl` is the absolute URL of POST /mcp as the caller reached it. */
export function buildServerCard(mcpUrl: string): ServerCard {
  return {
    name: PACKAGE_NAME,
    version: VERSION,
    description,
    remotes: [{ type: 'streamable-http', url: mcpUrl }],
    tools: TOOLS.map((tool) => ({ name: tool.name, title: tool.title })),
  };
}
