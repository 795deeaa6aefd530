/**
 * createServer: one MCP server over the tool registry, shared by every transport.
 *
 * Built on the SDK's low-level Server rather than McpServer, because the contract needs what
 * McpServer does differently: an unknown tool is a protocol error (McpServer returns an isError
 * result), argument errors start with `invalid_argument` and name the argument, and the JSON
 * Schemas are converted once per process instead of on every tools/list.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolRequest,
  type CallToolResult,
  type LoggingLevel,
  type ProgressToken,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from './api/errors.js';
import type { GateWaitInfo } from './api/http.js';
import type { Backend } from './backend.js';
import { silentLogger, type Logger, type LogSink } from './log.js';
import { SERVER_CAPABILITIES } from './mcp/capabilities.js';
import { INSTRUCTIONS } from './mcp/instructions.js';
import { completePromptArgument, findPrompt, PROMPTS, renderPrompt } from './mcp/prompts.js';
import { readResource, RESOURCES } from './mcp/resources.js';
import { toolCatalog } from './tools/catalog.js';
import { findTool, TOOLS } from './tools/index.js';
import { runTool } from './tools/run.js';
import { PACKAGE_NAME, VERSION } from './version.js';

export interface CreateServerOptions {
  backend: Backend;
  logger?: Logger;
}

/** What a tools/call needs of the protocol layer: the SDK's request extra has it, and so does the stdio call lane. */
export interface ToolCallExtra {
  signal: AbortSignal;
  sendNotification: (notification: ServerNotification) => Promise<void>;
  sessionId?: string | undefined;
}

/** Answers one tools/call: the handler the SDK server runs, for a transport that calls it directly. */
export type CallTool = (params: CallToolRequest['params'], extra: ToolCallExtra) => Promise<CallToolResult>;

type Notify = (notification: { method: 'notifications/progress'; params: { progressToken: ProgressToken; progress: number; total?: number; message?: string } }) => Promise<void>;

/** Reports a Retry-After wait as progress, one notification a second, until the call ends. */
function progressReporter(token: ProgressToken | undefined, notify: Notify) {
  let timer: NodeJS.Timeout | undefined;
  let progress = 0;
  const send = (total: number, message: string) => notify({ method: 'notifications/progress', params: { progressToken: token!, progress, total, message } }).catch(() => {});
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

let ajv: AjvJsonSchemaValidator | undefined;
/**
 * The SDK server's JSON Schema validator, built on first use. The server only needs one to check
 * what a client answers to elicitation, which this server never asks for, yet the SDK builds an Ajv
 * instance (rules, keywords, meta-schemas) for every Server it constructs unless given a validator:
 * about 100 µs of every HTTP call, where each request has its own Server, and a few MB of heap in
 * every process.
 */
const lazyValidator: jsonSchemaValidator = {
  getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema),
};

export function createServer(options: CreateServerOptions): Server {
  return createServerParts(options).server;
}

/** The SDK server, and its tools/call handler for transports that answer calls themselves (stdio-calls.ts). */
export function createServerParts({ backend, logger = silentLogger }: CreateServerOptions): { server: Server; callTool: CallTool } {
  const server = new Server(
    { name: PACKAGE_NAME, title: 'Hiring intelligence (AI and web3 jobs)', version: VERSION },
    { capabilities: SERVER_CAPABILITIES, instructions: INSTRUCTIONS, jsonSchemaValidator: lazyValidator },
  );
  const { client, mode } = backend;

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolCatalog() }));

  // Lines logged while serving a call reach that call's client as notifications/message, tied to
  // the request, so they travel on the right stream in stateless HTTP and never to another client.
  const isIgnored = (server as unknown as { isMessageIgnored?: (level: LoggingLevel, sessionId?: string) => boolean }).isMessageIgnored;
  const forwardTo =
    (extra: ToolCallExtra): LogSink =>
    (level, message) => {
      const mcpLevel: LoggingLevel = level === 'warn' ? 'warning' : level;
      if (isIgnored?.call(server, mcpLevel, extra.sessionId)) return;
      extra.sendNotification({ method: 'notifications/message', params: { level: mcpLevel, logger: PACKAGE_NAME, data: message } }).catch(() => {});
    };

  const callTool: CallTool = async (params, extra) => {
    const tool = findTool(params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(params.name)}. Tools: ${TOOLS.map((t) => t.name).join(', ')}`);
    const logSink = forwardTo(extra);
    const progress = progressReporter(params._meta?.progressToken, extra.sendNotification as Notify);
    try {
      const result = await runTool(tool, params.arguments, { client, mode, signal: extra.signal, onWait: progress.onWait, logSink });
      if (result.isError) logger.info(`${tool.name} failed: ${String((result.content[0] as { text?: string } | undefined)?.text ?? '').split('\n')[0]}`, undefined, logSink);
      return result;
    } finally {
      progress.stop();
    }
  };
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => callTool(request.params, extra));

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: RESOURCES.map((r) => r.resource) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    try {
      const result = await readResource(client, request.params.uri, extra.signal);
      if (!result) throw new McpError(-32002, `Resource not found: ${request.params.uri}`);
      return result;
    } catch (error) {
      if (error instanceof ApiError) throw new McpError(ErrorCode.InternalError, error.message, { kind: error.kind, status: error.status });
      throw error;
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS.map((p) => p.prompt) }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const definition = findPrompt(request.params.name);
    if (!definition) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${JSON.stringify(request.params.name)}`);
    const args = request.params.arguments ?? {};
    for (const argument of definition.prompt.arguments ?? []) {
      if (argument.required && !args[argument.name]?.trim()) throw new McpError(ErrorCode.InvalidParams, `Prompt ${definition.prompt.name} needs the argument ${argument.name}`);
    }
    return renderPrompt(definition, args);
  });

  server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
    const { ref, argument } = request.params;
    if (ref.type !== 'ref/prompt' || !findPrompt(ref.name)) return { completion: { values: [], hasMore: false } };
    const values = await completePromptArgument(client, argument.name, argument.value, extra.signal);
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: false } };
  });

  return { server, callTool };
}
