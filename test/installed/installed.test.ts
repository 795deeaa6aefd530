/**
 * The package as users install it, on every Node line it admits, live: the installed binary serves
 * `mock-api` on loopback and is driven against it by the SDK v2 client, every tool over stdio in
 * both protocol eras and over `serve --http` at both paths, from the fresh npm install and from the
 * unpacked `.mcpb` bundle. A smoke (a few calls a tool), not the suite again: the suite runs on the
 * lockfile's versions and one Node; this is what catches a dependency release or a Node line that
 * breaks what users run (`npm run test:installed`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lowestNode, nodeBinary, nodesToTest, prepareInstalls, type Installs } from './prepare.js';

const NODES = nodesToTest();
const LOWEST = lowestNode();
const ERAS = ['2026-07-28', '2025'] as const;
type Era = (typeof ERAS)[number];

let installs: Installs;
const binaries = new Map<string, string>();

beforeAll(() => {
  for (const version of NODES) binaries.set(version, nodeBinary(version));
  installs = prepareInstalls(binaries.get(LOWEST) ?? nodeBinary(LOWEST), inject('packed').tarball);
  process.stderr.write(
    `installed-package smoke on Node ${NODES.join(', ')}; the package bundles ${installs.bundled.join(', ')}\n`,
  );
}, 600_000);

afterAll(() => {
  if (installs) rmSync(installs.work, { recursive: true, force: true });
});

/** An environment without the developer's service-mcp or proxy settings, keeping hosted lists in the work folder. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('SERVICE_MCP_') && !/^(https?|no|all)_proxy$/i.test(key))
      env[key] = value;
  return { ...env, XDG_CACHE_HOME: join(installs.work, 'cache') };
}

interface Running {
  child: ChildProcess;
  /** The first http://127.0.0.1:port/… URL it printed. */
  url: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `node bin args…` and waits for the line that names where it listens. */
function start(node: string, bin: string, args: string[]): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [bin, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start: ${out} ${err}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        child,
        url,
        stderr: () => err,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}: ${err}`)));
  });
}

const clientFor = (era: Era) =>
  new Client(
    { name: `installed-smoke-${era}`, version: '0.0.0' },
    era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

const OWN = [
  'check_api_health',
  'discover_api',
  'get_company_interview_brief',
  'get_job',
  'get_market_map',
  'list_jobs',
  'search_jobs',
];
/** What mock-api's hosted market surface offers beyond our seven, bridged where the bridge is on. */
const BRIDGED = ['get_company_funding', 'get_compensation_benchmarks', 'list_frontier_ai_evidence'];

/**
 * Every tool, live, a call or two each, and one refusal the API itself makes (a job that is not
 * there); the hosted surface's tools too, one of them called through the bridge.
 */
async function everyTool(client: Client, bridged = true): Promise<void> {
  const expected = [...OWN, ...(bridged ? BRIDGED : [])].sort();
  // The first list waits for the hosted one only briefly (none kept from an earlier run), which a slow
  // machine may not keep: asked again until it is in (counted attempts, bounded by the test's timeout).
  let names: string[] = [];
  for (let attempt = 0; attempt < 100 && names.length < expected.length; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200));
    names = (await client.listTools()).tools.map((tool) => tool.name).sort();
  }
  expect(names).toEqual(expected);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
    expect(textOf(result)).toMatch(/source/i);
    return result;
  };
  await call('discover_api');
  const found = await call('search_jobs', { q: 'engineer', per_page: 3 });
  const jobs = (found.structuredContent as { data: { jobs: Array<{ job_id: string }> } }).data.jobs;
  expect(jobs.length).toBeGreaterThan(0);
  await call('list_jobs', { per_page: 2 });
  expect(textOf(await call('get_job', { job_id: jobs[0]!.job_id }))).toContain(jobs[0]!.job_id);
  await call('get_market_map');
  await call('get_company_interview_brief', { slug: 'northwind-neural' });
  await call('check_api_health');
  const missing = (await client.callTool({
    name: 'get_job',
    arguments: { job_id: 'no-such-job-0' },
  })) as CallToolResult;
  expect(missing.isError).toBe(true);
  expect(textOf(missing)).toMatch(/^not_found: /);
  const funding = (await client.callTool({
    name: 'get_company_funding',
    arguments: { company: 'northwind-neural' },
  })) as CallToolResult;
  expect(funding.isError, textOf(funding)).toBeFalsy();
  // Fiction first, by the deployment's word (mock-api's data is fictional), then the hosted answer.
  expect(textOf(funding)).toMatch(
    /^FICTIONAL sample data, by the deployment's own word: [^\n]*\nAnswer of the hosted tool get_company_funding/,
  );
  expect(textOf(funding)).toMatch(/Provenance: hosted tool get_company_funding at /);
}

it('a fresh install of the tarball resolves nothing: every dependency is bundled', () => {
  expect(installs.resolved).toEqual({});
  expect(installs.bundled.length).toBeGreaterThan(10);
});

describe.each(NODES)('Node %s', (version) => {
  describe.each([
    ['the fresh npm install', 'npmBin'],
    ['the unpacked .mcpb bundle', 'bundleBin'],
  ] as const)('%s', (_what, which) => {
    let api: Running;
    const node = () => binaries.get(version)!;
    const bin = () => installs[which];

    beforeAll(async () => {
      api = await start(node(), bin(), ['mock-api', '--port', '0']);
    }, 60_000);
    afterAll(() => api?.stop());

    it.each(ERAS)(
      'over stdio, era %s: every tool answers live, and stderr carries no warning',
      async (era) => {
        const client = clientFor(era);
        const transport = new StdioClientTransport({
          command: node(),
          args: [bin(), '--base-url', api.url],
          env: cleanEnv(),
          stderr: 'pipe',
        });
        let stderr = '';
        transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        await client.connect(transport);
        try {
          await everyTool(client);
        } finally {
          await client.close();
        }
        expect(stderr).not.toMatch(/Warning|Error|internal/);
      },
      120_000,
    );

    it('over serve --http, at /mcp and at the hosted path, in both eras', async () => {
      const server = await start(node(), bin(), ['serve', '--http', '--port', '0', '--base-url', api.url]);
      try {
        const origin = new URL(server.url).origin;
        for (const path of ['/mcp', '/api/public/v1/mcp']) {
          for (const era of ERAS) {
            const client = clientFor(era);
            await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}${path}`)));
            try {
              // The same tools at both paths, the bridged ones included.
              await everyTool(client);
            } finally {
              await client.close();
            }
          }
        }
      } finally {
        await server.stop();
      }
      expect(server.stderr()).not.toMatch(/Warning|Error|internal/);
    }, 180_000);
  });
});
