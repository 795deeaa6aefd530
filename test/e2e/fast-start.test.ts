/**
 * The built binary answers initialize and tools/list from the answers recorded at build time, and
 * those answers are exactly what the SDK server sends once it has loaded.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT } from './helpers.js';

type Message = { id?: unknown; method?: string; result?: unknown; error?: unknown };

/** Raw newline-delimited JSON-RPC to the binary, so the exact bytes and order are visible. */
function rawSession(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  const received: Message[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      received.push(JSON.parse(buffer.slice(0, newline)) as Message);
      buffer = buffer.slice(newline + 1);
    }
  });
  const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const reply = async (id: unknown) => {
    await expect.poll(() => received.some((m) => m.id === id), { timeout: 10_000 }).toBe(true);
    return received.find((m) => m.id === id)!;
  };
  const close = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.stdin.end();
    });
  return { send, reply, received, stderr: () => stderr, close };
}

const initParams = (protocolVersion: string) => ({ protocolVersion, capabilities: { roots: {} }, clientInfo: { name: 'e2e', version: '1' } });

describe('stdio fast start', () => {
  it('the recorded initialize and tools/list answers equal the SDK server’s, for every protocol version', async () => {
    const recorded = JSON.parse(readFileSync(new URL('../../dist/static-answers.json', import.meta.url), 'utf8')) as { supportedProtocolVersions: string[] };
    const session = rawSession(['--offline', '--log-level', 'debug']);
    try {
      const versions = [...recorded.supportedProtocolVersions, '1999-01-01'];
      // Before the SDK has loaded: the front answers.
      session.send({ id: 'init', method: 'initialize', params: initParams(versions[0]!) });
      session.send({ method: 'notifications/initialized' });
      session.send({ id: 'list', method: 'tools/list' });
      const fastInit = await session.reply('init');
      const fastList = await session.reply('list');
      expect(session.stderr()).not.toContain('SDK server loaded');
      // Any other request hands over to the SDK, which then answers everything.
      session.send({ id: 'ping', method: 'ping' });
      expect(await session.reply('ping')).toMatchObject({ result: {} });
      expect(session.stderr()).toContain('SDK server loaded');
      session.send({ id: 'sdk-list', method: 'tools/list' });
      expect((await session.reply('sdk-list')).result).toEqual(fastList.result);
      for (const [i, version] of versions.entries()) {
        session.send({ id: `sdk-init-${i}`, method: 'initialize', params: initParams(version) });
        const sdk = await session.reply(`sdk-init-${i}`);
        if (i === 0) expect(sdk.result).toEqual(fastInit.result);
        // The front's negotiation for each version, compared with the SDK's.
        const front = rawSession(['--offline']);
        front.send({ id: 1, method: 'initialize', params: initParams(version) });
        expect((await front.reply(1)).result).toEqual(sdk.result);
        await front.close();
      }
      // The replayed initialize is answered by the SDK, and that answer never reaches the client.
      expect(session.received.map((m) => m.id)).not.toContain('service-mcp:replayed-initialize');
    } finally {
      await session.close();
    }
  });

  it('a call sent right behind initialize, before the SDK has loaded, is answered in order with its own id', async () => {
    const session = rawSession(['--offline']);
    try {
      session.send({ id: 1, method: 'initialize', params: initParams('2025-06-18') });
      session.send({ method: 'notifications/initialized' });
      session.send({ id: 2, method: 'tools/call', params: { name: 'get_job', arguments: { job_id: 'job_ai_0001' } } });
      session.send({ id: 3, method: 'tools/list' });
      const call = (await session.reply(2)) as { result: { content: Array<{ text: string }> } };
      expect(call.result.content[0]!.text).toContain('job_ai_0001');
      expect(await session.reply(3)).toMatchObject({ result: { tools: expect.any(Array) } });
      expect(session.received.filter((m) => m.id === 1)).toHaveLength(1);
    } finally {
      await session.close();
    }
  });
});
