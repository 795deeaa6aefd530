/**
 * Shared state for replicas (--redis-url), namespaced by the API's origin: the cool-down, the
 * callers' shares, the hosted tool list and the cache store. Imported only when a URL is given.
 */
import type { Logger } from '../../obs/log.js';
import type { CacheStore } from '../cache.js';
import { sharedCacheStore } from './cache-store.js';
import { SharedRetryAfterGate } from './cool-down.js';
import { SharedBudget } from './fair-share.js';
import type { Rate, UpstreamBudget } from '../fair-share.js';
import { connectRedis, type SharedRedis } from './connection.js';

export interface SharedState {
  gate: SharedRetryAfterGate;
  /** Wraps the process's memory store: Redis while it answers, the memory store meanwhile. */
  cacheStore: (local: CacheStore) => CacheStore;
  /** The deployment's hosted tool list as one replica last read it (JSON), so the others need not. */
  hostedList: { get(): Promise<string | undefined>; set(value: string, until: number): Promise<boolean> };
  /** Each caller's share of upstream requests, one across the replicas. */
  budget: (rate: Rate) => UpstreamBudget;
  /** Connected and answering right now. */
  ready(): boolean;
  close(): Promise<void>;
}

export async function connectSharedState(options: {
  url: string;
  apiOrigin: string;
  requestTimeoutMs: number;
  logger: Logger;
  connectWaitMs?: number;
}): Promise<SharedState> {
  const redis: SharedRedis = await connectRedis(options.url, options.logger, options.connectWaitMs);
  // Versioned, so a later layout of the keys never misreads this one's.
  const prefix = `service-mcp:v1:${options.apiOrigin}`;
  return {
    gate: new SharedRetryAfterGate({ redis, prefix, requestTimeoutMs: options.requestTimeoutMs }),
    cacheStore: (local) => sharedCacheStore(redis, local, prefix),
    hostedList: {
      get: () => redis.get(`${prefix}:hosted-tools`),
      set: (value, until) => redis.setUntil(`${prefix}:hosted-tools`, value, until),
    },
    budget: (rate) => new SharedBudget(redis, prefix, rate),
    ready: () => redis.ready(),
    close: () => redis.close(),
  };
}
