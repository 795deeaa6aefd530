/**
 * The package as users get it: `npm pack` holds only what users need, and the tarball installed
 * into an empty folder runs with npx on Node 22 (version, tools, and an offline call). The tarball
 * is the run's one pack (pack.ts), made from a copy of the tree with no build, as a fresh clone is,
 * so it also shows that prepack builds dist/.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { VIEW_LIST } from '../../src/contract/views.js';
import { npmEnv } from './prepare.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const ALLOWED = [
  /^LICENSE$/,
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^package\.json$/,
  /^server\.json$/,
  /^bin\/service-mcp\.js$/,
  /^dist\/[\w-]+\.js$/,
  /^dist\/apps\/[\w-]+\.html$/,
  /^dist\/THIRD-PARTY-NOTICES\.txt$/,
  /^dist\/sbom\.cdx\.json$/,
  /^assets\/icon\.svg$/,
];
const REQUIRED = [
  'LICENSE',
  'README.md',
  'CHANGELOG.md',
  'package.json',
  'server.json',
  'bin/service-mcp.js',
  'dist/cli.js',
  'dist/THIRD-PARTY-NOTICES.txt',
  'dist/sbom.cdx.json',
  ...VIEW_LIST.map((view) => `dist/apps/${view.id}.html`),
];

// npm and npx on the tests' own Node 22 (npx runs the bin on it), without the developer's settings.
const env = Object.fromEntries(Object.entries(npmEnv).filter(([key]) => !key.startsWith('SERVICE_MCP_')));

const packed = inject('packed');
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'service-mcp-package-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm package', () => {
  it('holds only what users need', () => {
    const paths = [...packed.files].sort();
    for (const path of paths)
      expect(
        ALLOWED.some((re) => re.test(path)),
        `unexpected file in the package: ${path}`,
      ).toBe(true);
    for (const path of REQUIRED) expect(paths).toContain(path);
    // docs/development.md's figures (rounded there) are checked, not trusted: within a tenth, and the file count exact.
    const figures = /`npm pack` \(which builds first\) gives about (\d+) KB \((\d+) KB unpacked, (\d+) files/.exec(
      readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8'),
    );
    expect(figures, 'docs/development.md: package figures').not.toBeNull();
    const [packedKb, unpackedKb, files] = figures!.slice(1).map(Number) as [number, number, number];
    expect(
      Math.abs(packed.size / 1024 / packedKb - 1),
      `packed ${(packed.size / 1024).toFixed(0)} KB; docs/development.md says ${packedKb}`,
    ).toBeLessThan(0.1);
    expect(
      Math.abs(packed.unpackedSize / 1024 / unpackedKb - 1),
      `unpacked ${(packed.unpackedSize / 1024).toFixed(0)} KB; docs/development.md says ${unpackedKb}`,
    ).toBeLessThan(0.1);
    expect(paths.length).toBe(files);
  });

  it('installs into an empty folder with nothing to resolve, and runs with npx on Node 22', () => {
    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), '{"name":"empty","version":"1.0.0","private":true}\n');
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', packed.tarball],
      { cwd: app, env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // Every dependency is bundled in dist/: the install adds this one package and nothing else.
    expect(readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['service-mcp']);
    const npx = (...args: string[]) =>
      spawnSync('npx', ['--no-install', 'service-mcp', ...args], { cwd: app, env, encoding: 'utf8' });

    const version = npx('--version');
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    );

    const tools = npx('tools');
    expect(tools.status, tools.stderr).toBe(0);
    // Our seven, then the three of the offline deployment's hosted surface, bridged in-process.
    expect(tools.stdout.trim().split('\n')).toHaveLength(10);

    const call = npx('call', 'search_jobs', '{"q":"engineer","per_page":2}');
    expect(call.status, call.stderr).toBe(0);
    expect(call.stdout).toMatch(/^FICTIONAL [^\n]*\nPage 1 of \d+/);
    expect(call.stdout).toMatch(/^FICTIONAL sample data, by the API's own word: /);
    expect(call.stdout).toContain(' · fictional: yes');

    const installedMb =
      Number(execFileSync('du', ['-sk', join(app, 'node_modules')], { encoding: 'utf8' }).split('\t')[0]) / 1024;
    const statedMb = Number(
      /installed, it takes about ([\d.]+) MB of\s+`node_modules`/.exec(
        readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8'),
      )?.[1],
    );
    expect(
      Math.abs(installedMb / statedMb - 1),
      `installed ${installedMb.toFixed(1)} MB; docs/development.md says ${statedMb}`,
    ).toBeLessThan(0.15);
  }, 180_000);
});

describe('run through npx', () => {
  it('serve --http stops when npx is told to stop (npx does not pass the signal on)', async () => {
    const app = join(work, 'app'); // installed by the test above
    const npx = spawn('npx', ['--no-install', 'service-mcp', 'serve', '--http', '--port', '0', '--offline'], {
      cwd: app,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npx.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await expect.poll(() => /listening on (http:\/\/\S+)\/mcp/.exec(out)?.[1], { timeout: 20_000 }).toBeDefined();
    const origin = /listening on (http:\/\/\S+)\/mcp/.exec(out)![1]!;
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    npx.kill('SIGTERM');
    const alive = () =>
      fetch(`${origin}/healthz`).then(
        () => true,
        () => false,
      );
    await expect.poll(alive, { timeout: 10_000, interval: 250 }).toBe(false);
  }, 40_000);
});

describe('packing', () => {
  it('a fresh clone with no build yet packs a working package: prepack builds dist/', () => {
    expect(packed.distBeforePack).toBe(false);
    expect(packed.files).toContain('dist/cli.js');
    expect(packed.files.filter((path) => path.startsWith('dist/')).length).toBeGreaterThan(1);
  });
});
