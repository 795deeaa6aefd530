/**
 * Catalog-aware tools through the built binary, against a real loopback API that records every
 * request: a deployment whose discovery omits an endpoint gets `not_deployed` for its tool with
 * nothing sent there, discover_api shows the map of tools to endpoints, a discovery that is
 * rate limited or hangs does not hold the tools, and the server reads the catalog as it starts, so
 * that a first call sends one request, its own.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { activeJob } from './dataset.js';
import { cleanEnv, connectStdio, freshCacheHome, runCli, textOf, type StdioSession } from './helpers.js';
import { startRecordingApi, type RecordingApi } from './recording-api.js';

const DISCOVERY = '/api/public/v1';
const pathsSeen = (api: RecordingApi) => api.seen.map((request) => new URL(request.url).pathname);
const call = async (session: StdioSession, name: string, args: Record<string, unknown> = {}) =>
  (await session.client.callTool({ name, arguments: args })) as CallToolResult;

describe('a deployment whose catalog lacks the market map and lists an endpoint we have no tool for', () => {
  let api: RecordingApi;
  let session: StdioSession;
  beforeAll(async () => {
    api = await startRecordingApi({
      endpoints: (endpoints) => [
        ...endpoints.filter((e) => e.path !== '/api/public/v1/market-map'),
        { path: '/api/public/v1/salaries/benchmarks', method: 'GET', description: 'Salary benchmarks by role.' },
      ],
    });
    session = await connectStdio(['--base-url', api.url, '--no-cache']);
  });
  afterAll(async () => {
    await session?.close();
    await api?.close();
  });

  it('get_market_map answers not_deployed at once, naming the operation and what is listed, and nothing is sent to it', async () => {
    const result = await call(session, 'get_market_map');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^not_deployed: the deployed catalog \(GET \/api\/public\/v1\) does not list GET \/api\/public\/v1\/market-map \(getPublicMarketMap\), so nothing was sent to it; it lists "GET \/api\/public\/v1", /,
    );
    expect(textOf(result)).toMatch(/\nHint: This deployment of the API does not offer that operation.*discover_api/);
    expect(pathsSeen(api)).toEqual([DISCOVERY]);
  });

  it('the tools it does list work, checked, without reading discovery again', async () => {
    const result = await call(session, 'get_job', { job_id: activeJob.job_id });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((result.structuredContent as { provenance: { catalog: unknown } }).provenance.catalog).toEqual({
      checked: true,
    });
    expect(pathsSeen(api).filter((p) => p === DISCOVERY)).toHaveLength(1);
  });

  it('discover_api shows which tool serves each endpoint, the endpoints no tool serves, and the tools not deployed', async () => {
    const result = await call(session, 'discover_api');
    const text = textOf(result);
    // A tool's endpoint names the tool, which describes it; the API's words describe the others.
    expect(text).toMatch(/^- GET \/api\/public\/v1\/search\/jobs → search_jobs$/m);
    expect(text).toMatch(/^- GET \/api\/public\/v1\/salaries\/benchmarks: "Salary benchmarks by role\."/m);
    expect(text).toMatch(
      /^Not deployed here \(these tools answer not_deployed\): get_market_map \(GET \/api\/public\/v1\/market-map\)$/m,
    );
    const coverage = (
      result.structuredContent as {
        coverage: { endpoints: Array<{ path: string; tool: string | null }>; tools_not_deployed: unknown };
      }
    ).coverage;
    expect(coverage.endpoints).toContainEqual({
      method: 'GET',
      path: '/api/public/v1/salaries/benchmarks',
      tool: null,
    });
    expect(coverage.endpoints).toContainEqual({ method: 'GET', path: '/api/public/v1/jobs/{jobId}', tool: 'get_job' });
    expect(coverage.tools_not_deployed).toEqual([
      { tool: 'get_market_map', operation: 'GET /api/public/v1/market-map' },
    ]);
  });
});

describe('when discovery cannot be read', () => {
  let api: RecordingApi;
  beforeAll(async () => {
    api = await startRecordingApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  it.each([
    ['rate limited (429, Retry-After 600)', { kind: 'rate_limit', retryAfter: 600 }, 'rate_limited'],
    ['hanging', { kind: 'hang' }, 'timeout'],
  ] as const)(
    '%s: the tools carry on (within the request timeout at worst) and say the catalog was not checked',
    async (_what, fault, kind) => {
      api.engine.faults.set([{ path: DISCOVERY, ...fault }]);
      api.seen.length = 0;
      const session = await connectStdio(
        ['--base-url', api.url, '--no-cache', '--timeout-ms', '1000', '--max-retry-wait-s', '0'],
        cleanEnv(),
      );
      try {
        for (const job of [activeJob.job_id, activeJob.job_id]) {
          const result = await call(session, 'get_job', { job_id: job });
          expect(result.isError, textOf(result)).toBeFalsy();
          expect(textOf(result)).toMatch(
            new RegExp(` · deployed catalog not checked: discovery failed \\(${kind}\\)$`),
          );
          expect((result.structuredContent as { provenance: { catalog: unknown } }).provenance.catalog).toEqual({
            checked: false,
            reason: `discovery failed (${kind})`,
          });
        }
        // One read of discovery, not one per call; the tools' own requests all went.
        expect(pathsSeen(api)).toEqual([
          DISCOVERY,
          `/api/public/v1/jobs/${activeJob.job_id}`,
          `/api/public/v1/jobs/${activeJob.job_id}`,
        ]);
      } finally {
        await session.close();
        api.engine.faults.clear();
      }
    },
  );
});

describe('the deployed catalog, read as the server starts', () => {
  let recording: RecordingApi;
  beforeAll(async () => {
    recording = await startRecordingApi();
  });
  afterAll(() => recording?.close());

  it('leaves a first call one upstream request, its own, checked against it', async () => {
    const session = await connectStdio(['--base-url', recording.url, '--no-cache']);
    onTestFinished(() => session.close());
    const paths = () => recording.seen.map((request) => new URL(request.url).pathname);
    // Nothing was called yet: the read is the server's own, started with it.
    await expect.poll(paths).toEqual(['/api/public/v1']);
    const result = (await session.client.callTool({
      name: 'get_job',
      arguments: { job_id: activeJob.job_id },
    })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(paths()).toEqual(['/api/public/v1', `/api/public/v1/jobs/${activeJob.job_id}`]);
    expect((result.structuredContent as { provenance: { catalog: unknown } }).provenance.catalog).toEqual({
      checked: true,
    });
  });

  it('is kept for the next run in the cache directory, which reads no discovery while it is fresh (mock-api: a minute)', async () => {
    const env = cleanEnv({ XDG_CACHE_HOME: freshCacheHome() });
    const args = [
      '--base-url',
      recording.url,
      '--no-cache',
      'call',
      'get_job',
      JSON.stringify({ job_id: activeJob.job_id }),
    ];
    const paths = () => recording.seen.map((request) => new URL(request.url).pathname);
    const job = `/api/public/v1/jobs/${activeJob.job_id}`;
    recording.seen.length = 0;
    expect((await runCli(args, env)).code).toBe(0);
    expect(paths()).toEqual(['/api/public/v1', job]);
    const next = await runCli([...args, '--json'], env);
    expect(next.code, next.stderr).toBe(0);
    expect(paths()).toEqual(['/api/public/v1', job, job]);
    expect(
      (JSON.parse(next.stdout) as { structuredContent: { provenance: { catalog: unknown } } }).structuredContent
        .provenance.catalog,
    ).toEqual({ checked: true });
    const health = await runCli(['--base-url', recording.url, 'call', 'check_api_health'], env);
    expect(health.stdout).toMatch(
      /^- Deployed catalog: checked at \S+ by an earlier run, kept in the user's cache directory\.$/m,
    );
  });
});
