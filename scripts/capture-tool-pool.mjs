#!/usr/bin/env node
/**
 * Captures the tool pool test/findability/ searches among: the tools/list of MCP servers published on
 * npm, each installed in a temporary folder outside the repository and asked over stdio with the
 * SDK's client, in a network namespace of its own (`unshare -n`: a server that phones home at start
 * reaches nothing). API keys are dummies: listing needs none of them. Writes
 * test/findability/pool.json: each server's package, version and licence (from its package.json), and
 * of each tool what a search over tools reads (name, description, argument names).
 * `node scripts/capture-tool-pool.mjs && npx prettier --write test/findability/pool.json` (needs the
 * npm registry and unshare).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const OUT = new URL('../test/findability/pool.json', import.meta.url);
const DUMMY = 'dummy-key-for-listing-tools';

/** Servers people run beside a jobs server: search and scraping, code hosts, notes, browsers, an ATS. */
const SERVERS = [
  { package: '@modelcontextprotocol/server-filesystem', args: [os.tmpdir()] },
  { package: '@modelcontextprotocol/server-memory' },
  { package: '@modelcontextprotocol/server-everything', args: ['stdio'] },
  { package: '@modelcontextprotocol/server-sequential-thinking' },
  { package: '@modelcontextprotocol/server-github', env: { GITHUB_PERSONAL_ACCESS_TOKEN: DUMMY } },
  { package: '@modelcontextprotocol/server-google-maps', env: { GOOGLE_MAPS_API_KEY: DUMMY } },
  { package: '@modelcontextprotocol/server-slack', env: { SLACK_BOT_TOKEN: DUMMY, SLACK_TEAM_ID: 'T0000000' } },
  { package: '@playwright/mcp' },
  { package: '@notionhq/notion-mcp-server', env: { NOTION_TOKEN: DUMMY } },
  { package: '@upstash/context7-mcp' },
  { package: 'firecrawl-mcp', env: { FIRECRAWL_API_KEY: DUMMY } },
  { package: 'exa-mcp-server', env: { EXA_API_KEY: DUMMY } },
  { package: '@brave/brave-search-mcp-server', env: { BRAVE_API_KEY: DUMMY } },
  { package: 'tavily-mcp', env: { TAVILY_API_KEY: DUMMY } },
  { package: 'ashby-mcp', env: { ASHBY_API_KEY: DUMMY } },
];

function binOf(dir, name) {
  const manifest = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8'));
  const bins = typeof manifest.bin === 'string' ? { [name]: manifest.bin } : (manifest.bin ?? {});
  const [bin] = Object.values(bins);
  if (!bin) throw new Error(`${name} has no bin`);
  return { manifest, bin: join(dir, 'node_modules', name, bin) };
}

/**
 * The package.json's licence; where it sends the reader elsewhere (or says nothing), the first line
 * of the licence file shipped, or else the first sentence of the README's License section.
 */
function licenseOf(dir, name, manifest) {
  const said = typeof manifest.license === 'string' ? manifest.license : undefined;
  if (said && !said.startsWith('SEE ')) return said;
  const root = join(dir, 'node_modules', name);
  const files = readdirSync(root);
  const file = files.find((entry) => /^licen[cs]e/i.test(entry));
  const first =
    file &&
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .find((line) => line.trim() !== '');
  if (first) return `${file}: ${first.trim()}`;
  const readme = files.find((entry) => /^readme/i.test(entry));
  const section = readme && /^#+\s*licen[cs]e\s*\n+([^\n.]+\.)/im.exec(readFileSync(join(root, readme), 'utf8'));
  return `${said ?? 'no licence field'}; no licence file shipped; README: ${section ? section[1].trim() : 'none stated'}`;
}

async function capture(server) {
  const dir = mkdtempSync(join(os.tmpdir(), 'tool-pool-'));
  try {
    execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, server.package], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const { manifest, bin } = binOf(dir, server.package);
    const transport = new StdioClientTransport({
      command: 'unshare',
      args: ['-n', process.execPath, bin, ...(server.args ?? [])],
      env: { PATH: process.env.PATH, HOME: dir, ...server.env },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'service-mcp-tool-pool', version: '0.0.0' });
    await client.connect(transport);
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      // What a search over tools reads: the name, the description and the arguments' names.
      tools.push(
        ...page.tools.map(({ name, description, inputSchema }) => ({
          name,
          description: description ?? '',
          arguments: Object.keys(inputSchema?.properties ?? {}),
        })),
      );
      cursor = page.nextCursor;
    } while (cursor);
    await client.close();
    return {
      package: server.package,
      version: manifest.version,
      license: licenseOf(dir, server.package, manifest),
      tools,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const pool = [];
for (const server of SERVERS) {
  try {
    const entry = await capture(server);
    process.stderr.write(`${entry.package}@${entry.version} (${entry.license}): ${entry.tools.length} tools\n`);
    pool.push(entry);
  } catch (error) {
    process.stderr.write(`${server.package}: not captured (${error.message.split('\n')[0]})\n`);
  }
}
const about =
  'tools/list of MCP servers published on npm, captured by scripts/capture-tool-pool.mjs: name, description and argument names of each tool';
writeFileSync(OUT, `${JSON.stringify({ about, servers: pool }, null, 2)}\n`);
process.stderr.write(`${pool.reduce((sum, entry) => sum + entry.tools.length, 0)} tools of ${pool.length} servers\n`);
