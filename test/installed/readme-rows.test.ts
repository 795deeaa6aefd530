/**
 * Every row of the README's "How the server is started" table, run as written: its `command` and
 * `args` (the `/path/to/…` placeholders replaced) started by the SDK's stdio client, as an MCP
 * client would, and driven through a tool call. The published row runs `npx -y service-mcp`
 * unchanged against a loopback registry that publishes the packed tarball; the global row installs
 * that tarball with `npm install -g --prefix <tmp>`. The run's one pack (pack.ts); npm's own cache is reused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLocalRegistry, type LocalRegistry } from './local-registry.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const TARBALL_NAME = `${pkg.name}-${pkg.version}.tgz`;

/** The rows of the table: what the user has, and the command and args to put in the config. */
function readmeRows(): Array<{ have: string; command: string; args: string[] }> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('| you have | command | args |'));
  const rows = table.split('\n').slice(2);
  return rows
    .slice(
      0,
      rows.findIndex((line) => !line.startsWith('|')),
    )
    .map((line) => {
      const [have, command, args] = line.split(' | ').map((cell) => cell.replace(/^\|\s*|\s*\|$/g, '').trim());
      return {
        have: have!,
        command: command!.replace(/`/g, ''),
        args: JSON.parse(args!.replace(/`/g, '')) as string[],
      };
    });
}

/** npm and npx on the tests' own Node 22, not the machine's; no developer settings leak in. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('SERVICE_MCP_') && !/^(https?|no|all)_proxy$/i.test(key))
      env[key] = value;
  return {
    ...env,
    PATH: `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_loglevel: 'error',
    // What npm already holds is good enough; the dependencies' ranges are checked live by installed.test.ts.
    npm_config_prefer_offline: 'true',
  };
}

const npm = (args: string[], env = baseEnv()) =>
  execFileSync('npm', args, { cwd: ROOT, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let work: string;
let tarball: string;
let registry: LocalRegistry;
let npxCache: string;
let npxBefore: Set<string>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'service-mcp-readme-rows-'));
  tarball = inject('packed').tarball;
  expect(basename(tarball)).toBe(TARBALL_NAME);
  registry = await startLocalRegistry(tarball, pkg, npm(['config', 'get', 'registry']).trim());
  npxCache = join(npm(['config', 'get', 'cache']).trim(), '_npx');
  npxBefore = new Set(existsSync(npxCache) ? readdirSync(npxCache) : []);
}, 300_000);

afterAll(async () => {
  await registry?.close();
  // npx keeps what it installed under the npm cache; the copies made from this run's tarball or
  // registry would only pile up, so they go (others' entries are left as they were).
  for (const entry of existsSync(npxCache) ? readdirSync(npxCache) : []) {
    const dir = join(npxCache, entry);
    const lock = join(dir, 'package-lock.json');
    const ours =
      !npxBefore.has(entry) ||
      (existsSync(lock) && readFileSync(lock, 'utf8').includes(new URL(registry?.url ?? 'http://none/').host));
    const manifest = join(dir, 'package.json');
    if (ours && existsSync(manifest) && readFileSync(manifest, 'utf8').includes(`"${pkg.name}"`))
      rmSync(dir, { recursive: true, force: true });
  }
  if (work) rmSync(work, { recursive: true, force: true });
});

const textOf = (result: CallToolResult) =>
  result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/** Starts what the row says through a real MCP client over stdio; lists the tools and calls one. */
async function drive(command: string, args: string[], env: Record<string, string>): Promise<void> {
  const transport = new StdioClientTransport({ command, args, env, cwd: work, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'readme-rows', version: '0.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('search_jobs');
    const result = (await client.callTool({
      name: 'search_jobs',
      arguments: { q: 'engineer', per_page: 1 },
    })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(textOf(result)).toMatch(/fictional/i);
  } catch (error) {
    throw new Error(`${command} ${JSON.stringify(args)} failed: ${String(error)}\nstderr: ${stderr}`, {
      cause: error,
    });
  } finally {
    await client.close();
  }
}

const replace = (value: string) =>
  value.replace(`/path/to/${TARBALL_NAME}`, () => tarball).replace('/path/to/service-mcp', ROOT.replace(/\/$/, ''));

describe("the README's install rows, each as written, through an MCP client over stdio", () => {
  const rows = readmeRows();

  it('are the four ways to have it', () => {
    expect(rows.map((row) => row.have.replace(/ \(.*$/, ''))).toEqual([
      'the published package',
      'a clone',
      'a packed tarball',
      'a global install',
    ]);
  });

  it.each(rows.map((row) => [row.have, row] as const))(
    '%s',
    async (have, row) => {
      const env = baseEnv();
      if (have.startsWith('the published package')) env.npm_config_registry = registry.url;
      if (have.startsWith('a global install')) {
        // The row's own install command, into a folder of the test's instead of the machine's prefix.
        const install = /`(npm install -g \S+)`/.exec(have)![1]!.split(' ');
        const prefix = join(work, 'global');
        npm([...install.slice(1, -1), '--prefix', prefix, install.at(-1)!.replace(`./${TARBALL_NAME}`, tarball)]);
        env.PATH = `${join(prefix, 'bin')}${delimiter}${env.PATH}`;
      }
      await drive(replace(row.command), row.args.map(replace), env);
    },
    300_000,
  );
});
