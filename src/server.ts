/**
 * createServer: the one MCP server definition, built per connection (stdio) or per request (HTTP)
 * by the SDK's serving entries, and used by nothing else that speaks the protocol.
 *
 * Prompts and resources go through McpServer's registries. Tools are answered on its protocol
 * layer (`server.server`, the SDK's documented per-method escape hatch) from our own registry,
 * because the contract asks for what McpServer words differently: an unknown tool is a protocol
 * error that names the tools, and a bad argument is an `invalid_argument` result naming the
 * argument, with a hint, from the one boundary every surface shares (tools/run.ts). The JSON
 * Schemas are converted once per process (tools/catalog.ts), not once per HTTP request.
 *
 * For the same reason ext-apps' registerAppTool (a wrapper of McpServer.registerTool) cannot link
 * our tools to their MCP Apps views: the catalog writes the link itself, with ext-apps' constants,
 * and only for a client that renders views (mcp/ui-capability.ts). The views' `ui://` documents
 * are McpServer resources, registered with ext-apps' registerAppResource (mcp/app-resources.ts).
 */
import { McpServer, ProtocolError, ProtocolErrorCode, type LoggingLevel, type ServerContext } from '@modelcontextprotocol/server';
import type { GateWaitInfo } from './api/http.js';
import type { Backend } from './backend.js';
import type { LogLevel } from './config.js';
import { silentLogger, type Logger, type LogSink } from './log.js';
import { registerAppResources } from './mcp/app-resources.js';
import { LIST_CACHE_HINTS } from './mcp/cache-hints.js';
import { SERVER_CAPABILITIES, SERVER_INFO } from './mcp/capabilities.js';
import { instructionsFor } from './mcp/instructions.js';
import { registerPrompts } from './mcp/prompts.js';
import { registerResources } from './mcp/resources.js';
import { clientRendersViews } from './mcp/ui-capability.js';
import { toolCatalog } from './tools/catalog.js';
import { findTool, TOOLS } from './tools/index.js';
import { errorResult, runTool } from './tools/run.js';
import { PACKAGE_NAME } from './version.js';

export interface CreateServerOptions {
  backend: Backend;
  logger?: Logger;
  /**
   * Aborted when the process stops and its grace period is over: tool calls still running end at
   * once with an error result, so their clients get an answer before the process exits.
   */
  stopping?: AbortSignal;
}

/** The call's signal, also aborted by `stopping`; `release` drops the listeners when the call ends. */
function callSignal(request: AbortSignal, stopping: AbortSignal | undefined): { signal: AbortSignal; release(): void } {
  if (!stopping) return { signal: request, release: () => {} };
  const own = new AbortController();
  const fromRequest = () => own.abort(request.reason);
  const fromStopping = () => own.abort(stopping.reason);
  if (request.aborted) fromRequest();
  else if (stopping.aborted) fromStopping();
  request.addEventListener('abort', fromRequest, { once: true });
  stopping.addEventListener('abort', fromStopping, { once: true });
  return {
    signal: own.signal,
    release: () => {
      request.removeEventListener('abort', fromRequest);
      stopping.removeEventListener('abort', fromStopping);
    },
  };
}

const STOPPED_HINT = 'Nothing was wrong with the call; send it again once the server (or another replica) is serving.';

type ProgressToken = string | number;

/** Reports a Retry-After wait as progress, one notification a second, until the call ends. */
function progressReporter(token: ProgressToken | undefined, ctx: ServerContext) {
  let timer: NodeJS.Timeout | undefined;
  let progress = 0;
  const send = (total: number, message: string) =>
    ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token!, progress, total, message } }).catch(() => {});
  return {
    onWait:
      token === undefined
        ? undefined
        : (info: GateWaitInfo) => {
            clearInterval(timer);
            let left = info.seconds;
            const total = progress + info.seconds;
            void send(total, `rate limited: waiting ${left} s (Retry-After) before asking the API again`);
            timer = setInterval(() => {
              progress++;
              left--;
              if (left <= 0) clearInterval(timer);
              void send(total, `rate limited: ${Math.max(0, left)} s left`);
            }, 1_000);
            timer.unref();
          },
    stop: () => clearInterval(timer),
  };
}

const MCP_LEVEL: Record<LogLevel, LoggingLevel> = { error: 'error', warn: 'warning', info: 'info', debug: 'debug' };

/**
 * Lines logged while serving a call reach that call's client, tied to its request, and only as the
 * revision allows: the SDK sends them on 2026-07-28 only when the request named a log level, and
 * in the 2025 era after the client's logging/setLevel.
 */
const sinkFor =
  (ctx: ServerContext): LogSink =>
  (level, message) =>
    void ctx.mcpReq.log(MCP_LEVEL[level], message, PACKAGE_NAME).catch(() => {});

export function createServer({ backend, logger = silentLogger, stopping }: CreateServerOptions): McpServer {
  const { client, mode } = backend;
  // Tools are declared here and answered below; declared to McpServer, it would install its own.
  const { tools, ...registered } = SERVER_CAPABILITIES;
  const mcp = new McpServer(SERVER_INFO, { capabilities: registered, instructions: instructionsFor(mode), cacheHints: LIST_CACHE_HINTS });
  mcp.server.registerCapabilities({ tools });

  mcp.server.setRequestHandler('tools/list', (_request, ctx) => ({ tools: toolCatalog({ views: clientRendersViews(ctx, mcp.server) }) }));
  mcp.server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args } = request.params;
    const tool = findTool(name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(name)}. Tools: ${TOOLS.map((t) => t.name).join(', ')}`);
    const logSink = sinkFor(ctx);
    const progress = progressReporter(request.params._meta?.progressToken, ctx);
    const { signal, release } = callSignal(ctx.mcpReq.signal, stopping);
    try {
      const result = await runTool(tool, args, { client, mode, signal, onWait: progress.onWait, logSink });
      if (stopping?.aborted && !ctx.mcpReq.signal.aborted && result.isError) return errorResult('cancelled', `the server stopped (${String(stopping.reason)}) before this call finished`, STOPPED_HINT);
      if (result.isError) logger.info(`${tool.name} failed: ${String((result.content[0] as { text?: string } | undefined)?.text ?? '').split('\n')[0]}`, undefined, logSink);
      return result;
    } finally {
      release();
      progress.stop();
    }
  });

  registerResources(mcp, client, mode);
  registerAppResources(mcp);
  registerPrompts(mcp, client);
  return mcp;
}
