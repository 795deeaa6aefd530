#!/usr/bin/env node
/**
 * `npm run bundle`: service-mcp-<version>.mcpb, an MCP Bundle that Claude Desktop installs in one
 * step. The bundle holds what the npm package holds (every dependency is bundled in dist/, so there
 * is no node_modules to add), and a manifest generated from the package, server.json and the tool registry (the built binary's own
 * `tools --json`), validated and packed by @anthropic-ai/mcpb. Run after a build (the npm script
 * builds first).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const registry = JSON.parse(readFileSync(join(root, 'server.json'), 'utf8'));
const stage = join(root, 'build', 'mcpb');
const output = join(root, `${pkg.name}-${pkg.version}.mcpb`);
// mcpb runs under the Node that runs this script (the project's Node 22).
const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` };
const run = (command, args, cwd = root) =>
  execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
for (const path of pkg.files) cpSync(join(root, path), join(stage, path), { recursive: true });
// Bundles want a PNG icon: assets/icon.png is assets/icon.svg rendered at 256 px
// (`rsvg-convert -w 256 -h 256 assets/icon.svg -o assets/icon.png`, Debian's librsvg2-bin).
cpSync(join(root, 'assets', 'icon.png'), join(stage, 'assets', 'icon.png'));
// The package as installed: no scripts or devDependencies (what dist/ bundled of them is listed in
// dist/sbom.cdx.json and dist/THIRD-PARTY-NOTICES.txt, both shipped).
const { scripts: _scripts, devDependencies: _dev, allowScripts: _allow, overrides: _overrides, ...runtime } = pkg;
if (Object.keys(runtime.dependencies ?? {}).length > 0)
  throw new Error('package.json has runtime dependencies: the bundle would need a node_modules it does not carry');
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(runtime, null, 2)}\n`);

// Our own tools only: bridged ones are the deployment's, read at run time, not the bundle's to promise.
const tools = JSON.parse(
  run(process.execPath, [join(root, 'bin', 'service-mcp.js'), '--no-bridge', 'tools', '--json']),
);
const manifest = {
  manifest_version: '0.3',
  name: pkg.name,
  display_name: registry.title,
  version: pkg.version,
  description: registry.description,
  long_description: pkg.description,
  author: { name: `${pkg.name} contributors` },
  homepage: registry.websiteUrl,
  license: pkg.license,
  keywords: pkg.keywords,
  icon: 'assets/icon.png',
  server: {
    type: 'node',
    entry_point: 'bin/service-mcp.js',
    mcp_config: {
      command: 'node',
      args: ['${__dirname}/bin/service-mcp.js'],
      env: { SERVICE_MCP_BASE_URL: '${user_config.base_url}', SERVICE_MCP_OFFLINE: '${user_config.offline}' },
    },
  },
  user_config: {
    base_url: {
      type: 'string',
      title: 'API base URL',
      description:
        "The hosted API's origin, from whoever runs your deployment (e.g. https://api.example.com). Leave empty to use the embedded offline API: fictional sample data, not live.",
      required: false,
      default: '',
    },
    offline: {
      type: 'boolean',
      title: 'Offline',
      description: 'Use the embedded offline API (fictional sample data) even when a base URL is set.',
      required: false,
      default: false,
    },
  },
  tools: tools.map(({ name, description }) => ({ name, description })),
  tools_generated: false,
  compatibility: { runtimes: { node: pkg.engines.node } },
};
writeFileSync(join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

const mcpb = join(root, 'node_modules', '.bin', 'mcpb');
run(mcpb, ['validate', join(stage, 'manifest.json')]);
rmSync(output, { force: true });
run(mcpb, ['pack', stage, output]);
process.stdout.write(`${output}\n`);
