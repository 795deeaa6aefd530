/**
 * createServer: the one MCP server definition, built per connection (stdio) or per request (HTTP)
 * by the SDK's serving entries, and used by nothing else that speaks the protocol. Tools, prompts
 * and resources all go through McpServer's registries (tools: mcp/tools.ts); the views' `ui://`
 * documents are registered with ext-apps' registerAppResource (mcp/app-resources.ts).
 */
import { McpServer } from '@modelcontextprotocol/server';
import type { Backend } from './backend.js';
import { silentLogger, type Logger } from './log.js';
import { registerAppResources } from './mcp/app-resources.js';
import { LIST_CACHE_HINTS } from './mcp/cache-hints.js';
import { SERVER_CAPABILITIES, SERVER_INFO } from './mcp/capabilities.js';
import { instructionsFor } from './mcp/instructions.js';
import { PROMPT_NAMES, registerPrompts } from './mcp/prompts.js';
import { registerResources } from './mcp/resources.js';
import { registerTools } from './mcp/tools.js';
import { nameToolsOnUnknown } from './mcp/unknown-tool.js';
import { telemetry } from './telemetry/hooks.js';

export interface CreateServerOptions {
  backend: Backend;
  logger?: Logger;
  /**
   * Aborted when the process stops and its grace period is over: tool calls still running end at
   * once with an error result, so their clients get an answer before the process exits.
   */
  stopping?: AbortSignal;
  /** Who is calling (HTTP mode): tool calls go on this caller's share of upstream requests. */
  caller?: string | undefined;
}

export function createServer({ backend, logger = silentLogger, stopping, caller }: CreateServerOptions): McpServer {
  const { client, mode, tools } = backend;
  const mcp = new McpServer(SERVER_INFO, {
    capabilities: SERVER_CAPABILITIES,
    instructions: instructionsFor(mode, tools),
    cacheHints: LIST_CACHE_HINTS,
  });
  registerTools(mcp, backend, logger, stopping, caller);
  registerResources(mcp, client, mode);
  registerAppResources(mcp);
  registerPrompts(mcp, client, tools);
  const names = tools.map((tool) => tool.name);
  nameToolsOnUnknown(mcp, names);
  telemetry().instrumentServer(mcp, { tools: names, prompts: PROMPT_NAMES });
  return mcp;
}
