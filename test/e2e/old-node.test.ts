/**
 * On a Node.js older than the one `engines` names (22.19.0: undici 8's own minimum) the binary must
 * say why it cannot run, where the user will see it: an MCP client often hides stderr, so in stdio
 * mode the first request gets a JSON-RPC error. An older Node is played by the test's Node with its
 * reported version changed before the bin runs. The npm scripts say so too, before they start.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, pretendNode, ROOT, runCli } from './helpers.js';

const ENGINES = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines
  .node;
const MINIMUM = /^>=(\d+\.\d+\.\d+)$/.exec(ENGINES)?.[1];

const runOn = (version: string, args: string[], input: string) => runCli(args, cleanEnv(), input, pretendNode(version));
const initialize = {
  jsonrpc: '2.0',
  id: 7,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};

describe('the version gate', () => {
  it('names the exact minimum that package.json engines states', () => {
    expect(MINIMUM, `engines.node is ${ENGINES}; the gate reads a plain >=x.y.z`).toBe('22.19.0');
    expect(readFileSync(BIN, 'utf8')).toContain(`const NEEDED = '${MINIMUM}';`);
  });

  // 20 is an old major; 22.0.0 and 22.12.0 are Node 22s whose every live call failed inside undici 8.
  it.each(['v20.11.1', 'v22.0.0', 'v22.12.0', 'v22.18.9'])(
    'on %s, stdio mode answers the first request with a JSON-RPC error naming the version found and needed',
    async (old) => {
      const { code, stdout, stderr } = await runOn(old, ['--offline'], `${JSON.stringify(initialize)}\n`);
      expect(code).toBe(1);
      const answer = JSON.parse(stdout.trim()) as {
        id: number;
        error: { code: number; message: string; data: { node: string; needed: string } };
      };
      expect(answer.id).toBe(7);
      expect(answer.error.message).toContain(`needs Node.js ${MINIMUM} or later; this is ${old}`);
      expect(answer.error.data).toEqual({ node: old, needed: ENGINES });
      expect(stderr).toContain(`needs Node.js ${MINIMUM} or later`);
    },
  );

  it('a command exits 2 with the reason on stderr and nothing on stdout', async () => {
    const { code, stdout, stderr } = await runOn('v22.12.0', ['tools'], '');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('this is v22.12.0');
  });

  it.each(['v22.19.0', 'v23.0.0', 'v26.1.0'])('lets %s through', async (version) => {
    const { code, stdout } = await runOn(version, ['--version'], '');
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('the npm scripts', () => {
  it('on a Node older than 22 (the pinned one not installed) stop with one sentence saying what to do', () => {
    const run = spawnSync(process.execPath, [...pretendNode('v20.11.1'), join(ROOT, 'scripts/require-node.mjs')], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/need Node\.js 22, and this is v20\.11\.1: .*Run `npm rebuild node` once/);
  });
});
