/**
 * Nothing when off: without the OTel variables and --metrics-port, no OpenTelemetry code is
 * loaded. A `--import` hook given to node records every module URL resolved in the process and
 * prints them at exit; the bundle's metafile says which OpenTelemetry packages those chunks hold
 * (bundled.ts). With telemetry on, the same hook sees them (so it works).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeJob } from '../dataset.js';
import { packagesLoaded } from '../bundled.js';
import { cleanEnv, closedPort, runCli, startMockApi, type MockApi } from '../helpers.js';

const HOOK = `import { registerHooks } from 'node:module';
const seen = new Set();
registerHooks({ resolve(specifier, context, next) { const result = next(specifier, context); seen.add(result.url); return result; } });
process.on('exit', () => process.stderr.write('loaded-modules: ' + JSON.stringify([...seen]) + '\\n'));
`;

let api: MockApi;
let dir: string;
let hook: string;
beforeAll(async () => {
  api = await startMockApi();
  dir = await mkdtemp(join(tmpdir(), 'service-mcp-modules-'));
  await writeFile(join(dir, 'hook.mjs'), HOOK);
  hook = pathToFileURL(join(dir, 'hook.mjs')).href;
});
afterAll(async () => {
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A stdio session of initialize, tools/list and a live get_job; stdin then ends and the server exits. */
const SESSION = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'modules', version: '0' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_job', arguments: { job_id: activeJob.job_id } } },
]
  .map((message) => JSON.stringify(message))
  .join('\n');

async function loaded(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const run = await runCli(['--base-url', api.url, ...args], cleanEnv(env), `${SESSION}\n`, ['--import', hook]);
  expect(run.stdout).toContain('"id":3');
  const line = /^loaded-modules: (.*)$/m.exec(run.stderr);
  expect(line, run.stderr).not.toBeNull();
  return packagesLoaded(JSON.parse(line![1]!) as string[]).filter((name) => name.startsWith('@opentelemetry/'));
}

describe('telemetry off', () => {
  it('loads no OpenTelemetry module for a whole stdio session with a live call', async () => {
    expect(await loaded([])).toEqual([]);
  });

  it('OTEL_TRACES_EXPORTER=none, or variables without an endpoint, load nothing either', async () => {
    expect(
      await loaded([], { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_TRACES_EXPORTER: 'none' }),
    ).toEqual([]);
    expect(await loaded([], { OTEL_SERVICE_NAME: 'x', OTEL_RESOURCE_ATTRIBUTES: 'a=b' })).toEqual([]);
  });

  it('the same hook sees them when asked for; metrics alone load no tracing package, and http/json no protobuf exporter', async () => {
    const metrics = await loaded(['--metrics-port', String(await closedPort())]);
    expect(metrics).toEqual(
      expect.arrayContaining([
        '@opentelemetry/api',
        '@opentelemetry/sdk-metrics',
        '@opentelemetry/exporter-prometheus',
      ]),
    );
    expect(metrics).not.toContain('@opentelemetry/sdk-trace-base');
    const traces = await loaded([], {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await closedPort()}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    });
    expect(traces).toEqual(
      expect.arrayContaining([
        '@opentelemetry/api',
        '@opentelemetry/sdk-trace-base',
        '@opentelemetry/exporter-trace-otlp-http',
      ]),
    );
    expect(traces).not.toContain('@opentelemetry/exporter-trace-otlp-proto');
  });
});
