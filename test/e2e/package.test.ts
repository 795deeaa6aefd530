/**
 * The package as users get it: `npm pack` holds only what users need, and the tarball installed
 * into an empty folder runs with npx on Node 22 (version, tools, and an offline call).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_LIST } from '../../src/apps/views.js';
import { ROOT } from './helpers.js';

const ALLOWED = [/^LICENSE$/, /^README\.md$/, /^CHANGELOG\.md$/, /^package\.json$/, /^server\.json$/, /^bin\/service-mcp\.js$/, /^dist\/[\w-]+\.js$/, /^dist\/static-answers\.json$/, /^dist\/apps\/[\w-]+\.html$/];
const REQUIRED = ['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json', 'server.json', 'bin/service-mcp.js', 'dist/cli.js', ...VIEW_LIST.map((view) => `dist/apps/${view.id}.html`)];

// npm and npx run under the machine's Node; putting Node 22 first on PATH makes npx run the bin on it.
const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
for (const key of Object.keys(env)) if (key.startsWith('SERVICE_MCP_')) delete env[key];

let work: string;
let packed: { filename: string; size: number; unpackedSize: number; files: Array<{ path: string }> };

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'service-mcp-pack-'));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  packed = (JSON.parse(out) as (typeof packed)[])[0]!;
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm package', () => {
  it('holds only what users need', () => {
    const paths = packed.files.map((f) => f.path).sort();
    for (const path of paths) expect(ALLOWED.some((re) => re.test(path)), `unexpected file in the package: ${path}`).toBe(true);
    for (const path of REQUIRED) expect(paths).toContain(path);
    process.stderr.write(`[package] ${packed.filename}: packed ${(packed.size / 1024).toFixed(1)} KB, unpacked ${(packed.unpackedSize / 1024).toFixed(1)} KB, ${paths.length} files\n`);
  });

  it('installs into an empty folder and runs with npx on Node 22', () => {
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{"name":"empty","version":"1.0.0","private":true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(work, packed.filename)], { cwd: app, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const npx = (...args: string[]) => spawnSync('npx', ['--no-install', 'service-mcp', ...args], { cwd: app, env, encoding: 'utf8' });

    const version = npx('--version');
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);

    const tools = npx('tools');
    expect(tools.status, tools.stderr).toBe(0);
    expect(tools.stdout.trim().split('\n')).toHaveLength(7);

    const call = npx('call', 'search_jobs', '{"q":"engineer","per_page":2}');
    expect(call.status, call.stderr).toBe(0);
    expect(call.stdout).toMatch(/^Page 1 of \d+/);
    expect(call.stdout).toContain('OFFLINE snapshot data, not live');

    const size = execFileSync('du', ['-sk', join(app, 'node_modules')], { encoding: 'utf8' }).split('\t')[0];
    process.stderr.write(`[package] installed with dependencies: ${(Number(size) / 1024).toFixed(1)} MB in node_modules\n`);
  }, 180_000);
});
