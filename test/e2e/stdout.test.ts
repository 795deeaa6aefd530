/**
 * stdout is the protocol channel: a raw session that exercises every tool, every error path,
 * prompts, resources, logging, a malformed line and an oversized one must produce nothing on
 * stdout but JSON-RPC, and closing stdin once everything is answered ends the process within a
 * second (calls still running at that moment: stdio-lifecycle.test.ts).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { activeJob, company, inactiveJob } from './dataset.js';
import { BIN, cleanEnv, ROOT } from './helpers.js';

interface Message {
  jsonrpc: string;
  id?: number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  method?: string;
}

describe('stdio session transcript', () => {
  it('every stdout line is JSON-RPC 2.0, and stdin closing ends the process within one second', async () => {
    // --offline: no upstream process needed, and a hostile line on stdin must not produce stray output.
    // FORCE_COLOR: colour a dependency would add on a terminal must not reach the protocol channel either.
    const child = spawn(process.execPath, [BIN, '--offline', '--log-level', 'debug'], {
      env: cleanEnv({ FORCE_COLOR: '1' }),
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.on('exit', (code) => resolve({ code, at: Date.now() })),
    );

    let id = 0;
    const send = (method: string, params?: unknown) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params })}\n`);
    /** Until requests 1 to `count` each have an answer, matched by id on whole parsed lines. */
    const waitFor = async (count: number) => {
      const answered = () => {
        const ids = new Set<unknown>();
        for (const line of stdout.split('\n').slice(0, -1)) {
          const message = JSON.parse(line) as { id?: unknown; result?: unknown; error?: unknown };
          if (message.result !== undefined || message.error !== undefined) ids.add(message.id);
        }
        return ids;
      };
      await expect
        .poll(() => Array.from({ length: count }, (_, i) => i + 1).filter((i) => !answered().has(i)), {
          timeout: 15_000,
        })
        .toEqual([]);
    };

    send('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    await waitFor(1);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    send('logging/setLevel', { level: 'debug' });
    send('tools/list');
    const calls: Array<[string, Record<string, unknown>]> = [
      ['search_jobs', { q: 'engineer', per_page: 3 }],
      ['list_jobs', { per_page: 2 }],
      ['get_job', { job_id: activeJob.job_id }],
      ['get_job', { job_id: inactiveJob.job_id }],
      ['get_market_map', {}],
      ['get_market_map', { layer: 'no-such-layer' }],
      ['get_company_interview_brief', { slug: company.slug }],
      ['get_company_interview_brief', {}],
      ['discover_api', {}],
      ['check_api_health', {}],
      ['search_jobs', { per_page: 'many' }],
      ['no_such_tool', {}],
    ];
    for (const [name, args] of calls) send('tools/call', { name, arguments: args });
    send('prompts/list');
    send('prompts/get', { name: 'research_role_market', arguments: { role: 'ml engineer' } });
    send('resources/list');
    send('resources/read', { uri: 'service-mcp://api/llms.txt' });
    send('completion/complete', {
      ref: { type: 'ref/prompt', name: 'research_role_market' },
      argument: { name: 'domain', value: 'a' },
    });
    send('ping');
    child.stdin.write('this is not json\n');
    // A line over the 10 MB limit is dropped unread, and the session goes on.
    child.stdin.write(`${'x'.repeat(12 * 1024 * 1024)}\n`);
    send('no/such/method');
    await waitFor(id);

    const closedAt = Date.now();
    const stdoutAtClose = stdout.length;
    child.stdin.end();
    const { code, at } = await exited;
    // Tells "exits once its answers are out" (tens of ms) from "held until the forced exit" (2 s,
    // stdio.ts): a loaded machine delays a process by milliseconds, not by most of a second.
    expect(at - closedAt).toBeLessThan(1_000);
    expect(code).toBe(0);
    // No farewell, no flush of anything else: the last byte on stdout was the last answer.
    expect(stdout.slice(stdoutAtClose)).toBe('');

    expect(stdout).not.toContain('\u001b');
    const lines = stdout.split('\n').filter((line) => line !== '');
    const messages = lines.map((line) => {
      const parsed = JSON.parse(line) as Message;
      expect(parsed.jsonrpc).toBe('2.0');
      return parsed;
    });
    const byId = new Map(messages.filter((m) => typeof m.id === 'number').map((m) => [m.id!, m]));
    expect(byId.size).toBe(id);
    // The line that is not JSON and the oversized one are answered too, with no id to match.
    expect(messages.filter((m) => m.id === null).map((m) => m.error?.code)).toEqual([-32700, -32600]);
    // The unknown tool and method are protocol errors; the bad-argument call is a tool result.
    const unknownTool = byId.get(3 + calls.length)!; // calls start at id 4
    expect(unknownTool.error?.message).toMatch(/Tool no_such_tool not found/);
    expect(byId.get(id)!.error?.code).toBe(-32601);
    const badArgs = byId.get(2 + calls.length)!;
    expect(JSON.stringify(badArgs.result)).toMatch(/invalid_argument: per_page: must be a number/);
    expect(stderr).toMatch(/\[service-mcp\] debug: GET \/api\/public\/v1/);
    expect(stderr).toMatch(/warn: dropped a message of 12582912 bytes from stdin, over the 10485760-byte limit/);
  });
});
