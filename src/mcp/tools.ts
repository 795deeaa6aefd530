/**
 * The tools, registered on McpServer (those with an MCP Apps view through ext-apps'
 * registerAppTool). Their JSON Schemas (tools/tools-list.ts) go to the SDK's fromJsonSchema with a
 * validator that accepts every value: arguments are validated once, in tools/run.ts, so a bad one is
 * an `invalid_argument` result that names it and sends nothing.
 */
import { registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import {
  fromJsonSchema,
  type JsonSchemaType,
  type LoggingLevel,
  type McpServer,
  type RegisteredTool,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { ACCEPT_ALL } from '../lib/accept-all-validator.js';
import type { GateWaitInfo } from '../api/retry-after-gate.js';
import { exposedTools, type Backend } from '../tools/backend.js';
import type { Logger, LogLevel, LogSink } from '../obs/log.js';
import { toolCatalog } from '../tools/tools-list.js';
import { isHostedTool, type ExposedTool } from '../tools/define.js';
import { newCallRecord } from '../obs/call-record.js';
import { errorResult } from '../tools/error-result.js';
import { runTool } from '../tools/run.js';
import { telemetry } from '../obs/telemetry-hooks.js';
import { PACKAGE_NAME } from '../contract/version.js';

type ProgressToken = string | number;

/** Reports a Retry-After wait as progress, one notification a second, until the call ends. */
function progressReporter(token: ProgressToken | undefined, ctx: ServerContext) {
  let timer: NodeJS.Timeout | undefined;
  let progress = 0;
  const send = (total: number, message: string) =>
    ctx.mcpReq
      .notify({ method: 'notifications/progress', params: { progressToken: token!, progress, total, message } })
      .catch(() => {});
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

/** What every call a server makes shares: when it must stop, and on whose share of upstream requests it goes. */
export interface CallScope {
  /**
   * Aborted when the process stops and its grace period is over: calls still running then end at
   * once with an error result, so every client gets an answer.
   */
  stopping?: AbortSignal | undefined;
  /** Who is calling (HTTP mode): our API calls and bridged calls alike go on this caller's share. */
  caller?: string | undefined;
}

/**
 * Registers `tools` (ours, and any bridged). Given `names` (what labels and the unknown-tool answer
 * know), keeps a long-lived server's bridged tools in step with the hosted list, each change
 * announced by the SDK with notifications/tools/list_changed, and `names` with them.
 */
export function registerTools(
  mcp: McpServer,
  backend: Backend,
  tools: readonly ExposedTool[],
  logger: Logger,
  scope: CallScope,
  names?: Set<string>,
): void {
  const registerOne = (tool: ExposedTool) => register(mcp, tool, handlerOf(tool, backend, logger, scope));
  const bridged = new Map<string, RegisteredTool>();
  for (const tool of tools) {
    const registration = registerOne(tool);
    if (isHostedTool(tool)) bridged.set(tool.name, registration);
  }
  if (!names) return;
  const unfollow = backend.bridge!.onChange(() => {
    for (const registration of bridged.values()) registration.remove();
    bridged.clear();
    names.clear();
    for (const tool of exposedTools(backend)) {
      names.add(tool.name);
      if (isHostedTool(tool)) bridged.set(tool.name, registerOne(tool));
    }
  });
  const closed = mcp.server.onclose;
  mcp.server.onclose = () => {
    unfollow();
    closed?.();
  };
}

function handlerOf(
  tool: ExposedTool,
  { client, mode, bridge }: Backend,
  logger: Logger,
  { stopping, caller }: CallScope,
): (args: unknown, ctx: ServerContext) => ReturnType<typeof runTool> {
  return async (args, ctx) => {
    const logSink = sinkFor(ctx);
    const progress = progressReporter(ctx.mcpReq._meta?.progressToken, ctx);
    const { signal, release } = callSignal(ctx.mcpReq.signal, stopping);
    const record = newCallRecord(tool.name);
    try {
      let result = await runTool(
        tool,
        args,
        { client, mode, bridge, signal, onWait: progress.onWait, logSink, caller },
        record,
      );
      if (stopping?.aborted && !ctx.mcpReq.signal.aborted && result.isError)
        result = errorResult(
          'cancelled',
          `the server stopped (${String(stopping.reason)}) before this call finished`,
          STOPPED_HINT,
          record,
        );
      else if (record.error) logger.info(`${tool.name} failed: ${record.error.message}`, undefined, logSink);
      telemetry().toolCallEnded(record);
      return result;
    } finally {
      release();
      progress.stop();
    }
  };
}

type ToolConfig = ReturnType<typeof toolConfig>;

/** Built once per tool and process: HTTP mode registers every tool on a fresh server per request. */
function toolConfig(tool: ExposedTool) {
  const { title, description, inputSchema, outputSchema, annotations, _meta } = toolCatalog([tool])[0]!;
  return {
    title,
    description,
    inputSchema: fromJsonSchema(inputSchema as JsonSchemaType, ACCEPT_ALL),
    ...(outputSchema ? { outputSchema: fromJsonSchema(outputSchema as JsonSchemaType, ACCEPT_ALL) } : {}),
    annotations,
    _meta,
  };
}

const configs = new WeakMap<ExposedTool, ToolConfig>();

function register(
  mcp: McpServer,
  tool: ExposedTool,
  call: (args: unknown, ctx: ServerContext) => ReturnType<typeof runTool>,
): RegisteredTool {
  let config = configs.get(tool);
  if (!config) configs.set(tool, (config = toolConfig(tool)));
  const { _meta, ...rest } = config;
  if (_meta) return registerAppTool(mcp, tool.name, { ...rest, _meta: _meta as { ui: { resourceUri: string } } }, call);
  return mcp.registerTool(tool.name, rest, call);
}
