/**
 * Stateless Streamable HTTP adapter (`serve --http`): node:http around the MCP endpoint
 * (mcp-endpoint.ts) at /mcp and at the hosted path /api/public/v1/mcp, plus /healthz and the
 * server card. The SDK serves both protocol eras per request (2026-07-28 natively, 2025 clients
 * through its stateless legacy mode) and answers every protocol message; this file owns the
 * server around it: routing, time limits, start-up and shutdown.
 *
 * Each request gets its own server instance from the factory, while the backend, and with it the
 * HTTP client, its cache and the Retry-After gate, is one per process: a 429 seen by one request
 * pauses every request of the process. No session ids, so any replica can answer any request.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { exposedTools, startReads, type Backend } from '../tools/backend.js';
import { FIRST_LIST_WAIT_MS } from '../hosted/caps.js';
import type { Logger } from '../obs/log.js';
import { onLauncherGone } from '../lib/launcher.js';
import { DEFAULTS } from '../config/defaults.js';
import { bracketed, listen, sendJson, sendRpcError } from '../lib/http-server.js';
import { buildPolicy, isLoopbackHost, isWildcardHost, type AccessPolicy } from './http-guard.js';
import {
  corsHeaders,
  createMcpEndpoint,
  DEFAULT_LIMITS,
  HOSTED_MCP_PATH,
  refuseUnsafe,
  type HttpLimits,
} from './mcp-endpoint.js';
import { buildServerCard, SERVER_CARD_PATHS } from './server-card.js';
import { telemetry } from '../obs/telemetry-hooks.js';
import type { AuthGate } from './auth/gate.js';

export interface HttpServerOptions {
  backend: Backend;
  logger: Logger;
  host?: string;
  port?: number;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  limits?: Partial<HttpLimits>;
  /** Requests served at once (--max-in-flight); as many more wait, the rest get 503. Unbounded when absent. */
  maxInFlight?: number;
  /** Who may call (auth/gate.ts): anyone who can reach the port when absent. */
  auth?: AuthGate;
}

export interface RunningHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:3333/mcp. */
  url: string;
  port: number;
  /** Calls being answered right now. */
  inFlight(): number;
  /**
   * Stops accepting, turns away requests waiting for a slot (503), lets in-flight calls finish up
   * to the grace period, then stops those left, which answer with an error, and closes every
   * connection. Resolves true when no call had to be stopped.
   */
  close(graceMs?: number): Promise<boolean>;
}

/** The local path, and the hosted service's, so a client configured for either finds us. */
const MCP_PATHS = ['/mcp', HOSTED_MCP_PATH] as const;

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { backend, logger } = options;
  const limits: HttpLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const host = options.host ?? DEFAULTS.host;
  const { auth } = options;
  // The audience names the host clients reach this server by: allowed as if listed.
  const allowedHosts = [...(options.allowedHosts ?? []), ...(auth?.hosts ?? [])];
  // Validate the allow-lists before binding, so a typo fails without ever listening.
  buildPolicy({ host, port: 0, allowedHosts, allowedOrigins: options.allowedOrigins });

  const stopCalls = new AbortController();
  startReads(backend);
  const endpoint = createMcpEndpoint({
    backend,
    logger,
    limits,
    maxInFlight: options.maxInFlight,
    stopping: stopCalls.signal,
    ...(auth ? { authenticate: auth.check } : {}),
  });
  let policy: AccessPolicy | undefined;
  let draining = false;
  let active = 0;
  let onIdle: (() => void) | undefined;

  const server = createHttpServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this interval (default 30 s, which would stretch them).
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
    (req, res) => {
      active++;
      res.once('close', () => {
        active--;
        if (active === 0) onIdle?.();
      });
      if (draining) {
        sendRpcError(res, 503, 'Service Unavailable: the server is shutting down', {
          connection: 'close',
          'retry-after': '1',
        });
        return;
      }
      if (!policy) {
        sendRpcError(res, 503, 'Service Unavailable: the server is starting', { 'retry-after': '1' });
        return;
      }
      route(req, res, policy).catch((error: unknown) => {
        logger.error(`HTTP request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        if (!res.headersSent) sendRpcError(res, 500, 'Internal error');
        else res.destroy();
      });
    },
  );
  async function route(req: IncomingMessage, res: ServerResponse, access: AccessPolicy): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const method = req.method ?? 'GET';
    // Liveness first and unguarded: probes address pods by IP, and the answer holds no data.
    if (path === '/healthz') {
      if (method !== 'GET' && method !== 'HEAD')
        return sendRpcError(res, 405, 'Method Not Allowed', { allow: 'GET, HEAD' });
      return sendJson(res, 200, { status: 'ok' });
    }
    if ((MCP_PATHS as readonly string[]).includes(path)) return endpoint.serve(req, res, access);
    if (refuseUnsafe(req, res, access, logger)) return;
    if (auth && (await auth.serveMetadata(path, req, res))) return;
    const cors = corsHeaders(req, access);
    if ((SERVER_CARD_PATHS as readonly string[]).includes(path)) {
      req.resume();
      if (method !== 'GET' && method !== 'HEAD')
        return sendRpcError(res, 405, 'Method Not Allowed', { ...cors, allow: 'GET, HEAD' });
      // Host was checked above, so echoing it cannot advertise a foreign name.
      const scheme = req.headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
      // The card names the bridged tools too: the first one waits for the hosted list as a first tools/list does.
      await backend.bridge?.settled(FIRST_LIST_WAIT_MS);
      return sendJson(res, 200, buildServerCard(`${scheme}://${req.headers.host}`, exposedTools(backend)), {
        ...cors,
        'cache-control': 'public, max-age=300',
      });
    }
    req.resume();
    return sendRpcError(res, 404, `Not Found: ${path}; the MCP endpoint is POST ${MCP_PATHS.join(' or POST ')}`, cors);
  }

  const port = await listen(server, options.port ?? DEFAULTS.httpPort, host);
  policy = buildPolicy({ host, port, allowedHosts, allowedOrigins: options.allowedOrigins });
  if (!isLoopbackHost(host) && !auth?.required) {
    logger.warn(
      `listening on ${isWildcardHost(host) ? 'every interface' : host}, beyond loopback: anyone who can reach port ${port} can call the tools (there is no authentication: --auth-tokens-file or --auth-issuer turns it on, see docs/deploy.md). ` +
        `Requests must still name an allowed Host${allowedHosts.length ? '' : ' (add names with --allowed-hosts)'}.`,
    );
  }
  if (auth?.required) logger.info(`callers: ${auth.description}`);

  // A URL this machine can use: a wildcard bind is reached through loopback.
  const reachable = !isWildcardHost(host) ? host : host.includes(':') ? '::1' : '127.0.0.1';
  return {
    url: `http://${bracketed(reachable)}:${port}${MCP_PATHS[0]}`,
    port,
    inFlight: () => active,
    close: async (graceMs = limits.shutdownGraceMs) => {
      draining = true;
      // In-flight exchanges first get the grace period; the handler is closed after it.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      endpoint.refuseWaiting();
      const idle = (ms: number) =>
        new Promise<boolean>((resolve) => {
          if (active === 0) return resolve(true);
          const timer = setTimeout(() => resolve(false), ms);
          onIdle = () => {
            clearTimeout(timer);
            resolve(true);
          };
        });
      const drained = await idle(graceMs);
      if (!drained) {
        // Stopped calls answer with an error result through the SDK, so no client is left without one.
        stopCalls.abort('shutdown');
        await idle(limits.stoppedAnswerMs);
      }
      await endpoint.close().catch(() => {});
      server.closeAllConnections();
      await closed;
      return drained;
    },
  };
}

/**
 * Exits on SIGINT/SIGTERM once in-flight calls are done: 0 when all finished, 1 when the grace
 * period ran out and some were cut off. A second signal takes node's default (immediate) exit.
 */
export function stopOnSignals(running: RunningHttpServer, logger: Logger): void {
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${why}: no longer accepting connections; finishing ${running.inFlight()} in-flight request(s)`);
    void running.close().then(async (drained) => {
      if (!drained) logger.warn('shutdown grace period over: in-flight calls were stopped and answered with an error');
      // Spans still batched would be lost with the process: exported first (a no-op without telemetry).
      await telemetry().flush();
      process.exit(drained ? 0 : 1);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  onLauncherGone(() => stop('npx or npm exec exited'));
}
