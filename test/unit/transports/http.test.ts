/**
 * The HTTP adapter in-process, with limits shrunk to milliseconds: slow clients are cut off, a
 * long tool call is not, and shutdown drains in-flight calls before closing.
 */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FetchLike } from '../../../src/api/fetch-like.js';
import type { Backend } from '../../../src/tools/backend.js';
import { silentLogger } from '../../../src/obs/log.js';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { createOfflineFetch, OFFLINE_BASE_URL } from '../../../src/offline/fetch.js';
import { startHttpServer, type RunningHttpServer } from '../../../src/transports/http.js';
import type { HttpLimits } from '../../../src/transports/mcp-endpoint.js';
import { TOOLS } from '../../../src/tools/index.js';

const POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};
const MARKET_MAP_CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'get_market_map', arguments: {} },
});

/** The offline API, each answer held back by `delayMs`. */
function slowBackend(delayMs: number): Backend {
  const offline = createOfflineFetch(createOfflineEngine());
  const fetch: FetchLike = async (url, init) => {
    await sleep(delayMs, undefined, { signal: init.signal ?? undefined });
    return offline(url, init);
  };
  return {
    client: new ApiClient({ baseUrl: OFFLINE_BASE_URL, fetch, timeoutMs: 10_000, maxRetryWaitS: 0 }),
    mode: 'embedded',
    baseUrl: OFFLINE_BASE_URL,
    tools: TOOLS,
  };
}

let running: RunningHttpServer | undefined;
afterEach(async () => {
  await running?.close(0);
  running = undefined;
});

async function start(delayMs: number, limits: Partial<HttpLimits> = {}): Promise<RunningHttpServer> {
  running = await startHttpServer({ backend: slowBackend(delayMs), logger: silentLogger, port: 0, limits });
  return running;
}

const postHeaders = (port: number, length: number, extra = '') =>
  `POST /mcp HTTP/1.1\r\nHost: localhost:${port}\r\nContent-Type: application/json\r\n${extra}Content-Length: ${length}\r\n\r\n`;

/**
 * A raw connection: `reply` is everything read so far, `replied` waits until it matches, and
 * `closed` resolves with the milliseconds from opening to the close (5 s at most, then the socket
 * is destroyed and it rejects).
 */
function rawConnection(port: number) {
  const started = Date.now();
  const socket = connect(port, '127.0.0.1');
  let reply = '';
  socket.on('data', (chunk) => (reply += chunk.toString()));
  socket.on('error', () => {});
  const closed = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connection still open after 5 s; got ${JSON.stringify(reply)}`));
    }, 5_000);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
  const replied = async (pattern: RegExp) => {
    while (!pattern.test(reply)) {
      if (socket.destroyed) throw new Error(`connection closed; got ${JSON.stringify(reply)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { socket, closed, replied, reply: () => reply };
}

/** Writes `text` on a raw connection (then `keepWriting` every 100 ms); what came back, and how long until close. */
async function rawExchange(port: number, text: string, keepWriting?: string): Promise<{ reply: string; ms: number }> {
  const raw = rawConnection(port);
  raw.socket.write(text);
  const trickle = keepWriting
    ? setInterval(() => raw.socket.writable && raw.socket.write(keepWriting), 100)
    : undefined;
  try {
    return { ms: await raw.closed, reply: raw.reply() };
  } finally {
    clearInterval(trickle);
  }
}

describe('timeouts', () => {
  it('cuts off a client that trickles its headers (slowloris)', async () => {
    const server = await start(0, { headersTimeoutMs: 300, requestTimeoutMs: 2_000 });
    const { ms } = await rawExchange(server.port, 'POST /mcp HTTP/1.1\r\nHost: localhost\r\n', 'X-Slow: 1\r\n');
    expect(ms).toBeLessThan(2_000);
  });

  it('cuts off a client that trickles its body, with 408', async () => {
    const server = await start(0, { headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const { reply, ms } = await rawExchange(server.port, `${postHeaders(server.port, 100_000)}{`, ' ');
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(2_500);
  });

  it('does not cut off a tool call that takes longer than the request timeout to answer', async () => {
    const server = await start(1_200, { headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const response = await fetch(server.url, { method: 'POST', headers: POST_HEADERS, body: MARKET_MAP_CALL });
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/Market map: \d+ dimensions/);
  });
});

describe('body limit', () => {
  it('counts streamed bytes when no length is declared', async () => {
    const server = await start(0, { bodyBytes: 1_000 });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(400)));
        controller.close();
      },
    });
    const response = await fetch(server.url, {
      method: 'POST',
      headers: POST_HEADERS,
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toMatchObject({
      error: { message: 'Payload Too Large: the request body must not exceed 1000 bytes' },
    });
  });

  it.each([
    ['keep-alive', ''],
    ['Connection: close', 'Connection: close\r\n'],
  ])(
    'lets a client still sending when the 413 comes finish its body and read the answer, then closes (client asks %s)',
    async (_, header) => {
      const server = await start(0, { bodyBytes: 1_000 });
      const raw = rawConnection(server.port);
      const errors: string[] = [];
      raw.socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
      try {
        raw.socket.write(`${postHeaders(server.port, 3_000, header)}${'x'.repeat(500)}`);
        await raw.replied(/^HTTP\/1\.1 413 [^]*[Cc]onnection: close[^]*"id":null\}$/);
        // Closing as soon as the answer is out resets the connection while the client still writes.
        expect(await new Promise((resolve) => raw.socket.write('x'.repeat(2_500), resolve))).toBeFalsy();
        await raw.closed;
        expect(errors).toEqual([]);
      } finally {
        raw.socket.destroy();
      }
    },
  );

  it('cuts off a client that sends more than four times the limit after the 413', async () => {
    // Long timeouts otherwise, so only the byte bound can close the connection.
    const server = await start(0, { bodyBytes: 1_000, refusedBodyDrainMs: 60_000, requestTimeoutMs: 60_000 });
    const raw = rawConnection(server.port);
    try {
      raw.socket.write(`${postHeaders(server.port, 100_000)}${'x'.repeat(500)}`);
      await raw.replied(/^HTTP\/1\.1 413 [^]*"id":null\}/);
      raw.socket.write('x'.repeat(3_000));
      await sleep(100);
      expect(raw.socket.destroyed).toBe(false); // within the bound: still read
      raw.socket.write('x'.repeat(10_000)); // past it, and still short of the declared length
      await raw.closed;
    } finally {
      raw.socket.destroy();
    }
  });

  it('cuts off a client still sending a refused body when the drain time is up', async () => {
    const server = await start(0, { bodyBytes: 1_000, refusedBodyDrainMs: 300, requestTimeoutMs: 60_000 });
    const { reply } = await rawExchange(
      server.port,
      `POST /mcp HTTP/1.1\r\nHost: localhost:${server.port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n7d0\r\n${'x'.repeat(2_000)}\r\n`,
      '1\r\nx\r\n',
    );
    expect(reply).toMatch(/^HTTP\/1\.1 413/);
  });
});

describe('graceful shutdown', () => {
  it('stops accepting, lets the call in flight finish, then resolves true', async () => {
    const server = await start(800);
    const pending = fetch(server.url, { method: 'POST', headers: POST_HEADERS, body: MARKET_MAP_CALL }).then(
      async (r) => ({ status: r.status, text: await r.text() }),
    );
    await expect.poll(() => server.inFlight()).toBe(1);
    const closing = server.close(5_000);
    await expect(fetch(`${server.url.replace('/mcp', '/healthz')}`)).rejects.toThrow();
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(/Market map/);
    expect(await closing).toBe(true);
    running = undefined;
  });

  it('stops what is still running when the grace period ends, answering it with an error, and says so', async () => {
    const server = await start(30_000);
    const pending = fetch(server.url, { method: 'POST', headers: POST_HEADERS, body: MARKET_MAP_CALL }).then((r) =>
      r.text(),
    );
    await expect.poll(() => server.inFlight()).toBe(1);
    expect(await server.close(200)).toBe(false);
    const answer = JSON.parse(/^data: (.*)$/m.exec(await pending)![1]!) as {
      id: number;
      result: { isError: boolean; content: Array<{ text: string }> };
    };
    expect(answer.id).toBe(1);
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0]!.text).toMatch(
      /^cancelled: the server stopped \(shutdown\) before this call finished/,
    );
    running = undefined;
  });
});

describe('requests that name the target twice or compress the body', () => {
  const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const exchange = async (port: number, head: string, body = BODY) => {
    const raw = rawConnection(port);
    raw.socket.write(
      `${head}Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    // The head and a whole JSON-RPC body (plain or as one SSE event): an SSE answer keeps the connection.
    await raw.replied(/^HTTP\/1\.1 \d{3}[\s\S]*\r\n\r\n[\s\S]*"jsonrpc":"2\.0"[\s\S]*\}/);
    raw.socket.destroy();
    return raw.reply();
  };

  it('refuses two Host headers with 400, whichever comes first', async () => {
    const server = await start(0);
    expect(
      await exchange(server.port, `POST /mcp HTTP/1.1\r\nHost: localhost:${server.port}\r\nHost: evil.example\r\n`),
    ).toMatch(/^HTTP\/1\.1 400 .*\r\n[\s\S]*two Host headers/);
    expect(
      await exchange(server.port, `POST /mcp HTTP/1.1\r\nHost: evil.example\r\nHost: localhost:${server.port}\r\n`),
    ).toMatch(/^HTTP\/1\.1 400/);
  });

  it('refuses an absolute-form target naming another host than Host with 400, and serves one naming the same', async () => {
    const server = await start(0);
    const host = `localhost:${server.port}`;
    expect(await exchange(server.port, `POST http://elsewhere.example/mcp HTTP/1.1\r\nHost: ${host}\r\n`)).toMatch(
      /^HTTP\/1\.1 400 [\s\S]*names another host/,
    );
    expect(await exchange(server.port, `POST http://${host}/mcp HTTP/1.1\r\nHost: ${host}\r\n`)).toMatch(
      /^HTTP\/1\.1 200/,
    );
  });

  it('refuses a request body with a Content-Encoding with 415', async () => {
    const server = await start(0);
    const reply = await exchange(
      server.port,
      `POST /mcp HTTP/1.1\r\nHost: localhost:${server.port}\r\nContent-Encoding: gzip\r\n`,
      'not really gzip',
    );
    expect(reply).toMatch(/^HTTP\/1\.1 415 [\s\S]*Content-Encoding/);
  });

  it('reflects an allowed origin in its normalised form', async () => {
    running = await startHttpServer({
      backend: slowBackend(0),
      logger: silentLogger,
      port: 0,
      allowedOrigins: ['https://app.example.com'],
    });
    const reply = await exchange(
      running.port,
      `POST /mcp HTTP/1.1\r\nHost: localhost:${running.port}\r\nOrigin: HTTPS://APP.example.com:443\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
    expect(reply).toMatch(/\r\naccess-control-allow-origin: https:\/\/app\.example\.com\r\n/i);
  });
});
