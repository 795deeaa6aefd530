/**
 * check_api_health explains the server too: a cool-down running and until when, the last 429,
 * the catalog check, the cache's hits since start, calls in flight, and the versions; in text and
 * in structuredContent, within the tool's output schema, and with no secret in either.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputSchemaOf } from '../../../src/tools/run.js';
import { findTool } from '../../helpers/tools.js';
import { activeJob } from '../dataset.js';
import { closedPort, connectStdio, startMockApi, textOf, type MockApi } from '../helpers.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await api?.close();
});

type Server = {
  version: string;
  node: string;
  calls_in_flight: number;
  rate_limit: { cool_down_until?: string; last_429_at?: string; last_retry_after_s?: number };
  catalog?: { checked: boolean; at?: string };
  cache: { answers: number; hits: number; hit_ratio?: number };
  redis?: { connected: boolean };
};

describe('check_api_health: this server', () => {
  it('reports a running cool-down, the last 429, the catalog check, cache hits and versions', async () => {
    const session = await connectStdio(['--base-url', `${api.url}/`, '--max-retry-wait-s', '0']);
    try {
      const quiet = await session.client.callTool({ name: 'check_api_health', arguments: {} });
      const before = (quiet.structuredContent as { server: Server }).server;
      expect(before.rate_limit).toEqual({});
      expect(textOf(quiet)).toContain('no Retry-After cool-down running; no 429 since start');

      for (let i = 0; i < 2; i++)
        await session.client.callTool({ name: 'get_job', arguments: { job_id: activeJob.job_id } });
      await api.setFaults([{ path: '/api/public/v1/market-map', kind: 'rate_limit', retryAfter: 30, times: 1 }]);
      const limited = await session.client.callTool({ name: 'get_market_map', arguments: {} });
      await api.clearFaults();
      expect(textOf(limited)).toMatch(/^rate_limited: /);

      const health = await session.client.callTool({ name: 'check_api_health', arguments: {} });
      expect(health.isError).toBeFalsy();
      const structured = outputSchemaOf(findTool('check_api_health')!).parse(health.structuredContent) as unknown as {
        server: Server;
      };
      const server = structured.server;
      expect(server).toMatchObject({
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        node: process.version,
        calls_in_flight: 1,
        catalog: { checked: true, at: expect.any(String) },
      });
      expect(server.rate_limit.last_retry_after_s).toBe(30);
      expect(Date.parse(server.rate_limit.cool_down_until!)).toBeGreaterThan(
        Date.parse(server.rate_limit.last_429_at!),
      );
      expect(server.cache.hits).toBe(1);
      expect(server.cache.answers).toBeGreaterThanOrEqual(4);
      expect(server.cache.hit_ratio).toBeCloseTo(server.cache.hits / server.cache.answers, 2);
      expect(server.redis).toBeUndefined();
      const text = textOf(health);
      expect(text).toContain(`Retry-After cool-down running until ${server.rate_limit.cool_down_until}`);
      expect(text).toContain(`last 429 at ${server.rate_limit.last_429_at} (Retry-After 30 s)`);
      expect(text).toContain(`Deployed catalog: checked at ${server.catalog!.at}`);
      expect(text).toMatch(/Cache: 1 of \d+ API answers since start from the response cache/);
      expect(text).toContain(`Node ${process.version}`);
      expect(JSON.stringify(server)).not.toContain('127.0.0.1'); // no address, no credential: only states and times
    } finally {
      await session.close();
    }
  });
});

describe('check_api_health when the API is the problem', () => {
  it('unreachable: the first line says the API did not answer, and this server section follows', async () => {
    const session = await connectStdio(['--base-url', `http://127.0.0.1:${await closedPort()}`]);
    try {
      const result = await session.client.callTool({ name: 'check_api_health', arguments: {} });
      expect(result.isError).toBe(true);
      const lines = textOf(result).split('\n');
      expect(lines[0]).toMatch(
        /^network: the API did not answer \(the problem is the API, or the way to it, not this server\): .*ECONNREFUSED/,
      );
      expect(lines.slice(2).join('\n')).toMatch(
        /^This server \(service-mcp \d+\.\d+\.\d+[^)]*, Node v\d+[^)]*\): 1 tool call\(s\) in flight, this one included\.\n- Rate limit: no Retry-After cool-down running; no 429 since start\.\n- Deployed catalog: not read yet; last read failed: /,
      );
    } finally {
      await session.close();
    }
  });
});
