/**
 * The MCP Bundle as Claude Desktop gets it: `scripts/bundle.mjs` builds and validates it, and here
 * it is unpacked into an empty folder and its own server entry is driven over stdio, offline, with
 * the environment the manifest's defaults give.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/tools/index.js';
import { cleanEnv, ROOT, textOf } from './helpers.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
};
const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
let unpacked: string;

interface Manifest {
  name: string;
  version: string;
  server: { entry_point: string; mcp_config: { command: string; args: string[]; env: Record<string, string> } };
  user_config: Record<string, { type: string; default?: unknown }>;
  tools: Array<{ name: string; description: string }>;
  icon: string;
}

beforeAll(() => {
  const out = execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs')], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const bundle = out.trim().split('\n').pop()!;
  expect(bundle).toBe(join(ROOT, `${pkg.name}-${pkg.version}.mcpb`));
  unpacked = mkdtempSync(join(tmpdir(), 'service-mcp-mcpb-'));
  execFileSync(join(ROOT, 'node_modules', '.bin', 'mcpb'), ['unpack', bundle, unpacked], { env, stdio: 'ignore' });
}, 120_000);

afterAll(() => rmSync(unpacked, { recursive: true, force: true }));

describe('the MCP Bundle', () => {
  it('has a manifest generated from the package and the tool registry, with the base URL and offline switch as user settings', () => {
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest).toMatchObject({
      name: pkg.name,
      version: pkg.version,
      server: { entry_point: 'bin/service-mcp.js' },
    });
    expect(manifest.tools).toEqual(TOOLS.map((tool) => ({ name: tool.name, description: tool.description })));
    expect(Object.keys(manifest.user_config).sort()).toEqual(['base_url', 'offline']);
    expect(manifest.server.mcp_config.env).toEqual({
      SERVICE_MCP_BASE_URL: '${user_config.base_url}',
      SERVICE_MCP_OFFLINE: '${user_config.offline}',
    });
    expect(existsSync(join(unpacked, manifest.icon))).toBe(true);
  });

  it('holds the files the npm package holds and no node_modules: every dependency is in dist/', () => {
    expect(existsSync(join(unpacked, 'node_modules'))).toBe(false);
    expect(Object.keys(pkg.dependencies)).toEqual([]);
    const filesOf = (dir: string): string[] =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
        .sort();
    expect(filesOf(join(unpacked, 'dist'))).toEqual(filesOf(join(ROOT, 'dist')));
    for (const file of ['bin/service-mcp.js', 'dist/THIRD-PARTY-NOTICES.txt', 'dist/sbom.cdx.json'])
      expect(readFileSync(join(unpacked, file), 'utf8'), file).toBe(readFileSync(join(ROOT, file), 'utf8'));
  });

  it('runs from its own folder over stdio, offline when no base URL is given', async () => {
    const manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as Manifest;
    // What the host does: substitute ${__dirname} and the user settings' defaults.
    const args = manifest.server.mcp_config.args.map((arg) => arg.replace('${__dirname}', unpacked));
    const defaults = {
      base_url: String(manifest.user_config.base_url!.default),
      offline: String(manifest.user_config.offline!.default),
    };
    const settings = Object.fromEntries(
      Object.entries(manifest.server.mcp_config.env).map(([key, value]) => [
        key,
        value.replace(/\$\{user_config\.(\w+)\}/, (_m, name: keyof typeof defaults) => defaults[name]),
      ]),
    );
    const client = new Client({ name: 'bundle-test', version: '0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args,
        env: cleanEnv(settings),
        cwd: unpacked,
        stderr: 'ignore',
      }),
    );
    try {
      expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
      const result = await client.callTool({ name: 'search_jobs', arguments: { q: 'engineer', per_page: 2 } });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toMatch(/^FICTIONAL sample data, by the API's own word: [^\n]*\n/);
      expect(textOf(result)).toMatch(/ · reached: embedded · fictional: yes$/);
    } finally {
      await client.close();
    }
  });
});
