/**
 * The server card: what a registry or client can learn without an MCP handshake (name, version,
 * description, where to connect, capabilities, which tools). Shaped after the server-card draft (SEP-2127),
 * which extends the MCP registry's server.json; so name, title and description are taken from
 * our server.json, the version from the package, and the tools from the registry, and the card
 * cannot drift from the registry entry or from what `tools/list` answers.
 */
// Only these members are bundled: esbuild keeps the named top-level JSON members that are used.
import { description, name } from '../../server.json';
import { capabilitiesFor, SERVER_INFO } from '../mcp/capabilities.js';
import { isHostedTool, type ExposedTool } from '../tools/define.js';
import { TOOLS } from '../tools/index.js';
import { HOSTED_MCP_PATH, SURFACE } from './mcp-endpoint.js';

export const SERVER_CARD_PATHS = ['/mcp/server-card', '/.well-known/mcp/server-card.json'] as const;

/**
 * `origin` is this server's as the caller reached it. Both MCP addresses are listed: /mcp, and
 * the hosted service's path, so a client configured for the hosted service can switch by origin.
 * `tools` are those both offer now: ours, and any bridged from the deployment's hosted surface.
 */
export function buildServerCard(origin: string, tools: readonly ExposedTool[] = TOOLS) {
  return {
    name,
    title: SERVER_INFO.title,
    version: SERVER_INFO.version,
    description,
    websiteUrl: SERVER_INFO.websiteUrl,
    icons: SERVER_INFO.icons,
    remotes: [`${origin}/mcp`, `${origin}${HOSTED_MCP_PATH}?surface=${SURFACE}`].map((url) => ({
      type: 'streamable-http' as const,
      url,
    })),
    capabilities: capabilitiesFor(tools.some(isHostedTool)),
    tools: tools.map((tool) => ({ name: tool.name, title: tool.title })),
  };
}
