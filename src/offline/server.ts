/**
 * The node:http adapter: serves the engine over real HTTP (`mock-api`, end-to-end tests, benchmarks).
 * Bodies are streamed, so the oversized and reset faults reach the client as a real server would
 * send them. Only this adapter has the /__mock/* control routes; the in-process engine has none.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createOfflineEngine, type OfflineEngine } from './engine.js';
import { faultsFromEnv, parseFaultRules, type FaultRule } from './faults.js';
import { readRequestBody } from '../lib/http-body.js';
import { bracketed, listen } from '../lib/http-server.js';
import { jsonResponse, errorResponse } from './responses.js';
import { messageOf } from '../lib/cause-chain.js';

export interface OfflineServerOptions {
  /** Default 127.0.0.1: the mock is for this machine unless asked otherwise. */
  host?: string;
  /** Default 0: an ephemeral port, read back from `port` / `url`. */
  port?: number;
  engine?: OfflineEngine;
  /** Replaces the engine's rules; when neither this nor `engine` is given, SERVICE_MCP_MOCK_FAULTS is read. */
  faults?: FaultRule[];
  /**
   * Handlers that answer a pathname instead of the engine (mock-api mounts the MCP endpoint at
   * the hosted path). They are not the API's, so the engine stays an API and knows nothing of them.
   */
  mounts?: Readonly<Record<string, Mount>>;
}

type Mount = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface OfflineServer {
  /** Origin without a trailing slash, e.g. http://127.0.0.1:40123. */
  url: string;
  port: number;
  engine: OfflineEngine;
  /** Stops listening and ends every connection, idle or active (a hanging request included). */
  close(): Promise<void>;
}

const CONTROL_PREFIX = '/__mock/';
const MAX_CONTROL_BODY = 1024 * 1024;
// Hop-by-hop and framing headers describe the socket, not the request the engine should see.
const SKIPPED_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

export async function startOfflineServer(options: OfflineServerOptions = {}): Promise<OfflineServer> {
  const host = options.host ?? '127.0.0.1';
  const engine = options.engine ?? (await createOfflineEngine({ faults: options.faults ?? faultsFromEnv() }));
  if (options.engine && options.faults) engine.faults.set(options.faults);

  const mounts = options.mounts ?? {};
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const mount = Object.hasOwn(mounts, path) ? mounts[path] : undefined;
    if (!mount) return void serve(engine, req, res);
    mounted(engine, mount, req, res).catch((error: unknown) => {
      if (!res.headersSent) void writeResponse(serverError(error), res, new AbortController().signal);
      else res.destroy();
    });
  });
  const port = await listen(server, options.port ?? 0, host);
  const url = `http://${bracketed(host)}:${port}`;
  return {
    url,
    port,
    engine,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A mounted handler, behind the engine's fault rules for its path: a fault answers in its place. */
async function mounted(engine: OfflineEngine, mount: Mount, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const controller = abortedOnClose(res);
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  const fault = await engine.intercept(new Request(url, { method: req.method ?? 'GET', signal: controller.signal }));
  if (!fault) return mount(req, res);
  req.resume();
  await writeResponse(fault, res, controller.signal);
}

/** Aborted when the client closes the connection before the answer is written. */
function abortedOnClose(res: ServerResponse): AbortController {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client closed the connection'));
  });
  return controller;
}

const serverError = (error: unknown) =>
  errorResponse(500, 'internal_error', `offline server error: ${messageOf(error)}`);

async function serve(engine: OfflineEngine, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const controller = abortedOnClose(res);
  try {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.pathname.startsWith(CONTROL_PREFIX)) {
      await writeResponse(await control(engine, method, url, req), res, controller.signal);
      return;
    }
    req.resume(); // the engine reads no request body; drain it so keep-alive can reuse the socket
    if (FORBIDDEN_METHODS.has(method)) {
      await writeResponse(
        errorResponse(405, 'method_not_allowed', `${method} is not supported`, {}, { allow: 'GET, HEAD' }),
        res,
        controller.signal,
      );
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || SKIPPED_HEADERS.has(name)) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    const response = await engine.handle(new Request(url, { method, headers, signal: controller.signal }));
    await writeResponse(response, res, controller.signal);
  } catch (error) {
    if (controller.signal.aborted) return; // the client went away; there is no one to answer
    if (!res.headersSent) await writeResponse(serverError(error), res, controller.signal).catch(() => res.destroy());
    else res.destroy();
  }
}

/** Streams a Fetch Response into node's response; a body that errors destroys the socket mid-body. */
async function writeResponse(response: Response, res: ServerResponse, signal: AbortSignal): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (signal.aborted) throw signal.reason;
      // Waiting for each chunk to be handed to the socket gives backpressure, and makes sure the
      // part before a reset really left this process before the socket is destroyed.
      await new Promise<void>((resolve, reject) => {
        const onClose = () => reject(new Error('connection closed while writing'));
        res.once('close', onClose);
        res.write(value, (error) => {
          res.off('close', onClose);
          if (error) reject(error);
          else resolve();
        });
      });
    }
    res.end();
  } catch {
    void reader.cancel().catch(() => {});
    res.destroy();
  }
}

/** The test-control routes: fault rules and hit counts. */
async function control(engine: OfflineEngine, method: string, url: URL, req: IncomingMessage): Promise<Response> {
  const { faults } = engine;
  if (url.pathname === '/__mock/faults') {
    if (method === 'GET') return jsonResponse(200, { success: true, data: { rules: faults.list() } });
    if (method === 'DELETE') {
      req.resume();
      faults.clear();
      return jsonResponse(200, { success: true, data: { rules: [] } });
    }
    if (method === 'POST' || method === 'PUT') {
      try {
        const body = await readRequestBody(req, MAX_CONTROL_BODY);
        if (!body.ok)
          throw new Error(body.reason === 'too_large' ? `control body over ${MAX_CONTROL_BODY} bytes` : 'aborted');
        faults.set(parseFaultRules(JSON.parse(body.bytes.toString('utf8'))));
      } catch (error) {
        return errorResponse(400, 'invalid_parameter', `fault rules: ${messageOf(error)}`);
      }
      return jsonResponse(200, { success: true, data: { rules: faults.list() } });
    }
  } else if (url.pathname === '/__mock/stats') {
    req.resume();
    if (method === 'GET')
      return jsonResponse(200, { success: true, data: { total: faults.hits(), hits: faults.stats() } });
    if (method === 'DELETE') {
      faults.resetHits();
      return jsonResponse(200, { success: true, data: { total: 0, hits: {} } });
    }
  } else {
    req.resume();
    return errorResponse(404, 'not_found', `no control route at ${url.pathname}; use /__mock/faults or /__mock/stats`);
  }
  req.resume();
  return errorResponse(405, 'method_not_allowed', `${method} is not supported on ${url.pathname}`);
}
