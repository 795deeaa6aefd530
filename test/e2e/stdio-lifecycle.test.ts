/**
 * The stdio defects of the hand-built protocol layer, each shown on the built binary with raw
 * lines (what a client's bytes really are): a line that is no message gets an answer, the end of
 * input does not drop answers, and structuredContent is the data that was validated, even when the
 * upstream body says a member twice. (A client that writes calls and does not read: in-flight.test.ts.)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeJob } from '../helpers/fixtures.js';
import { activeJob } from './dataset.js';
import { connectStdio, startMockApi, textOf } from './helpers.js';
import { hitsOf } from './http-helpers.js';
import { INITIALIZE, rawStdio } from './raw-stdio.js';

describe('a line that is no message', () => {
  it('is answered, with the id when one can be read, and the session goes on', async () => {
    const session = rawStdio(['--offline']);
    session.send({ id: 1, ...INITIALIZE });
    await expect.poll(() => session.answerTo(1)).toBeDefined();
    session.child.stdin.write('this is not json\n');
    session.child.stdin.write('{"jsonrpc":"2.0","id":7,"method":"tools/ca\n');
    session.child.stdin.write(
      `${JSON.stringify([
        { jsonrpc: '2.0', id: 8, method: 'ping' },
        { jsonrpc: '2.0', id: 9, method: 'ping' },
      ])}\n`,
    );
    session.child.stdin.write('{"jsonrpc":"2.0","id":1.5,"method":"ping"}\n');
    session.send({ id: 10, method: 'tools/call' });
    session.send({
      id: 11,
      method: 'tools/call',
      params: { name: 'get_job', arguments: { job_id: activeJob.job_id } },
    });
    await expect.poll(() => session.answerTo(11), { timeout: 10_000 }).toBeDefined();

    expect(session.messages.find((a) => a.id === null)?.error?.code).toBe(-32700);
    expect(session.answerTo(7)?.error?.code).toBe(-32700);
    expect(session.answerTo(8)?.error?.code).toBe(-32600);
    expect(session.answerTo(9)?.error?.message).toMatch(/batches are not supported/);
    expect(session.answerTo(1.5)?.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/an id must be a string or an integer/),
    });
    // Missing params: -32602, naming what is wrong on one line.
    expect(session.answerTo(10)?.error).toMatchObject({ code: -32602, message: expect.stringMatching(/params/) });
    expect(session.answerTo(10)?.error?.message).not.toContain('\n');
    expect(session.answerTo(11)?.result?.isError).toBeFalsy();
    session.child.stdin.end();
    expect((await session.exited).code).toBe(0);
  });
});

describe('the end of input', () => {
  it('still answers the calls already running (a hung upstream up to --timeout-ms, a Retry-After wait), then exits', async () => {
    const api = await startMockApi();
    try {
      await api.setFaults([
        { path: '/api/public/v1/jobs', kind: 'hang' },
        { path: '/api/public/v1/market-map', kind: 'rate_limit', retryAfter: 1, times: 1 },
      ]);
      const session = rawStdio(['--base-url', api.url, '--no-cache', '--timeout-ms', '2000']);
      session.send({ id: 1, ...INITIALIZE });
      await expect.poll(() => session.answerTo(1)).toBeDefined();
      session.send({ method: 'notifications/initialized' });
      session.send({ id: 2, method: 'tools/call', params: { name: 'list_jobs', arguments: {} } });
      session.send({
        id: 3,
        method: 'tools/call',
        params: { name: 'get_market_map', arguments: {}, _meta: { progressToken: 'p' } },
      });
      await expect
        .poll(async () => (await hitsOf(api, '/api/public/v1/jobs')) + (await hitsOf(api, '/api/public/v1/market-map')))
        .toBe(2);

      session.child.stdin.end();
      expect((await session.exited).code).toBe(0);
      expect(session.answerTo(2)?.result?.content?.[0]?.text).toMatch(/^timeout: /);
      const map = session.answerTo(3)?.result;
      expect(map?.isError).toBeFalsy();
      expect(map?.structuredContent).toHaveProperty('data');
      expect(session.messages.some((a) => a.method === 'notifications/progress')).toBe(true);
    } finally {
      await api.close();
    }
  });
});

describe('a body that says a member twice', () => {
  let upstream: Server;
  let url: string;
  const job = makeJob({ job_id: 'job_ai_0777', title: 'Validated Title' });
  // JSON.parse keeps the last of two equal keys; "d\u0061ta" is "data" written with an escape.
  const body = `{"success":true,"data":${JSON.stringify(job)},"d\\u0061ta":${JSON.stringify({ ...job, title: 42 })},"meta":{"source":"dup-test","generated_at":null,"computed_at":null}}`;

  beforeAll(async () => {
    upstream = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  it('is refused or shown as validated: structuredContent never differs from the data the text describes', async () => {
    const session = await connectStdio(['--base-url', url, '--no-cache']);
    try {
      const result = await session.client.callTool({ name: 'get_job', arguments: { job_id: 'job_ai_0777' } });
      const structured = result.structuredContent as { data?: { title?: unknown } } | undefined;
      if (result.isError) expect(textOf(result)).toMatch(/^upstream_contract: /);
      else expect(textOf(result)).toContain(String(structured?.data?.title));
    } finally {
      await session.close();
    }
  });
});
