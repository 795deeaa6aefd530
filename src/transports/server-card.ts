/**
 * The server card: what a registry or client can learn without an MCP handshake (name, version,
 * description, where to connect, capabilities, which tools). Shaped after the server-card draft (SEP-2127),
 * which extends the MCP registry's server.json; so name, title and description are taken from
 * our server.json, the version from the package, and the tools from the registry, and the card
 * cannot drift from the registry entry or from what `tools/list` answers.
 */
// Only these members are bundled: esbuild keeps the named top-level JSON members that are used.
import { description, name } from '../../server.json';
import { SERVER_CAPABILITIES, SERVER_INFO } from '../mcp/capabilities.js';
import { TOOLS } from '../tools/index.js';

export const SERVER_CARD_PATHS = ['/mcp/server-card', '/.well-known/mcp/server-card.json'] as const;

export interface ServerCard {
  name: string;
  title: string;
  version: string;
  description: string;
  websiteUrl: string;
  icons: typeof SERVER_INFO.icons;
  remotes: Array<{ type: 'streamable-http'; url: string }>;
  capabilities: typeof SERVER_CAPABILITIES;
  tools: Array<{ name: string; title: string }>;
}

/** `mcpUrl` is the absolute URL of POST /mcp as the caller reached it. */
export function buildServerCard(mcpUrl: string): ServerCard {
  return {
    name,
    title: SERVER_INFO.title,
    version: SERVER_INFO.version,
    description,
    websiteUrl: SERVER_INFO.websiteUrl,
    icons: SERVER_INFO.icons,
    remotes: [{ type: 'streamable-http', url: mcpUrl }],
    capabilities: SERVER_CAPABILITIES,
    tools: TOOLS.map((tool) => ({ name: tool.name, title: tool.title })),
  };
}
