/**
 * Whether the client asking renders MCP Apps views. The extension's spec says servers SHOULD check
 * the client's capabilities before offering UI-enabled tools, and the contract promises a client
 * without it the catalog it always had; so a view is linked only for a client that advertises
 * `io.modelcontextprotocol/ui` with the MCP Apps HTML type.
 */
import { getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities, type Server, type ServerContext } from '@modelcontextprotocol/server';

export function clientRendersViews(ctx: ServerContext, server: Server): boolean {
  // A 2026-07-28 request carries the capabilities in its own envelope. A 2025-era connection
  // declared them once, in initialize, and the (deprecated) accessor is where that era keeps them;
  // a stateless 2025-era HTTP request never saw an initialize, so it reads as "no views".
  // The published RequestMetaEnvelope type lost its keys (it reads `{}`), hence the record view.
  const envelope: Record<string, unknown> | undefined = ctx.mcpReq.envelope;
  const capabilities = (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
  return getUiCapability(capabilities)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}
