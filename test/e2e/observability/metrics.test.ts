/**
 * Metrics, end to end: `--metrics-port` serves Prometheus text at GET /metrics on its own
 * listener, in stdio and HTTP mode alike. Debian's promtool checks the exposition, and a real
 * Prometheus server (`.ci/run` installs the package) scrapes a running `serve --http` and answers
 * a query for get_job's call count.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeJob } from '../dataset.js';
import { cleanEnv, closedPort, connectStdio, startMockApi, type MockApi } from '../helpers.js';
import { connectHttp, startHttpServer } from '../http-helpers.js';

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterAll(async () => {
  await api?.close();
});

async function scrape(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return response.text();
}

/** The sample of `name` whose labels include all of `labels`, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

function promtool(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) =>
      reject(
        new Error(
          `promtool could not be run (is Debian's prometheus package installed? .ci/run installs it): ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(text);
  });
}

describe('--metrics-port over HTTP', () => {
  it('exposes the operation histogram, API requests, Retry-After waits, cache hits and calls in flight; promtool finds nothing to report', async () => {
    const metricsPort = await closedPort();
    const server = await startHttpServer(['--base-url', api.url, '--metrics-port', String(metricsPort)]);
    const session = await connectHttp(server.url);
    try {
      for (let i = 0; i < 2; i++)
        await session.client.callTool({ name: 'get_job', arguments: { job_id: activeJob.job_id } });
      await session.client.callTool({ name: 'get_job', arguments: { job_id: 'job_absent_0000' } });
      await api.setFaults([{ path: '/api/public/v1/market-map', kind: 'rate_limit', retryAfter: 1, times: 1 }]);
      await session.client.callTool({ name: 'get_market_map', arguments: {} });
      await api.clearFaults();
      const text = await scrape(metricsPort);

      const getJob = { mcp_method_name: 'tools/call', gen_ai_tool_name: 'get_job' };
      expect(text).toContain('# TYPE mcp_server_operation_duration histogram');
      const buckets = [
        ...text.matchAll(/^mcp_server_operation_duration_bucket\{[^}]*gen_ai_tool_name="get_job"[^}]*le="([^"]+)"\}/gm),
      ].map((m) => m[1]);
      expect(buckets.slice(0, 15)).toEqual([
        '0.01',
        '0.02',
        '0.05',
        '0.1',
        '0.2',
        '0.5',
        '1',
        '2',
        '5',
        '10',
        '30',
        '60',
        '120',
        '300',
        '+Inf',
      ]);
      const succeeded = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('mcp_server_operation_duration_count{') &&
            l.includes('gen_ai_tool_name="get_job"') &&
            !l.includes('error_type='),
        );
      expect(Number(succeeded?.split(' ').at(-1))).toBe(2);
      expect(sample(text, 'mcp_server_operation_duration_count', { ...getJob, error_type: 'not_found' })).toBe(1);
      expect(sample(text, 'mcp_server_operation_duration_sum', getJob)).toBeGreaterThan(0);
      expect(
        sample(text, 'http_client_request_duration_count', {
          service_mcp_operation: 'getPublicJob',
          http_response_status_code: '200',
        }),
      ).toBe(1);
      expect(
        sample(text, 'http_client_request_duration_count', {
          service_mcp_operation: 'getPublicJob',
          http_response_status_code: '404',
        }),
      ).toBe(1);
      expect(
        sample(text, 'http_client_request_duration_count', {
          service_mcp_operation: 'getPublicMarketMap',
          http_response_status_code: '429',
        }),
      ).toBe(1);
      expect(sample(text, 'service_mcp_cache_hits_total', { service_mcp_operation: 'getPublicJob' })).toBe(1);
      expect(sample(text, 'service_mcp_cache_misses_total', { service_mcp_operation: 'getPublicJob' })).toBe(2);
      expect(sample(text, 'service_mcp_retry_after_waits_total')).toBe(1);
      expect(sample(text, 'service_mcp_retry_after_wait_seconds_total')).toBe(1);
      expect(sample(text, 'service_mcp_calls_in_flight', { mcp_method_name: 'tools/call' })).toBe(0);
      expect(text).not.toContain('service_mcp_redis_up'); // no --redis-url

      expect(await promtool(text)).toEqual({ code: 0, output: '' });
      // Its own listener: the MCP port does not serve it, and the metrics port serves nothing else.
      expect((await fetch(`${server.origin}/metrics`)).status).not.toBe(200);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/mcp`)).status).toBe(404);
    } finally {
      await session.close();
      await server.stop();
    }
  });

  it('a real Prometheus server scrapes serve --http and answers a query for get_job calls', async () => {
    const metricsPort = await closedPort();
    const server = await startHttpServer(['--base-url', api.url, '--metrics-port', String(metricsPort)]);
    const session = await connectHttp(server.url);
    const dir = await mkdtemp(join(tmpdir(), 'service-mcp-prometheus-'));
    const webPort = await closedPort();
    const config = [
      'global:',
      '  scrape_interval: 1s',
      'scrape_configs:',
      '  - job_name: service-mcp',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${metricsPort}']`,
      '',
    ].join('\n');
    await writeFile(join(dir, 'prometheus.yml'), config);
    const prometheus = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${webPort}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    prometheus.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const exited = new Promise<void>((done) => prometheus.once('close', () => done()));
    try {
      for (let i = 0; i < 3; i++)
        await session.client.callTool({ name: 'get_job', arguments: { job_id: activeJob.job_id } });
      const query = encodeURIComponent('sum(mcp_server_operation_duration_count{gen_ai_tool_name="get_job"})');
      let value: string | undefined;
      // Polls until Prometheus has scraped (1 s interval); the test's own timeout bounds it.
      while (value === undefined) {
        if (prometheus.exitCode !== null) throw new Error(`prometheus exited: ${log}`);
        // Until its storage is ready Prometheus answers 503 "Service Unavailable" (not JSON): not yet.
        const answer = await fetch(`http://127.0.0.1:${webPort}/api/v1/query?query=${query}`).then(
          (r) => (r.ok ? (r.json() as Promise<{ data?: { result?: Array<{ value: [number, string] }> } }>) : undefined),
          () => undefined,
        );
        value = answer?.data?.result?.[0]?.value[1];
        if (value === undefined) await new Promise((done) => setTimeout(done, 200));
      }
      expect(value).toBe('3');
    } finally {
      prometheus.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
      await session.close();
      await server.stop();
    }
  });
});

describe('--metrics-port over stdio', () => {
  it('serves the same metrics beside a stdio session', async () => {
    const metricsPort = await closedPort();
    const session = await connectStdio(
      ['--base-url', api.url],
      cleanEnv({ SERVICE_MCP_METRICS_PORT: String(metricsPort) }),
    );
    try {
      await session.client.callTool({ name: 'get_job', arguments: { job_id: activeJob.job_id } });
      const text = await scrape(metricsPort);
      expect(
        sample(text, 'mcp_server_operation_duration_count', { gen_ai_tool_name: 'get_job', network_transport: 'pipe' }),
      ).toBe(1);
      expect(sample(text, 'mcp_server_operation_duration_count', { mcp_method_name: 'initialize' })).toBe(1);
    } finally {
      await session.close();
    }
  });

  it('a metrics port already taken is bad usage (exit 2), named', async () => {
    const metricsPort = await closedPort();
    const first = await connectStdio(['--offline', '--metrics-port', String(metricsPort)]);
    try {
      const { runCli } = await import('../helpers.js');
      const second = await runCli(['--offline', '--metrics-port', String(metricsPort)]);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain('--metrics-port');
    } finally {
      await first.close();
    }
  });
});
