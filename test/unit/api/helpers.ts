/**
 * Shared helpers for the API client tests. The client's own logic (queries, statuses, retries,
 * validation) runs over msw, bound to a fake origin through globalThis.fetch (msw does not see the
 * undici package's requests: mswjs/msw#2165), or over a scripted fetch on a fake clock. What the
 * production dispatcher does (cache, sharing, redirects, decoding, caps, deadlines) runs against
 * real loopback servers: `useLoopback()` and `productionClient()`. API bodies come from
 * test/helpers/fixtures.ts, as for every other test.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { ApiClient, type ApiClientOptions } from '../../../src/api/client.js';
import { createApiFetch, type DispatcherOptions } from '../../../src/api/dispatcher.js';
import { envelope, jobList } from '../../helpers/fixtures.js';

export { envelope, jobList, makeJob } from '../../helpers/fixtures.js';

export const BASE = 'https://api.example.test';

export function makeServer() {
  return setupServer();
}

/** A client pointed at BASE whose requests msw can intercept. */
export function makeClient(options: Partial<ApiClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl: BASE,
    fetch: (url, init) => globalThis.fetch(url, init),
    random: () => 0.5,
    ...options,
  });
}

export function discovery(): Record<string, unknown> {
  return envelope({
    endpoints: [{ path: '/api/public/v1/jobs', method: 'GET', description: 'list jobs' }],
    auth: { public: 'none' },
    envelopes: { success: '{success,data,meta}' },
  });
}

export function health(status: 'ok' | 'degraded' = 'ok'): Record<string, unknown> {
  return {
    status,
    mcp_endpoint: 'https://api.example.test/api/public/v1/mcp',
    probes: [
      { name: 'jobs', ok: status === 'ok', status: status === 'ok' ? 200 : 503, path: '/api/public/v1/jobs', ms: 12 },
    ],
  };
}

export function errorBody(error: string, message?: string): Record<string, unknown> {
  return message === undefined ? { success: false, error } : { success: false, error, message };
}

/** Awaits a promise expected to reject and returns the rejection (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** A promise with its resolve exposed, for handlers that hold a response until the test says so. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

interface UpstreamCall {
  /** Milliseconds since the upstream was created, on the (possibly fake) clock. */
  at: number;
  url: URL;
  init: RequestInit;
}

/**
 * A scripted upstream that answers through microtasks only, so fake-timer tests stay exact to the
 * millisecond (msw answers after real event-loop turns, which a fake clock cannot account for).
 * It honours the request's signal like a real fetch. `respond` gets the 1-based call number.
 */
export function fakeUpstream(respond: (n: number, url: URL) => Response | Promise<Response>) {
  const calls: UpstreamCall[] = [];
  const t0 = Date.now();
  const fetch = (url: string, init: RequestInit): Promise<Response> => {
    calls.push({ at: Date.now() - t0, url: new URL(url), init });
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Response>((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      Promise.resolve(respond(calls.length, new URL(url))).then(resolve, reject);
    });
  };
  return { fetch, calls, times: () => calls.map((c) => c.at) };
}

export const okJobs = () =>
  new Response(JSON.stringify(jobList()), { status: 200, headers: { 'content-type': 'application/json' } });
export const limited = (retryAfter?: string) =>
  new Response(JSON.stringify(errorBody('rate_limited', 'slow down')), {
    status: 429,
    headers:
      retryAfter === undefined
        ? { 'content-type': 'application/json' }
        : { 'content-type': 'application/json', 'retry-after': retryAfter },
  });
export const unavailable = (retryAfter?: string) =>
  new Response(JSON.stringify(errorBody('read_model_unavailable')), {
    status: 503,
    headers:
      retryAfter === undefined
        ? { 'content-type': 'application/json' }
        : { 'content-type': 'application/json', 'retry-after': retryAfter },
  });

/**
 * Lets real event-loop turns pass (msw answers after some) until `condition` holds, without moving
 * a fake clock. setImmediate must not be among the faked timers.
 */
export async function until(condition: () => boolean, what = 'condition'): Promise<void> {
  const deadline = performance.now() + 3000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

export interface Loopback {
  url: string;
  /** Every request the server received since the last test began, in order. */
  seen: IncomingMessage[];
  /** How the server answers; tests replace it. */
  respond: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * A scripted HTTP server on 127.0.0.1 for the tests around the call: listening before they run,
 * `seen` emptied after each, closed after all; a developer's proxy variables are set aside meanwhile.
 */
export function useLoopback(): Loopback {
  withoutProxyVariables();
  const state: Loopback = { url: '', seen: [], respond: (_req, res) => res.end() };
  const server = createServer((req, res) => {
    state.seen.push(req);
    req.resume();
    state.respond(req, res);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    state.seen.length = 0;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return state;
}

/** Answers with `body` as JSON. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy'];

/** For tests that talk to loopback: a developer's proxy variables must not carry their requests. */
export function withoutProxyVariables(): void {
  const saved = Object.fromEntries(PROXY_VARIABLES.map((name) => [name, process.env[name]]));
  beforeAll(() => {
    for (const name of PROXY_VARIABLES) delete process.env[name];
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
  });
}

/**
 * A client on the production fetch (undici's dispatcher, as createBackend builds it, with the
 * client's timeout and body cap), failing fast by default.
 */
export function productionClient(
  baseUrl: string,
  options: Partial<ApiClientOptions> & Pick<DispatcherOptions, 'cache' | 'connections'> = {},
): ApiClient {
  const { cache, connections, ...client } = options;
  const timeoutMs = client.timeoutMs ?? 5000;
  const fetch = createApiFetch({
    timeoutMs,
    maxBodyBytes: client.maxBodyBytes,
    cache,
    connections,
    budget: client.budget,
  });
  return new ApiClient({ baseUrl, fetch, unavailableRetries: 0, maxRetryWaitS: 0, ...client, timeoutMs });
}
