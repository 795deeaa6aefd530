/**
 * The parts of undici this client uses, loaded one by one. undici's index loads everything it
 * offers (fetch, WebSocket, EventSource, mock agents, the SQLite cache store…): about 6 MB more
 * resident memory than these parts, for code this client never runs. The paths below are not
 * undici's documented API, so package.json pins undici to one exact version, and
 * test/unit/api/undici-parts.test.ts checks that each part is the very object the index exports.
 */
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const load = createRequire(import.meta.url);

export const Agent = load('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;

export const RedirectHandler = load('undici/lib/handler/redirect-handler.js') as typeof Undici.RedirectHandler;

export const interceptors = {
  cache: load('undici/lib/interceptor/cache.js') as typeof Undici.interceptors.cache,
};

export const cacheStores = {
  MemoryCacheStore: load('undici/lib/cache/memory-cache-store.js') as typeof Undici.cacheStores.MemoryCacheStore,
};

/** Loaded only when a proxy variable is set. */
export const loadEnvHttpProxyAgent = () => load('undici/lib/dispatcher/env-http-proxy-agent.js') as typeof Undici.EnvHttpProxyAgent;

/** The whole of undici, for the fetch form of the production fetch (its Headers and Response), which the client does not use. */
export const loadUndici = () => load('undici') as typeof Undici;
