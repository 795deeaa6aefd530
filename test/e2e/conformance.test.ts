/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against the built
 * binary's `serve --http --offline`, at both protocol eras. Only the scenarios that apply to a
 * read-only server run: the others test the fixture tools, prompts and resources of the SDKs'
 * "everything" servers (test_simple_text, test://static-text, ...), which a product server does
 * not have. Where a scenario that applies still has checks that need such a fixture, those checks
 * are listed below as expected failures, with the fixture they need; nothing else may fail.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv } from './helpers.js';
import { startHttpServer, type HttpServerProcess } from './http-helpers.js';

const SCENARIOS = {
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'resources-list',
    'prompts-list',
    'completion-complete',
    'caching',
    'dns-rebinding-protection',
    'sep-2164-resource-not-found',
    'input-required-result-unsupported-methods',
    'http-header-validation',
  ],
  '2025-11-25': [
    'server-initialize',
    'ping',
    'tools-list',
    'dns-rebinding-protection',
    'logging-set-level',
    'resources-list',
    'prompts-list',
    'completion-complete',
  ],
} as const;

type SpecVersion = keyof typeof SCENARIOS;

/** Checks that can only pass against the suite's own fixture server, by check id, with why. */
const EXPECTED_FAILURES: Record<string, string> = {
  'sep-2575-server-rejects-undeclared-capability': "needs the fixture tool 'test_missing_capability'",
  'sep-2575-missing-capability-http-400': "needs the fixture tool 'test_missing_capability'",
  'sep-2575-http-server-no-independent-requests-on-stream': "needs the fixture tool 'test_streaming_elicitation'",
  'sep-2575-server-no-log-without-loglevel': "needs the fixture tool 'test_logging_tool'",
  'completion-complete': "needs the fixture prompt 'test_prompt_with_arguments'",
};

const CLI = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')),
  'dist/index.js',
);
/** Scenarios run at once: each is its own client process, as a stateless server expects; more would only queue on 2 cores. */
const PARALLEL = 4;

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

let server: HttpServerProcess;
let outDir: string;
const results = new Map<string, { code: number | null; output: string; checks: Check[] }>();
const runs = (Object.keys(SCENARIOS) as SpecVersion[]).flatMap((version) =>
  SCENARIOS[version].map((scenario) => [version, scenario] as const),
);

function runScenario(
  version: SpecVersion,
  scenario: string,
  url: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const args = [
      CLI,
      'server',
      '--url',
      url,
      '--scenario',
      scenario,
      '--spec-version',
      version,
      '-o',
      join(outDir, version, scenario),
    ];
    const child = spawn(process.execPath, args, { cwd: outDir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function checksOf(version: SpecVersion, scenario: string): Promise<Check[]> {
  const dir = join(outDir, version, scenario);
  const checks: Check[] = [];
  for (const run of await readdir(dir))
    checks.push(...(JSON.parse(await readFile(join(dir, run, 'checks.json'), 'utf8')) as Check[]));
  return checks;
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'service-mcp-conformance-'));
  server = await startHttpServer(['--offline']);
  const queue = [...runs];
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [version, scenario] = next;
        const run = await runScenario(version, scenario, server.url);
        results.set(`${version} ${scenario}`, { ...run, checks: await checksOf(version, scenario).catch(() => []) });
      }
    }),
  );
}, 240_000);

afterAll(async () => {
  await server?.stop();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('MCP conformance (server scenarios that apply), at 2026-07-28 and 2025-11-25', () => {
  it.each(runs)('%s %s passes but for the checks that need the suite’s fixtures', (version, scenario) => {
    const result = results.get(`${version} ${scenario}`)!;
    expect(result.checks.length, result.output).toBeGreaterThan(0);
    const failed = result.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    const unexpected = failed.filter((c) => !(c.id in EXPECTED_FAILURES)).map((c) => `${c.id}: ${c.errorMessage}`);
    expect(unexpected, result.output).toEqual([]);
    expect(result.checks.some((c) => c.status === 'SUCCESS')).toBe(true);
  });

  it('lists as expected only checks that do fail here (a fixed one leaves the list)', () => {
    const failing = new Set(
      [...results.values()].flatMap((r) => r.checks.filter((c) => c.status === 'FAILURE').map((c) => c.id)),
    );
    expect(Object.keys(EXPECTED_FAILURES).filter((id) => !failing.has(id))).toEqual([]);
  });
});
