#!/usr/bin/env node
// npm run inspect: lists and calls the tools through the MCP Inspector's CLI mode, against the
// built binary and the embedded offline API, and fails if either step does not work.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const bin = fileURLToPath(new URL('../bin/service-mcp.js', import.meta.url));
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function inspect(...args) {
  const run = spawnSync(npx, ['-y', INSPECTOR, '--cli', process.execPath, bin, '--offline', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0) throw new Error(`inspector ${args.join(' ')} exited ${run.status}`);
  return JSON.parse(run.stdout);
}

const { tools } = inspect('--method', 'tools/list');
console.log(`tools/list: ${tools.map((t) => t.name).join(', ')}`);
// Our seven, then the three the offline deployment's hosted surface offers, bridged.
if (tools.length !== 10) throw new Error(`expected 10 tools, got ${tools.length}`);

const result = inspect(
  '--method',
  'tools/call',
  '--tool-name',
  'search_jobs',
  '--tool-arg',
  'q=engineer',
  '--tool-arg',
  'per_page=3',
);
console.log(`tools/call search_jobs:\n${result.content[0].text}`);
if (result.isError) throw new Error('search_jobs returned an error');

const bridged = inspect(
  '--method',
  'tools/call',
  '--tool-name',
  'get_company_funding',
  '--tool-arg',
  'company=quillmark',
);
console.log(`tools/call get_company_funding (bridged):\n${bridged.content[0].text}`);
if (bridged.isError) throw new Error('get_company_funding returned an error');
