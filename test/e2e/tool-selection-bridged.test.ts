/**
 * `--tools` with the bridge on, as users run it (tool-selection.test.ts covers it with the bridge
 * off): a name that is neither ours nor bridged stops `tools`, `call`, stdio and `serve --http` with
 * exit 2, naming ours and the bridged ones, offline and against mock-api; a bridged name is taken.
 * When the hosted list cannot be read (failing, or hanging past the wait) a name that is not ours is
 * refused all the same, and the message says the bridged names are not known, and why.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/contract/tool-names.js';
import { MARKET_TOOLS } from './dataset.js';
import { names } from './bridged-names.js';
import { BIN, cleanEnv, connectStdio, ROOT, startMockApi, type MockApi } from './helpers.js';

const HOSTED_PATH = '/api/public/v1/mcp';
const COMMANDS = {
  tools: ['tools'],
  call: ['call', 'get_company_funding', '{"company":"northwind-neural"}'],
  stdio: [],
  'serve --http': ['serve', '--http', '--port', '0'],
} as const;
type CommandName = keyof typeof COMMANDS;
const NAMES = Object.keys(COMMANDS) as CommandName[];

const OURS = TOOL_NAMES.join(', ');
const REFUSED_WITH_BRIDGED = `--tools / SERVICE_MCP_TOOLS: "nope" is not a tool; the tools are ${OURS}, and bridged from the deployment's hosted surface: ${MARKET_TOOLS.join(', ')}\n`;

/** The bridge on (cleanEnv turns it off for the other e2e tests). */
const bridging = (extra: Record<string, string> = {}) => cleanEnv({ SERVICE_MCP_NO_BRIDGE: '0', ...extra });

interface Outcome {
  code: number | null | 'listening';
  stdout: string;
  stderr: string;
}

/**
 * Runs the binary to its exit, stdin at its end (stdio mode serves, then stops); a server that
 * prints its listening line instead is stopped and reported as "listening".
 */
function run(args: string[], env = bridging()): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let listening = false;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (listening || !/HTTP listening on /.test(stdout)) return;
      listening = true;
      child.kill('SIGTERM');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: listening ? 'listening' : code, stdout, stderr }));
  });
}

const runCommand = (command: CommandName, args: string[], env?: Record<string, string>) =>
  run([...args, ...COMMANDS[command]], env);

let api: MockApi;
let down: MockApi;
let silent: MockApi;
beforeAll(async () => {
  [api, down, silent] = await Promise.all([startMockApi(), startMockApi(), startMockApi()]);
  await down.setFaults([{ path: HOSTED_PATH, kind: 'unavailable' }]);
  await silent.setFaults([{ path: HOSTED_PATH, kind: 'hang' }]);
});
afterAll(() => Promise.all([api, down, silent].map((mock) => mock?.close())));

describe.each([
  ['offline', () => ['--offline']],
  ['against mock-api', () => ['--base-url', api.url, '--no-cache']],
])('--tools with the bridge on, %s', (_where, target) => {
  it.each(NAMES)('a name that is no tool stops %s with exit 2, naming ours and the bridged ones', async (command) => {
    const { code, stdout, stderr } = await runCommand(command, [...target(), '--tools', 'nope']);
    expect(stderr).toBe(`service-mcp: ${REFUSED_WITH_BRIDGED}`);
    expect(code).toBe(2);
    expect(stdout).toBe('');
  });

  it.each(NAMES)('a bridged name is taken by %s', async (command) => {
    const { code, stdout, stderr } = await runCommand(command, [
      ...target(),
      '--tools',
      'search_jobs,get_company_funding',
    ]);
    expect(stderr).not.toMatch(/not a tool|unknown tool/);
    expect(code).toBe(command === 'serve --http' ? 'listening' : 0);
    if (command === 'tools')
      expect(stdout.split('\n').map((line) => line.split(/\s+/)[0])).toEqual([
        'search_jobs',
        'get_company_funding',
        '',
      ]);
    if (command === 'call') expect(stdout).toMatch(/Northwind Neural: Seed/);
  });

  it('stdio serves once the hosted list is read, so its first tools/list has the bridged name', async () => {
    const session = await connectStdio([...target(), '--tools', 'search_jobs,get_company_funding'], bridging());
    try {
      expect(await names(session.client)).toEqual(['search_jobs', 'get_company_funding']);
    } finally {
      await session.close();
    }
  });
});

it('SERVICE_MCP_TOOLS is held to the same check', async () => {
  const { code, stderr } = await run(['--offline', 'tools'], bridging({ SERVICE_MCP_TOOLS: 'nope' }));
  expect(stderr).toBe(`service-mcp: ${REFUSED_WITH_BRIDGED}`);
  expect(code).toBe(2);
});

describe('--tools when the hosted list cannot be read: a name not ours stops the command, saying why', () => {
  it.each(NAMES)('a failing hosted surface stops %s, naming ours and the failure', async (command) => {
    const { code, stdout, stderr } = await runCommand(command, ['--base-url', down.url, '--tools', 'nope']);
    expect(stderr).toMatch(
      new RegExp(
        `^service-mcp: --tools / SERVICE_MCP_TOOLS: "nope" is not a tool; the tools are ${OURS}; the deployment's hosted tools could not be read \\(.*503.*\\), so bridged names are not known\\n$`,
      ),
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
  });

  it.each(NAMES)('a hosted surface that hangs stops %s once its wait is over', async (command) => {
    const { code, stdout, stderr } = await runCommand(command, [
      '--base-url',
      silent.url,
      '--timeout-ms',
      '1000',
      '--tools',
      'get_job,nope',
    ]);
    expect(stderr).toBe(
      `service-mcp: --tools / SERVICE_MCP_TOOLS: "nope" is not a tool; the tools are ${OURS}; the deployment's hosted tools could not be read within 1 s, so bridged names are not known\n`,
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
  });

  it('a bridged name is refused too while the list cannot be read (it cannot be told from a typo)', async () => {
    const { code, stderr } = await run(['--base-url', down.url, '--tools', 'get_company_funding', 'tools']);
    expect(stderr).toMatch(/"get_company_funding" is not a tool; .* so bridged names are not known\n$/);
    expect(code).toBe(2);
  });
});

it('`call` with a name not ours, while the hosted list cannot be read, says bridged names are not known', async () => {
  const { code, stdout, stderr } = await run(['--base-url', down.url, 'call', 'get_company_funding', '{}'], bridging());
  expect(stderr).toMatch(
    /^service-mcp: unknown tool "get_company_funding"; tools: search_jobs, .*; the deployment's hosted tools could not be read \(.*503.*\), so bridged names are not known\n$/,
  );
  expect(code).toBe(2);
  expect(stdout).toBe('');
});
