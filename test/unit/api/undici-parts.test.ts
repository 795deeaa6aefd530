/**
 * undici-parts.ts loads undici's files one by one, by paths that are not its documented API. Each
 * part must be the very object undici's index exports, or an undici update has moved something.
 */
import { createRequire } from 'node:module';
import * as undici from 'undici';
import { describe, expect, it } from 'vitest';
import { Agent, cacheStores, interceptors, loadEnvHttpProxyAgent, loadUndici, RedirectHandler } from '../../../src/api/undici-parts.js';

const pkg = createRequire(import.meta.url)('../../../package.json') as { dependencies: Record<string, string> };

describe('the undici parts', () => {
  it('are the objects undici exports', () => {
    expect(Agent).toBe(undici.Agent);
    expect(RedirectHandler).toBe(undici.RedirectHandler);
    expect(interceptors.cache).toBe(undici.interceptors.cache);
    expect(cacheStores.MemoryCacheStore).toBe(undici.cacheStores.MemoryCacheStore);
    expect(loadEnvHttpProxyAgent()).toBe(undici.EnvHttpProxyAgent);
    expect(loadUndici().Headers).toBe(undici.Headers);
  });

  it('come from an undici pinned to one version, since the paths are not its public API', () => {
    expect(pkg.dependencies.undici).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
