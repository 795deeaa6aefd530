/** The `tools`, `call`, `--version` and `--help` commands of the built binary, and their exit codes. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { activeJob, inactiveJob } from './dataset.js';
import { spawn } from 'node:child_process';
import { BIN, cleanEnv, ROOT, runCli } from './helpers.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('service-mcp CLI', () => {
  it('--version prints the package version', async () => {
    const { code, stdout } = await runCli(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(pkg.version);
  });

  it('--help shows commands, options with their env vars, and examples', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const text of [
      'tools',
      'call',
      'mock-api',
      'serve',
      '--base-url',
      'SERVICE_MCP_BASE_URL',
      '--no-cache',
      'Examples:',
    ])
      expect(stdout).toContain(text);
    expect(stdout.replace(/\s+/g, ' ')).toContain('[env SERVICE_MCP_TIMEOUT_MS, default 15000]');
  });

  it('tools lists one line per tool; --json gives the full definitions', async () => {
    const plain = await runCli(['tools']);
    expect(plain.code).toBe(0);
    expect(plain.stdout.trim().split('\n')).toHaveLength(7);
    const json = await runCli(['tools', '--json']);
    const tools = JSON.parse(json.stdout) as Array<{
      name: string;
      inputSchema: unknown;
      outputSchema: unknown;
      annotations: unknown;
    }>;
    expect(tools.map((t) => t.name)).toContain('search_jobs');
    expect(tools.every((t) => t.inputSchema && t.outputSchema && t.annotations)).toBe(true);
  });

  it('call prints the text result and exits 0 (offline when no base URL is set)', async () => {
    const { code, stdout, stderr } = await runCli(['call', 'get_job', JSON.stringify({ job_id: activeJob.job_id })]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(activeJob.job_id);
    expect(stdout).toMatch(/^FICTIONAL sample data, by the API's own word: [^\n]*\n/);
    expect(stdout).toMatch(/ · reached: embedded · fictional: yes\n$/);
  });

  it('call --json prints the whole result', async () => {
    const { code, stdout } = await runCli(['call', 'search_jobs', '{"per_page":2}', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as {
      structuredContent: { data: { jobs: unknown[] }; provenance: { reached: string; fictional: boolean } };
    };
    expect(result.structuredContent.data.jobs).toHaveLength(2);
    expect(result.structuredContent.provenance).toMatchObject({ reached: 'embedded', fictional: true });
  });

  it('a tool error prints its text and exits 1', async () => {
    const notFound = await runCli(['call', 'get_job', JSON.stringify({ job_id: inactiveJob.job_id })]);
    expect(notFound.code).toBe(1);
    expect(notFound.stdout).toMatch(/^not_found: /);
    const invalid = await runCli(['call', 'search_jobs', '{"per_page":0}']);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toMatch(/^invalid_argument: per_page/);
  });

  it.each([
    [['call', 'nope'], /unknown tool "nope"/],
    [['call', 'search_jobs', '{bad json'], /json-args is not valid JSON/],
    [['call', 'search_jobs', '[1]'], /json-args must be a JSON object/],
    [['--timeout-ms', 'abc', 'tools'], /--timeout-ms \/ SERVICE_MCP_TIMEOUT_MS: "abc"/],
    [['--base-url', 'ftp://x', 'tools'], /--base-url \/ SERVICE_MCP_BASE_URL: .* must be an absolute http\(s\) URL/],
    [['no-such-command'], /unknown command|too many arguments/],
  ])('bad usage %j exits 2 with a message on stderr', async (args, message) => {
    const { code, stderr, stdout } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });

  it('a reader closing the pipe early (`| head`) is not a crash', async () => {
    const child = spawn(process.execPath, [BIN, 'call', 'search_jobs', '{"per_page":100}', '--json'], {
      env: cleanEnv(),
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/EPIPE|Error/);
    expect(code).toBe(0);
  });

  it('environment variables configure it, and flags win over them', async () => {
    const env = cleanEnv({ SERVICE_MCP_TIMEOUT_MS: 'soon' });
    expect((await runCli(['tools'], env)).code).toBe(2);
    expect((await runCli(['--timeout-ms', '1000', 'tools'], env)).code).toBe(0);
  });
});
