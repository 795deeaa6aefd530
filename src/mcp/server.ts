/**
 * createServer: the one MCP server definition, built per connection (stdio) or per request (HTTP)
 * by the SDK's serving entries. Tools, prompts and resources all go through McpServer's registries;
 * the tools bridged from the deployment's hosted surface join ours when `bridged` (src/hosted/).
 */
import { McpServer, type AuthInfo, type McpServerFactory } from '@modelcontextprotocol/server';
import { exposedTools, type Backend } from '../tools/backend.js';
import { FIRST_LIST_WAIT_MS } from '../hosted/caps.js';
import { BRIDGE_HEADER } from '../hosted/guarded-fetch.js';
import { silentLogger, type Logger } from '../obs/log.js';
import { registerAppResources } from './app-resources.js';
import { listCacheHints } from './cache-hints.js';
import { capabilitiesFor, SERVER_INFO } from './capabilities.js';
import { instructionsFor } from './instructions.js';
import { PROMPT_NAMES, registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { registerTools, type CallScope } from './tools.js';
import { nameToolsOnUnknown } from './unknown-tool.js';
import { telemetry } from '../obs/telemetry-hooks.js';

export interface CreateServerOptions extends CallScope {
  backend: Backend;
  logger?: Logger;
  /** Offer the tools bridged from the deployment's hosted surface beside ours (when the backend has a bridge). */
  bridged?: boolean;
  /** Keep the bridged tools in step with the hosted list while connected (stdio's one long-lived server). */
  follow?: boolean;
  /** Tools of a surface of its own besides ours (the offline deployment's hosted market surface). */
  extend?: (mcp: McpServer) => void;
}

export function createServer({
  backend,
  logger = silentLogger,
  stopping,
  bridged = false,
  follow = false,
  extend,
  caller,
}: CreateServerOptions): McpServer {
  const { client, mode } = backend;
  const bridge = bridged ? backend.bridge : undefined;
  const tools = bridge ? exposedTools(backend) : backend.tools;
  const mcp = new McpServer(SERVER_INFO, {
    capabilities: capabilitiesFor(bridge !== undefined),
    instructions: instructionsFor(mode),
    cacheHints: listCacheHints(bridge),
  });
  // The names metric labels and the unknown-tool answer know: kept in step with the bridge's list.
  const names = new Set(tools.map((tool) => tool.name));
  registerTools(mcp, backend, tools, logger, { stopping, caller }, bridge && follow ? names : undefined);
  extend?.(mcp);
  registerResources(mcp, client, mode);
  registerAppResources(mcp);
  registerPrompts(mcp, client, backend.tools);
  nameToolsOnUnknown(mcp, names);
  telemetry().instrumentServer(mcp, { tools: names, prompts: PROMPT_NAMES });
  return mcp;
}

/** What a serving entry tells the factory about each request. */
export interface FactoryRules {
  /** Who is calling, from the SDK's pass-through `authInfo` (HTTP mode: transports/auth/caller.ts). */
  callerOf?: (auth: AuthInfo | undefined) => string | undefined;
}

/**
 * The factory the serving entries call. With a bridge, a server waits for the first hosted list at
 * most FIRST_LIST_WAIT_MS, then answers with whatever is known. A request from a bridge (ours, here
 * or elsewhere) gets no bridged tools and never waits: a deployment pointed at its own endpoint, or
 * two at each other, must not loop; the bridge finds only tools of ours there, and skips them.
 * Every call goes on the share of the caller `callerOf` names.
 */
export function serverFactory(
  options: Omit<CreateServerOptions, 'bridged' | 'caller'>,
  { callerOf }: FactoryRules = {},
): McpServerFactory {
  return async (ctx) => {
    const request = ctx.requestInfo;
    const fromBridge = request?.headers.has(BRIDGE_HEADER) === true;
    const bridged = !fromBridge && options.backend.bridge !== undefined;
    if (bridged) await options.backend.bridge!.settled(FIRST_LIST_WAIT_MS);
    return createServer({ ...options, bridged, caller: callerOf?.(ctx.authInfo) });
  };
}
