/**
 * Nothing lost at the edges (issue 28, point 5): at the in-flight bound, at the end of input,
 * under cancellation of half the calls, and at SIGTERM with calls in flight, every request id
 * gets exactly one response (an answer or an error), over stdio and over HTTP. A cancelled call
 * gets none, or the one that was already on its way: MCP asks a server not to answer a
 * cancellation, and the SDK does not. The built binary runs against mock-api, whose faults hold
 * upstream answers (`hang`, `delay`); answers are matched by JSON-RPC id on parsed lines.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockApi, type MockApi } from './helpers.js';
import { hitsOf, MCP_POST_HEADERS, startHttpServer } from './http-helpers.js';
import { INITIALIZE, quiescent, range, rawStdio, unmatched, type Id, type Message } from './raw-stdio.js';
import { seeded } from './wire.js';

const SEARCH = '/api/public/v1/search/jobs';
/** A search that shares no upstream request with another (no two calls are deduplicated). */
const search = (id: number) => ({
  id,
  method: 'tools/call',
  params: { name: 'search_jobs', arguments: { q: `role ${id}`, per_page: 5 } },
});
const cancel = (id: number) => ({ method: 'notifications/cancelled', params: { requestId: id, reason: 'test' } });

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
});
afterEach(async () => {
  await api.clearFaults();
});
afterAll(async () => {
  await api?.close();
});

async function stdioSession(extra: string[]) {
  const session = rawStdio(['--base-url', api.url, '--no-cache', ...extra]);
  session.send({ id: 0, ...INITIALIZE });
  await expect.poll(() => session.responses.get(0), { timeout: 15_000 }).toBe(1);
  session.send({ method: 'notifications/initialized' });
  return session;
}

describe('over stdio', () => {
  it('at the bound: no call past --max-in-flight starts, cancellations are still read and free their slots, every other call is answered once', async () => {
    await api.setFaults([{ path: SEARCH, kind: 'hang' }]);
    const before = await hitsOf(api, SEARCH);
    const session = await stdioSession(['--max-in-flight', '4', '--timeout-ms', '60000']);
    for (const id of range(1, 12)) session.send(search(id));
    await expect.poll(() => hitsOf(api, SEARCH), { timeout: 15_000 }).toBe(before + 4);
    await quiescent(session.child.pid!);
    expect(await hitsOf(api, SEARCH)).toBe(before + 4);

    // The four running calls hang for good; only their cancellation, read behind eight waiting
    // requests, can free their slots.
    await api.clearFaults();
    for (const id of range(1, 4)) session.send(cancel(id));
    await expect.poll(() => unmatched(session.responses, range(5, 12)).missing, { timeout: 15_000 }).toEqual([]);
    session.child.stdin.end();
    expect((await session.exited).code).toBe(0);
    expect(unmatched(session.responses, range(5, 12))).toEqual({ missing: [], repeated: [] });
    for (const id of range(5, 12))
      expect(session.answerTo(id)?.result?.isError, JSON.stringify(session.answerTo(id))).toBeFalsy();
    // Hung until cancelled: nothing could have been on its way.
    expect(range(1, 4).map((id) => session.responses.get(id) ?? 0)).toEqual([0, 0, 0, 0]);
    expect(await hitsOf(api, SEARCH)).toBe(before + 12);
  }, 60_000);

  it('at the end of input: calls still waiting for a slot are run, every one answered once, then it exits 0', async () => {
    await api.setFaults([{ path: SEARCH, kind: 'delay', delayMs: 100 }]);
    const session = await stdioSession(['--max-in-flight', '4']);
    for (const id of range(1, 40)) session.send(search(id));
    session.child.stdin.end();
    expect((await session.exited).code).toBe(0);
    expect(unmatched(session.responses, range(1, 40))).toEqual({ missing: [], repeated: [] });
    for (const id of range(1, 40))
      expect(session.answerTo(id)?.result?.isError, JSON.stringify(session.answerTo(id))).toBeFalsy();
  }, 60_000);

  it('with half the calls cancelled at random moments: each other call is answered once, a cancelled one at most once, and the process stays up', async () => {
    const seed = Number(process.env.EDGES_SEED ?? Date.now() % 100_000);
    console.log(`cancellation over stdio: EDGES_SEED=${seed}`);
    const { next: random } = seeded(seed);
    await api.setFaults([{ path: SEARCH, kind: 'delay', delayMs: 50 }]);
    const session = await stdioSession(['--max-in-flight', '8']);
    const CALLS = 200;
    const cancels: Array<Promise<void>> = [];
    for (const id of range(1, CALLS)) {
      session.send(search(id));
      if (id % 2 === 0) {
        // At once (often still waiting for a slot), or later (running, or already answered).
        const after = random() < 0.3 ? 0 : Math.floor(random() * 400);
        cancels.push(new Promise((resolve) => setTimeout(() => resolve(void session.send(cancel(id))), after)));
      }
      if (random() < 0.1) await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 20)));
    }
    await Promise.all(cancels);
    session.child.stdin.end();
    expect((await session.exited).code).toBe(0);
    const odd = range(1, CALLS).filter((id) => id % 2 === 1);
    const even = range(1, CALLS).filter((id) => id % 2 === 0);
    expect(unmatched(session.responses, odd)).toEqual({ missing: [], repeated: [] });
    expect(even.filter((id) => (session.responses.get(id) ?? 0) > 1)).toEqual([]);
    expect([...session.responses.keys()].filter((id) => typeof id !== 'number' || id < 0 || id > CALLS)).toEqual([]);
  }, 60_000);

  it('at SIGTERM: calls not started get an error at once, running ones an error result once the grace period is up, then it exits', async () => {
    await api.setFaults([{ path: SEARCH, kind: 'hang' }]);
    const before = await hitsOf(api, SEARCH);
    const session = await stdioSession(['--max-in-flight', '4', '--timeout-ms', '60000']);
    for (const id of range(1, 10)) session.send(search(id));
    await expect.poll(() => hitsOf(api, SEARCH), { timeout: 15_000 }).toBe(before + 4);
    session.child.kill('SIGTERM');
    expect(await session.exited).toEqual({ code: 0, signal: null });
    expect(unmatched(session.responses, range(1, 10))).toEqual({ missing: [], repeated: [] });
    // Stopped after the 1 s grace: a `cancelled` result through the SDK, or, should that take more
    // than the 250 ms allowed (a very busy machine), the transport's own error. Never both.
    for (const id of range(1, 4)) {
      const answer = session.answerTo(id);
      if (answer?.result)
        expect(answer.result.content?.[0]?.text).toMatch(
          /^cancelled: the server stopped \(SIGTERM\) before this call finished/,
        );
      else
        expect(answer?.error).toEqual({
          code: -32000,
          message: expect.stringMatching(/the server stopped \(SIGTERM\) before the request finished/),
        });
    }
    for (const id of range(5, 10))
      expect(session.answerTo(id)?.error).toEqual({
        code: -32000,
        message: expect.stringMatching(/the server is stopping \(SIGTERM\); the request was not started/),
      });
  }, 60_000);
});

interface HttpAnswer {
  status: number;
  /** The JSON-RPC messages of the body: the SSE events' data, or the JSON body. */
  messages: Message[];
}

/** One tools/call POST on its own connection; `abort` closes it (how HTTP cancels). */
function post(port: number, message: object, abort?: AbortSignal): Promise<HttpAnswer | 'aborted'> {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        agent: false,
        signal: abort,
        headers: {
          ...MCP_POST_HEADERS,
          'mcp-protocol-version': '2025-06-18',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', () => resolve('aborted'));
        res.on('end', () => {
          const sse = String(res.headers['content-type']).startsWith('text/event-stream');
          const messages = sse
            ? [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]!) as Message)
            : [JSON.parse(text) as Message];
          resolve({ status: res.statusCode ?? 0, messages });
        });
      },
    );
    req.on('error', (error) => (abort?.aborted ? resolve('aborted') : reject(error)));
    req.end(body);
  });
}

/** Responses per id over the answers, as for stdio. */
function responsesOf(answers: Array<HttpAnswer | 'aborted'>): Map<Id, number> {
  const responses = new Map<Id, number>();
  for (const answer of answers) {
    if (answer === 'aborted') continue;
    for (const m of answer.messages)
      if (m.result !== undefined || m.error !== undefined)
        responses.set(m.id ?? null, (responses.get(m.id ?? null) ?? 0) + 1);
  }
  return responses;
}

const answerIn = (answer: HttpAnswer | 'aborted' | undefined) =>
  answer === 'aborted' || answer === undefined
    ? undefined
    : answer.messages.find((m) => m.result !== undefined || m.error !== undefined);

/** The responses in a connection's bytes, one after another: each head, and its body (de-chunked). */
function httpResponses(bytes: Buffer): Array<{ head: string; body: string }> {
  const responses: Array<{ head: string; body: string }> = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    const head = bytes.subarray(at, end).toString('latin1');
    at = end + 4;
    const length = /content-length: (\d+)/i.exec(head);
    const parts: Buffer[] = [];
    if (length) {
      parts.push(bytes.subarray(at, at + Number(length[1])));
      at += Number(length[1]);
    } else {
      for (;;) {
        const line = bytes.indexOf('\r\n', at);
        const size = parseInt(bytes.subarray(at, line).toString('latin1'), 16);
        at = line + 2;
        parts.push(bytes.subarray(at, at + size));
        at += size + 2;
        if (size === 0) break;
      }
    }
    responses.push({ head, body: Buffer.concat(parts).toString('utf8') });
  }
  return responses;
}

describe('over HTTP', () => {
  it('at the bound: as many wait as run, the rest get 503 with their id, and no waiting call starts before a slot frees', async () => {
    await api.setFaults([{ path: SEARCH, kind: 'hang' }]);
    const before = await hitsOf(api, SEARCH);
    const server = await startHttpServer([
      '--base-url',
      api.url,
      '--no-cache',
      '--max-in-flight',
      '4',
      '--timeout-ms',
      '60000',
    ]);
    try {
      const aborts = range(1, 4).map(() => new AbortController());
      const running = range(1, 4).map((id, i) => post(server.port, search(id), aborts[i]!.signal));
      await expect.poll(() => hitsOf(api, SEARCH), { timeout: 15_000 }).toBe(before + 4);
      const refused: HttpAnswer[] = [];
      const pending = range(5, 12).map((id) =>
        post(server.port, search(id)).then((a) => (a !== 'aborted' && refused.push(a), a)),
      );
      // A 503 is given only once the queue is full: after four, the other four are waiting, and
      // stay so while the running calls hang.
      await expect.poll(() => refused.length, { timeout: 15_000 }).toBe(4);
      expect(refused.map((a) => a.status)).toEqual([503, 503, 503, 503]);
      for (const answer of refused)
        expect(answer.messages[0]).toMatchObject({
          error: { code: -32000, message: expect.stringMatching(/--max-in-flight 4/) },
        });
      expect(await hitsOf(api, SEARCH)).toBe(before + 4);

      // Closing the four hung calls' connections cancels them and frees their slots.
      await api.clearFaults();
      for (const abort of aborts) abort.abort();
      const answers = await Promise.all(pending);
      expect(await Promise.all(running)).toEqual(['aborted', 'aborted', 'aborted', 'aborted']);
      expect(unmatched(responsesOf(answers), range(5, 12))).toEqual({ missing: [], repeated: [] });
      const served = answers.filter((a) => a !== 'aborted' && a.status === 200);
      expect(served).toHaveLength(4);
      for (const answer of served) expect(answerIn(answer)?.result?.isError).toBeFalsy();
      expect(await hitsOf(api, SEARCH)).toBe(before + 8);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('at the end of input: calls written back to back on one connection, the last saying Connection: close, are each answered once, then it closes', async () => {
    // (A half-close is not the end of input here: over HTTP a closed connection cancels its call,
    // and a server cannot tell a half-closed socket from a closed one until it writes.)
    await api.setFaults([{ path: SEARCH, kind: 'delay', delayMs: 50 }]);
    const server = await startHttpServer(['--base-url', api.url, '--no-cache', '--max-in-flight', '4']);
    try {
      const ids = range(1, 12);
      const raw = ids
        .map((id) => {
          const body = JSON.stringify({ jsonrpc: '2.0', ...search(id) });
          const connection = id === ids.at(-1) ? 'close' : 'keep-alive';
          return (
            `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
            `MCP-Protocol-Version: 2025-06-18\r\nConnection: ${connection}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
          );
        })
        .join('');
      const reply = await new Promise<Buffer>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks)));
        socket.write(raw);
      });
      const messages = httpResponses(reply).flatMap(({ head, body }) =>
        /content-type: text\/event-stream/i.test(head)
          ? [...body.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]!) as Message)
          : [JSON.parse(body) as Message],
      );
      const answers = messages.filter((m) => m.result !== undefined || m.error !== undefined);
      const responses = new Map<Id, number>();
      for (const m of answers) responses.set(m.id ?? null, (responses.get(m.id ?? null) ?? 0) + 1);
      expect(unmatched(responses, ids)).toEqual({ missing: [], repeated: [] });
      expect(responses.size).toBe(ids.length);
      for (const m of answers)
        if (m.result) expect(m.result.isError, JSON.stringify(m)).toBeFalsy();
        else expect(m.error?.message).toMatch(/--max-in-flight 4/);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('with half the calls cancelled at random moments: each other call is answered once, and no slot is lost', async () => {
    const seed = Number(process.env.EDGES_SEED ?? Date.now() % 100_000);
    console.log(`cancellation over HTTP: EDGES_SEED=${seed}`);
    const { next: random } = seeded(seed);
    await api.setFaults([{ path: SEARCH, kind: 'delay', delayMs: 100 }]);
    const server = await startHttpServer(['--base-url', api.url, '--no-cache', '--max-in-flight', '16']);
    try {
      const CALLS = 32;
      const calls = range(1, CALLS).map((id) => {
        if (id % 2 === 1) return post(server.port, search(id));
        const abort = new AbortController();
        setTimeout(() => abort.abort(), Math.floor(random() * 300));
        return post(server.port, search(id), abort.signal);
      });
      const answers = await Promise.all(calls);
      const responses = responsesOf(answers);
      const odd = range(1, CALLS).filter((id) => id % 2 === 1);
      expect(unmatched(responses, odd)).toEqual({ missing: [], repeated: [] });
      for (const id of odd)
        expect(answerIn(answers[id - 1])?.result?.isError, JSON.stringify(answers[id - 1])).toBeFalsy();
      expect(range(1, CALLS).filter((id) => (responses.get(id) ?? 0) > 1)).toEqual([]);

      // Every slot came back: as many calls as run and wait at once are all served, none refused.
      await api.setFaults([{ path: SEARCH, kind: 'delay', delayMs: 200 }]);
      const full = await Promise.all(range(101, 132).map((id) => post(server.port, search(id))));
      expect(full.map((a) => (a === 'aborted' ? a : a.status))).toEqual(range(101, 132).map(() => 200));
      expect(server.process.exitCode).toBeNull();
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('at SIGTERM: waiting calls get 503 at once, running ones an error result when the grace period is up, then it exits 1', async () => {
    await api.setFaults([{ path: SEARCH, kind: 'hang' }]);
    const before = await hitsOf(api, SEARCH);
    const server = await startHttpServer([
      '--base-url',
      api.url,
      '--no-cache',
      '--max-in-flight',
      '2',
      '--timeout-ms',
      '60000',
    ]);
    const running = range(1, 2).map((id) => post(server.port, search(id)));
    await expect.poll(() => hitsOf(api, SEARCH), { timeout: 15_000 }).toBe(before + 2);
    const waiting = range(3, 5).map((id) => post(server.port, search(id)));
    // With two running and two places in the queue, one of the three is refused: then two wait.
    await Promise.race(waiting);
    const code = await server.stop('SIGTERM');
    const answers = await Promise.all([...running, ...waiting]);
    expect(unmatched(responsesOf(answers), range(1, 5))).toEqual({ missing: [], repeated: [] });
    for (const id of [1, 2])
      expect(answerIn(answers[id - 1])?.result?.content?.[0]?.text).toMatch(
        /^cancelled: the server stopped \(shutdown\) before this call finished/,
      );
    const refusals = answers.slice(2).map((a) => (a === 'aborted' ? a : a.status));
    expect(refusals).toEqual([503, 503, 503]);
    const messages = answers.slice(2).map((a) => answerIn(a)?.error?.message ?? '');
    expect(messages.filter((m) => /--max-in-flight 2/.test(m))).toHaveLength(1);
    expect(messages.filter((m) => /shutting down; the request was not started/.test(m))).toHaveLength(2);
    expect(code).toBe(1);
  }, 60_000);
});
