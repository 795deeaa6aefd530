/**
 * The MCP endpoint as node:http sees it: the SDK's `createMcpHandler` (stateless, both protocol
 * eras) behind the checks every address it is served at shares: one target, Host and Origin,
 * the surface asked for, CORS, the body limit and Content-Encoding. `serve --http` mounts it at
 * /mcp and at the hosted path; `mock-api` mounts it at the hosted path beside the offline API.
 * The slot a request waits for is mcp-admission.ts's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { createMcpHandler, type AuthInfo, type McpServer } from '@modelcontextprotocol/server';
import type { Backend } from '../tools/backend.js';
import type { Logger } from '../obs/log.js';
import { serverFactory } from '../mcp/server.js';
import type { AuthCheck } from './auth/gate.js';
import { callerOf } from './auth/caller.js';
import { readRequestBody, refuseUnread } from '../lib/http-body.js';
import { checkHost, checkOrigin, checkSingleTarget, type AccessPolicy } from './http-guard.js';
import { rpcError, sendRpcError, type Headers } from '../lib/http-server.js';
import { admission } from './mcp-admission.js';

/** The path the hosted service answers at (the spec's `POST /api/public/v1/mcp`). */
export const HOSTED_MCP_PATH = '/api/public/v1/mcp';
/** The only surface served: the read-only market surface, which is also the default. */
export const SURFACE = 'market';

// The 2026-07-28 standard headers (SEP-2243) with the 2025 era's, so browsers may send and read them.
const CORS_ALLOW_HEADERS =
  'Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID';
const CORS_EXPOSE_HEADERS = 'MCP-Protocol-Version, Mcp-Method, Mcp-Name';

export interface HttpLimits {
  bodyBytes: number;
  /** Time allowed for the request headers: a client trickling them (slowloris) is cut off. */
  headersTimeoutMs: number;
  /** Time allowed to receive the whole request (not to answer it: a tool call may wait out a Retry-After). */
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How long the rest of a body refused with 413 is read and thrown away before the connection is cut. */
  refusedBodyDrainMs: number;
  /** How long shutdown waits for in-flight calls before stopping them with an error answer. */
  shutdownGraceMs: number;
  /** After stopping them, how long their error answers may take to go out before connections are cut. */
  stoppedAnswerMs: number;
}

export const DEFAULT_LIMITS: HttpLimits = {
  bodyBytes: 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  refusedBodyDrainMs: 5_000,
  shutdownGraceMs: 10_000,
  stoppedAnswerMs: 1_000,
};

export interface McpEndpoint {
  /** Answers one request addressed to an MCP path, refusals included. */
  serve(req: IncomingMessage, res: ServerResponse, access: AccessPolicy): Promise<void>;
  /** Turns away the requests waiting for a slot (503): the server is shutting down. */
  refuseWaiting(): void;
  close(): Promise<void>;
}

export interface McpEndpointOptions {
  backend: Backend;
  logger: Logger;
  limits: Pick<HttpLimits, 'bodyBytes' | 'refusedBodyDrainMs'>;
  /** Requests served at once (as many more may wait); unbounded when absent. */
  maxInFlight?: number;
  /** Aborted when shutdown's grace period is over: calls still running answer with an error. */
  stopping?: AbortSignal;
  /** Tools of a surface of its own besides ours (mock-api's hosted market surface). */
  extend?: (mcp: McpServer) => void;
  /** Who is calling, from the request's head, before any other work (auth/gate.ts); anyone when absent. */
  authenticate?: (req: IncomingMessage) => Promise<AuthCheck>;
}

/** The body as read, parsed once here; `undefined` when it is not JSON (the SDK words that refusal). */
function parseBody(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Refuses (and answers) a request that names two targets, or a Host or Origin the policy does not
 * allow; true when it did. Every guarded address calls this first.
 */
export function refuseUnsafe(req: IncomingMessage, res: ServerResponse, access: AccessPolicy, logger: Logger): boolean {
  const what = `${req.method ?? 'GET'} ${new URL(req.url ?? '/', 'http://localhost').pathname}`;
  const unclear = checkSingleTarget(req.rawHeaders, req.url, req.headers.host);
  if (unclear) {
    logger.warn(`refused ${what}: ${unclear}`);
    req.resume();
    sendRpcError(res, 400, unclear, { connection: 'close' });
    return true;
  }
  const refusal = checkHost(req.headers.host, access) ?? checkOrigin(req.headers.origin, access);
  if (refusal) {
    logger.warn(`refused ${what}: ${refusal}`);
    req.resume();
    sendRpcError(res, 403, refusal);
    return true;
  }
  return false;
}

/** CORS only when --allowed-origins was given, and only ever reflecting an allowed origin. */
export function corsHeaders(req: IncomingMessage, access: AccessPolicy): Headers {
  const origin = req.headers.origin;
  if (!access.cors || origin === undefined) return {};
  // checkOrigin already passed, so this origin parses and is on the list; it is echoed as listed.
  return {
    'access-control-allow-origin': new URL(origin).origin,
    vary: 'Origin',
    'access-control-expose-headers': CORS_EXPOSE_HEADERS,
  };
}

/** Why the `surface` asked for is not served, or undefined when it is (market, or none: the default). */
function surfaceRefusal(target: string | undefined): string | undefined {
  const asked = new URL(target ?? '/', 'http://localhost').searchParams.getAll('surface');
  if (asked.length === 0 || (asked.length === 1 && asked[0] === SURFACE)) return undefined;
  const named =
    asked.length === 1 ? `surface ${JSON.stringify(asked[0]!.slice(0, 40))} is` : 'more than one surface is';
  return `Bad Request: ${named} not served here; the surfaces served are: ${SURFACE} (the read-only market surface, also the default when surface is omitted)`;
}

/**
 * The request as the SDK's Node adapter reads it, its body already read under our limits. A body
 * that parsed goes on as `parsedBody` (the adapter's documented third argument), so the SDK does
 * not parse it again; one that did not is yielded as bytes, for the SDK to refuse in its own words.
 */
function withBody(req: IncomingMessage, body: Buffer, auth: AuthInfo | undefined): NodeIncomingMessageLike {
  // In origin form: an absolute-form target (checked to name this host) would be joined to Host again.
  const target = new URL(req.url ?? '/', 'http://localhost');
  // The token was checked at the door: nothing past it needs the header, so nothing past it holds it.
  const { authorization: _checked, ...headers } = req.headers;
  return {
    method: req.method,
    url: `${target.pathname}${target.search}`,
    headers,
    // The SDK hands it to the server factory as `authInfo`: how the caller's name reaches its tools.
    ...(auth ? { auth } : {}),
    async *[Symbol.asyncIterator]() {
      yield body;
    },
  };
}

export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const { backend, logger, limits, stopping, extend } = options;
  // The same tools at every path it is mounted at, bridged ones included; a request from a bridge gets
  // ours alone (server.ts), so a deployment whose hosted endpoint is this server does not bridge itself.
  // The caller rides on the SDK's authInfo (withBody below); every call, bridged ones too, goes on its share.
  const mcpHandler = createMcpHandler(serverFactory({ backend, logger, stopping, extend }, { callerOf }), {
    legacy: 'stateless',
  });
  // 2026-07-28 clients that opened a subscriptions/listen stream hear of a change of the bridged
  // tools; stateless 2025 clients have no stream to hear on, and list again (docs/tools.md).
  const unfollow = backend.bridge?.onChange(() => mcpHandler.notify.toolsChanged());
  const admit = admission(options.maxInFlight);
  const serveMcp = toNodeHandler(mcpHandler, {
    maxRequestBodySize: limits.bodyBytes,
    onerror: (error) => logger.error(`MCP HTTP handler failed: ${error.stack ?? error.message}`),
  });

  async function serve(req: IncomingMessage, res: ServerResponse, access: AccessPolicy): Promise<void> {
    if (refuseUnsafe(req, res, access, logger)) return;
    const cors = corsHeaders(req, access);
    if (req.method === 'OPTIONS' && access.cors) {
      req.resume();
      const allow = 'POST, OPTIONS';
      res.writeHead(204, {
        ...cors,
        allow,
        'access-control-allow-methods': allow,
        'access-control-allow-headers': CORS_ALLOW_HEADERS,
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    const wrongSurface = surfaceRefusal(req.url);
    if (wrongSurface) {
      req.resume();
      return sendRpcError(res, 400, wrongSurface, cors);
    }
    // Before any other work: a caller refused here takes no slot and has no byte of its body read.
    const who = options.authenticate ? await options.authenticate(req) : { ok: true as const, auth: undefined };
    if (!who.ok) {
      refuseUnread(
        req,
        res,
        who.status,
        rpcError(who.message),
        { ...cors, ...who.headers },
        {
          limit: limits.bodyBytes,
          drainMs: limits.refusedBodyDrainMs,
          keepAlive: true,
        },
      );
      return;
    }
    for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
    // Any other method is the SDK's to answer (a stateless server: 405, Allow: POST).
    if (req.method !== 'POST') return serveMcp(req, res);
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      req.resume();
      return sendRpcError(
        res,
        415,
        `Unsupported Media Type: request bodies are read as sent, not decoded (Content-Encoding: ${encoding.slice(0, 40)}); send it uncompressed`,
        cors,
      );
    }
    const body = await readRequestBody(req, limits.bodyBytes);
    if (!body.ok) {
      if (body.reason === 'too_large') {
        const answer = rpcError(`Payload Too Large: the request body must not exceed ${limits.bodyBytes} bytes`);
        refuseUnread(req, res, 413, answer, {}, { limit: limits.bodyBytes, drainMs: limits.refusedBodyDrainMs });
      } else res.destroy();
      return;
    }
    const parsed = parseBody(body.bytes);
    if ((await admit.slotFor(res, parsed, cors)) === undefined) return;
    await serveMcp(withBody(req, body.bytes, who.auth), res, parsed);
  }

  return {
    serve,
    refuseWaiting: admit.refuseWaiting,
    close: () => {
      unfollow?.();
      return mcpHandler.close();
    },
  };
}
