/**
 * Redis's state where an operator and a model look: the `service_mcp_redis_up` gauge and
 * check_api_health's `server.redis`, 1/connected while a real redis-server answers and 0/unreachable
 * once it is killed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startMockApi, textOf, type MockApi } from '../helpers.js';
import { connectHttp, startHttpServer } from '../http-helpers.js';
import { startRedis } from '../redis-helpers.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await api?.close();
});

const redisUp = async (port: number) => {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return /^service_mcp_redis_up(?:\{[^}]*\})? (\d+)$/m.exec(text)?.[1];
};

describe('Redis state', () => {
  it('is 1 and connected while Redis answers, 0 and unreachable once it is gone', async () => {
    const redis = await startRedis();
    const metricsPort = await closedPort();
    const server = await startHttpServer([
      '--base-url',
      api.url,
      '--redis-url',
      redis.url,
      '--metrics-port',
      String(metricsPort),
    ]);
    const session = await connectHttp(server.url);
    try {
      expect(await redisUp(metricsPort)).toBe('1');
      const up = await session.client.callTool({ name: 'check_api_health', arguments: {} });
      expect((up.structuredContent as { server: { redis?: { connected: boolean } } }).server.redis).toEqual({
        connected: true,
      });
      expect(textOf(up)).toContain('Redis (shared cool-down and cache): connected.');
      expect(JSON.stringify(up.structuredContent)).not.toContain(redis.url);

      await redis.kill();
      // The client notices the lost connection on its own schedule; poll with a wide bound for a loaded machine.
      await expect.poll(() => redisUp(metricsPort), { timeout: 15_000 }).toBe('0');
      const down = await session.client.callTool({ name: 'check_api_health', arguments: {} });
      expect((down.structuredContent as { server: { redis?: { connected: boolean } } }).server.redis).toEqual({
        connected: false,
      });
    } finally {
      await session.close();
      await server.stop();
      await redis.kill();
    }
  });
});
