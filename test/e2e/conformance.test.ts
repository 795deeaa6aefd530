/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against the built
 * binary's `serve --http`. Only the scenarios that apply run: the others test fixture tools and
 * prompts of the SDKs' "everything" servers (test_simple_text, test://static-text, ...), which a
 * product server does not have.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv } from './helpers.js';
import { startHttpServer, type HttpServerProcess } from './http-helpers.js';

const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'dns-rebinding-protection',
  'logging-set-level',
  'resources-list',
  'prompts-list',
  'completion-complete',
] as const;

const CLI = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/package.json')), 'dist/index.js');

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

let server: HttpServerProcess;
let outDir: string;
const results = new Map<string, { code: number | null; output: string; checks: Check[] }>();

function runScenario(scenario: string, url: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'server', '--url', url, '--scenario', scenario, '-o', join(outDir, scenario)], { cwd: outDir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function checksOf(scenario: string): Promise<Check[]> {
  const dir = join(outDir, scenario);
  const runs = await readdir(dir);
  const checks: Check[] = [];
  for (const run of runs) checks.push(...(JSON.parse(await readFile(join(dir, run, 'checks.json'), 'utf8')) as Check[]));
  return checks;
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'service-mcp-conformance-'));
  server = await startHttpServer(['--offline']);
  // In parallel: each scenario is its own client with its own requests, as a stateless server expects.
  await Promise.all(
    SCENARIOS.map(async (scenario) => {
      const run = await runScenario(scenario, server.url);
      results.set(scenario, { ...run, checks: await checksOf(scenario).catch(() => []) });
    }),
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('MCP conformance (server scenarios that apply)', () => {
  it.each(SCENARIOS)('%s passes', (scenario) => {
    const result = results.get(scenario)!;
    const failed = result.checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage}`);
    expect(failed, result.output).toEqual([]);
    expect(result.checks.length, result.output).toBeGreaterThan(0);
    expect(result.checks.every((c) => c.status === 'SUCCESS')).toBe(true);
    expect(result.code, result.output).toBe(0);
  });
});
