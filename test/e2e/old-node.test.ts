/**
 * On a Node.js older than 22 the binary must say why it cannot run, where the user will see it:
 * an MCP client often hides stderr, so in stdio mode the first request gets a JSON-RPC error.
 * An older Node is played by Node 22 with its reported version changed before the bin runs.
 */
import { describe, expect, it } from 'vitest';
import { cleanEnv, pretendNode, runCli } from './helpers.js';

const OLD = 'v20.11.1';

const runOld = (args: string[], input: string) => runCli(args, cleanEnv(), input, pretendNode(OLD));

describe('on a Node.js older than 22', () => {
  it('stdio mode answers the first request with a JSON-RPC error naming the version found and needed', async () => {
    const initialize = { jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
    const { code, stdout, stderr } = await runOld(['--offline'], `${JSON.stringify(initialize)}\n`);
    expect(code).toBe(1);
    const answer = JSON.parse(stdout.trim()) as { id: number; error: { code: number; message: string; data: { node: string } } };
    expect(answer.id).toBe(7);
    expect(answer.error.message).toMatch(new RegExp(`needs Node.js 22 or later; this is ${OLD}`));
    expect(answer.error.data.node).toBe(OLD);
    expect(stderr).toMatch(/needs Node.js 22 or later/);
  });

  it('a command exits 2 with the reason on stderr and nothing on stdout', async () => {
    const { code, stdout, stderr } = await runOld(['tools'], '');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(new RegExp(`this is ${OLD}`));
  });
});
