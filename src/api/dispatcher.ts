/**
 * The production HTTP stack: one keep-alive undici Agent for the process (an EnvHttpProxyAgent when
 * a proxy variable is set) composed with undici's own interceptors, and the FetchLike over it.
 * Loaded on first use, so offline mode, `--help` and the stdio start-up never load undici.
 *
 * A request passes, outermost first (compose() wraps in array order, so createDispatcher's list
 * reads innermost first):
 * - deduplicate: identical GETs in flight share one request (a caller that leaves: send-loop.ts);
 * - cache (unless --no-cache): RFC 9111 on a bounded memory store (cache.ts), outside the redirect
 *   interceptor as undici requires from 8.13: it keeps an answer under the URL asked for only when
 *   every hop stayed on that origin, so another origin can never plant an entry under ours. Its
 *   answers are kept past their freshness as last answers, which `lastAnswer` reads without sending;
 * - the fair-share check (--per-client-rate): inside the cache, so only a request about to be sent
 *   takes from its caller's share; the caller rides on the dispatch options under a symbol of ours;
 * - redirect: up to 20 hops, as fetch; undici refuses a Location that is not http or https, and
 *   hands the caller the hops it took (`context.history`);
 * - decompress: gzip and br, each stage's decoded size capped; inside the cache, so a hit is not
 *   decoded again;
 * - the agent: headers and body timeouts, and the cap on the body as sent (`maxResponseSize`).
 */
import { Agent, cacheStores, EnvHttpProxyAgent, fetch as undiciFetch, interceptors, type Dispatcher } from 'undici';
import { CACHE_LIMITS, LAST_ANSWER_READ, markingStore, UNSTATED_FRESHNESS_MS, type CacheStore } from './cache.js';
import { DEFAULT_MAX_BODY_BYTES } from './body.js';
import { raceAbort } from '../lib/abort.js';
import type { FetchLike } from './fetch-like.js';
import { takeShare, type UpstreamBudget } from './fair-share.js';

/** fetch's redirect limit. */
const MAX_REDIRECTIONS = 20;
/** What this client decodes; undici's decompress interceptor knows more, but these are what APIs send. */
const ACCEPT_ENCODING = 'gzip, br';
const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY'];

export interface DispatcherOptions {
  timeoutMs: number;
  /** The body cap, as sent and decoded. */
  maxBodyBytes?: number;
  /** Most sockets kept per origin; calls above it queue in undici instead of opening more. */
  connections?: number;
  /** The in-memory response cache: on by default, `false` turns it off (`--no-cache`). */
  cache?: boolean;
  /** Where the cache keeps entries, given the process's bounded memory store (--redis-url shares them). */
  store?: (memory: CacheStore) => CacheStore;
  /** Each caller's share of the requests sent (--per-client-rate); requests that name no caller pass. */
  budget?: UpstreamBudget | undefined;
}

/** Where dispatcherFetch puts the caller's name on the dispatch options. */
const CALLER = Symbol('service-mcp.caller');

type Options = Dispatcher.DispatchOptions & { [CALLER]?: string };

/** Fails a request without dispatching it, as undici's cache does for `only-if-cached`. */
function refuse(handler: Dispatcher.DispatchHandler, error: Error): void {
  const controller = {
    aborted: false,
    paused: false,
    reason: null,
    rawHeaders: [],
    rawTrailers: [],
    pause() {},
    resume() {},
    abort() {},
  };
  try {
    handler.onRequestStart?.(controller, null);
  } finally {
    handler.onResponseError?.(controller, error);
  }
}

function budgetInterceptor(budget: UpstreamBudget): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts: Options, handler) => {
    const caller = opts[CALLER];
    // Requests of the server's own (the catalog read) and of stdio or `call` have no caller.
    if (caller === undefined) return dispatch(opts, handler);
    void takeShare(budget, caller, String(opts.path)).then((refusal) => {
      if (refusal) refuse(handler, refusal);
      else dispatch(opts, handler);
    });
    return true;
  };
}

/**
 * undici's own headers and body timeouts: a backstop behind the call's deadline (send-loop.ts),
 * which says `timeout`. Over a second undici times on a coarse clock that can fire up to a tick
 * (499 ms) early, and its error reads as a network failure ("check connectivity") for what is a
 * timeout: it gets a second more, so the deadline always ends the call first.
 */
export const backstopMs = (timeoutMs: number) => timeoutMs + 1_000;

/** The keep-alive agent, behind the proxy the environment names: requests are capped at `maxBodyBytes` as sent. */
function createAgent(options: DispatcherOptions, maxBodyBytes: number): Dispatcher {
  const agentOptions = {
    connections: options.connections ?? 64,
    keepAliveTimeout: 30_000,
    headersTimeout: backstopMs(options.timeoutMs),
    bodyTimeout: backstopMs(options.timeoutMs),
    maxResponseSize: maxBodyBytes,
  };
  // EnvHttpProxyAgent reads the proxy variables once, here, then checks NO_PROXY for every
  // request; with no proxy set it would only ever pick its plain Agent.
  return PROXY_VARIABLES.some((name) => process.env[name])
    ? new EnvHttpProxyAgent(agentOptions)
    : new Agent(agentOptions);
}

function createDispatcher(options: DispatcherOptions): Dispatcher {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const agent = createAgent(options, maxBodyBytes);
  return agent.compose([
    // Error bodies too: a compressed error envelope still names the error.
    interceptors.decompress({ maxSize: maxBodyBytes, skipErrorResponses: false }),
    interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }),
    ...(options.budget ? [budgetInterceptor(options.budget)] : []),
    // 'shared': HTTP mode answers many clients from one cache, so `private` responses stay out of it.
    ...(options.cache === false
      ? []
      : [
          interceptors.cache({
            store: markingStore(storeOf(options)),
            methods: ['GET'],
            type: 'shared',
            // An answer that states no freshness is kept too, as a last answer only (cache.ts).
            cacheByDefault: UNSTATED_FRESHNESS_MS,
          }),
        ]),
    // A waiter that reads slowly is failed past maxBufferSize; never for a body the client would take.
    interceptors.deduplicate({ methods: ['GET'], maxBufferSize: maxBodyBytes }),
  ]);
}

function storeOf(options: DispatcherOptions): CacheStore {
  const memory = new cacheStores.MemoryCacheStore(CACHE_LIMITS);
  return options.store ? options.store(memory) : memory;
}

/** The FetchLike over `dispatcher`: GETs only, as the client sends. */
function dispatcherFetch(dispatcher: Dispatcher): FetchLike {
  return async (url, init) => {
    const target = new URL(url);
    const signal = init.signal ?? undefined;
    const request = dispatcher.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: 'GET',
      headers: { ...(init.headers as Record<string, string>), 'accept-encoding': ACCEPT_ENCODING },
      signal,
      ...(init.caller === undefined ? {} : { [CALLER]: init.caller }),
    });
    // undici settles a request queued for a connection only once a connection frees, even after its
    // signal has aborted (it is then aborted before it is sent); the caller is answered at once.
    // Upstream, rejecting a queued request when its signal aborts would make this race needless.
    const response = await raceAbort(request, signal);
    const headers = response.headers;
    return {
      status: response.statusCode,
      url: answeringUrl(response.context) ?? url,
      // undici gives names lower-cased and a repeated header as an array; Headers.get joins them.
      headers: {
        get(name: string) {
          const value = headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
        },
      },
      body: response.body,
    };
  };
}

/**
 * The fetch the bridge's MCP client posts through: undici's fetch on an agent of its own, with the
 * same proxy and timeouts. No cache or sharing: every POST is a call; redirects are the SDK's to allow.
 */
export function createHostedFetch(options: { timeoutMs: number; maxBodyBytes?: number }) {
  const dispatcher = createAgent(options, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  return (url: string, init: RequestInit): Promise<Response> =>
    undiciFetch(url, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher }) as unknown as Promise<Response>;
}

export function createApiFetch(options: DispatcherOptions): FetchLike {
  const fetch = dispatcherFetch(createDispatcher(options));
  if (options.cache === false) return fetch;
  // Answered by the cache alone: a stored answer, marked, or undici's own 504; never sent.
  const lastAnswer: FetchLike['lastAnswer'] = (url, init) =>
    fetch(url, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), 'cache-control': LAST_ANSWER_READ },
    });
  return Object.assign(fetch, { lastAnswer });
}

/**
 * The URL of the last hop, from the redirect history undici puts in the request's context. A cache
 * hit carries none, and needs none: undici caches only answers whose every hop stayed on our origin.
 */
function answeringUrl(context: unknown): string | undefined {
  const history = (context as { history?: unknown } | null | undefined)?.history;
  const last = Array.isArray(history) ? history.at(-1) : undefined;
  return last instanceof URL ? last.href : undefined;
}
