/**
 * The production fetch reads bodies through undici's dispatch handler interface (TextReader), not
 * web streams. Over real loopback HTTP: the size cap (declared, streamed and decoded), the timeout
 * and cancellation mid-body and while waiting for a connection, a reset mid-body, and UTF-8
 * decoding hold as they do for readBodyCapped.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { createUndiciFetch } from '../../../src/api/http.js';
import { envelope, makeJob, rejectionOf } from './helpers.js';

const savedProxy = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy };
let server: Server;
let baseUrl = '';
let respond: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
/** Bytes the server managed to write for the last response before the client stopped reading. */
let written = 0;

beforeAll(async () => {
  delete process.env.HTTP_PROXY;
  delete process.env.http_proxy;
  server = createServer((req, res) => {
    req.resume();
    respond(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const [key, value] of Object.entries(savedProxy)) if (value !== undefined) process.env[key] = value;
});

const client = (options: { maxBodyBytes?: number; timeoutMs?: number; connections?: number } = {}) => {
  const { connections, ...rest } = options;
  return new ApiClient({ baseUrl, fetch: createUndiciFetch({ timeoutMs: 5000, cache: false, connections }), unavailableRetries: 0, maxRetryWaitS: 0, ...rest });
};

/** Writes 1 KB chunks until the client goes away (or `limit` chunks), never ending the body. */
function endless(res: ServerResponse, headers: Record<string, string> = {}, limit = 100_000) {
  written = 0;
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  const chunk = Buffer.alloc(1024, 0x20);
  const pump = () => {
    while (written < limit * 1024 && !res.destroyed) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  res.write('{"a":"');
  pump();
}

describe('the production fetch reads bodies without web streams', () => {
  it('offers text(), which the client uses', () => {
    expect(typeof createUndiciFetch({ timeoutMs: 1000 }).text).toBe('function');
  });

  it('a declared Content-Length over the cap is refused before reading it', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      res.write('{');
    };
    const error = await rejectionOf(client({ maxBodyBytes: 1024 }).getJob('x'));
    expect(error).toMatchObject({ kind: 'upstream_contract', status: 200 });
    expect(error.message).toContain('(Content-Length)');
    expect(error.message).toContain('refused without reading it');
  });

  it('a streamed body without Content-Length is cut off once it passes the cap', async () => {
    respond = (_req, res) => endless(res);
    const error = await rejectionOf(client({ maxBodyBytes: 64 * 1024 }).getJob('x'));
    expect(error).toMatchObject({ kind: 'upstream_contract', status: 200 });
    expect(error.message).toContain('reading stopped at the cap');
    // The client stopped reading near the cap, not at the end of an endless body.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written).toBeLessThan(20 * 1024 * 1024);
  });

  it('a body that stalls mid-stream ends on the timeout', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":');
    };
    const started = Date.now();
    const error = await rejectionOf(client({ timeoutMs: 300 }).getJob('x'));
    expect(error).toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('cancellation mid-body ends the call as cancelled', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":');
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 100);
    const error = await rejectionOf(client().getJob('x', {}, { signal: controller.signal }));
    expect(error).toMatchObject({ kind: 'cancelled' });
  });

  it('a gzip body whose decoded size passes the cap is refused, however small it came', async () => {
    const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    };
    const error = await rejectionOf(client({ maxBodyBytes: 64 * 1024 }).getJob('x'));
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(error).toMatchObject({ kind: 'upstream_contract', status: 200 });
    expect(error.message).toContain('more than 64 KB decoded');
  });

  it('cancellation and the timeout end a call at once even while it waits for a connection', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":');
    };
    // One connection, held by a call whose body never ends: the next calls wait in undici's queue.
    const single = client({ connections: 1, timeoutMs: 2000 });
    const holding = rejectionOf(single.getJob('held'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    const started = Date.now();
    expect(await rejectionOf(single.getJob('queued', {}, { signal: controller.signal }))).toMatchObject({ kind: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await holding).toMatchObject({ kind: 'timeout' });
  });

  it('a connection reset mid-body is a network error', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"success":', () => res.destroy());
    };
    expect(await rejectionOf(client().getJob('x'))).toMatchObject({ kind: 'network' });
  });

  it('decodes UTF-8 split across chunks, and a body of exactly the cap is read', async () => {
    const body = Buffer.from(JSON.stringify(envelope(makeJob({ job_id: 'x', title: '€uro – naïve' }))));
    const split = body.indexOf(Buffer.from('€')) + 1;
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(body.subarray(0, split));
      setTimeout(() => res.end(body.subarray(split)), 20);
    };
    expect((await client({ maxBodyBytes: body.length }).getJob('x')).data.title).toBe('€uro – naïve');
    const over = await rejectionOf(client({ maxBodyBytes: body.length - 1 }).getJob('x'));
    expect(over).toMatchObject({ kind: 'upstream_contract' });
  });

  it('reads every body as TextDecoder does: ASCII or not, small or large, malformed or with a BOM', async () => {
    const large = (text: string) => text.repeat(Math.ceil(3000 / text.length));
    const bodies = [
      Buffer.from('{"plain":"ascii"}'),
      Buffer.from(large('{"plain":"ascii"} ')),
      Buffer.from('£110k–£140k €'),
      Buffer.from(large('salary £110k–£140k, 😀 naïve ')),
      Buffer.from(`\uFEFF${large('bom £ ')}`),
      Buffer.from(`\uFEFF${large('bom ascii ')}`),
      // Malformed: a stray byte, a truncated sequence, an encoded surrogate, an overlong form.
      Buffer.concat([Buffer.from(large('£ ')), Buffer.from([0xff, 0x61, 0xe2, 0x82, 0x20, 0xed, 0xa0, 0x80, 0xc0, 0xaf]), Buffer.from('€ end')]),
      Buffer.concat([Buffer.from(large('€ ')), Buffer.from([0xf0, 0x9f, 0x98])]),
      Buffer.from('£–'.repeat(300_000)), // over a megabyte
    ];
    let serving = bodies[0]!;
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(serving);
    };
    const fetch = createUndiciFetch({ timeoutMs: 5000, cache: false });
    for (const bytes of bodies) {
      serving = bytes;
      const { body } = await fetch.text!(`${baseUrl}/x`, {}, 8 << 20, '/x', 5000);
      expect(body).toBe(new TextDecoder().decode(bytes));
    }
  });

  it('follows redirects through undici, each hop asked once, with the body cap and cancellation still in force', async () => {
    const asked: string[] = [];
    const hops: Record<string, [number, string]> = { '/a': [301, '/b'], '/b': [307, `${baseUrl}/c?x=1`], '/c?x=1': [308, 'd'], '/d': [303, '/final'] };
    const final = Buffer.from('£ end of the line');
    respond = (req, res) => {
      asked.push(req.url!);
      const hop = hops[req.url!];
      if (hop) {
        res.writeHead(hop[0], { location: hop[1], 'content-type': 'text/html' });
        return void res.end('<a href="elsewhere">moved</a>');
      }
      if (req.url === '/final') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end(final);
      }
      if (req.url === '/stall') return void res.writeHead(200).write('x'); // never ends
      res.writeHead(302, { location: req.url === '/to-stall' ? '/stall' : req.url!.replace(/\d+$/, (n) => String(Number(n) + 1)) }).end();
    };
    const fetch = createUndiciFetch({ timeoutMs: 5000, cache: false });
    const read = (path: string, maxBytes = 1 << 20, signal?: AbortSignal) => fetch.text!(`${baseUrl}${path}`, { signal }, maxBytes, path, 5000);

    expect(await read('/a')).toMatchObject({ status: 200, body: '£ end of the line' });
    expect(asked).toEqual(['/a', '/b', '/c?x=1', '/d', '/final']);
    await expect(read('/a', final.length - 1)).rejects.toMatchObject({ kind: 'upstream_contract' });

    // fetch's limit: 20 redirects are followed, and the 21st is the answer.
    asked.length = 0;
    expect((await read('/loop0')).status).toBe(302);
    expect(asked).toHaveLength(21);

    const controller = new AbortController();
    const reading = read('/to-stall', 1 << 20, controller.signal);
    setTimeout(() => controller.abort(new Error('stop')), 50);
    await expect(reading).rejects.toThrow('stop');
  });

  it('a redirect without a Location is the answer itself', async () => {
    respond = (_req, res) => {
      res.writeHead(302, { 'content-type': 'text/plain' });
      res.end('no forwarding address');
    };
    const fetch = createUndiciFetch({ timeoutMs: 5000, cache: false });
    expect(await fetch.text!(`${baseUrl}/x`, {}, 1 << 20, '/x', 5000)).toMatchObject({ status: 302, body: 'no forwarding address' });
  });

  it('an empty body is empty text (a contract break for JSON), and 204 has no body', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end();
    };
    const error = await rejectionOf(client().getJob('x'));
    expect(error).toMatchObject({ kind: 'upstream_contract' });
    expect(error.message).toContain('the body is empty');
  });

  it('also answers in the Fetch form a FetchLike offers: a Response, with no body for a 204', async () => {
    respond = (req, res) => {
      if (req.url === '/none') return void res.writeHead(204).end();
      res.writeHead(201, { 'content-type': 'application/json', 'x-repeated': ['a', 'b'] });
      res.end('{"ok":true}');
    };
    const fetch = createUndiciFetch({ timeoutMs: 5000, cache: false });
    const response = await fetch(`${baseUrl}/x`, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-repeated')).toBe('a, b');
    expect(await response.json()).toEqual({ ok: true });
    const none = await fetch(`${baseUrl}/none`, {});
    expect(none.status).toBe(204);
    expect(none.body).toBeNull();
  });

  it('reads headers as Headers.get does: any case, a repeated header joined; and sends the client headers lower-cased', async () => {
    let seen: IncomingMessage['headers'] = {};
    respond = (req, res) => {
      seen = req.headers;
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-repeated', ['a', 'b']);
      res.end('{}');
    };
    const fetch = createUndiciFetch({ timeoutMs: 5000, cache: false });
    const response = await fetch.text!(`${baseUrl}/x`, { headers: { Accept: 'application/json', 'User-Agent': 'test/1' } }, 1024, '/x', 5000);
    expect(response.headers.get('Content-Type')).toBe('application/json');
    expect(response.headers.get('x-repeated')).toBe('a, b');
    expect(response.headers.get('x-absent')).toBeNull();
    expect(seen).toMatchObject({ accept: 'application/json', 'user-agent': 'test/1', 'accept-encoding': 'gzip, br' });
    const fromHeaders = await fetch.text!(`${baseUrl}/x`, { headers: new Headers({ 'X-Trace': '1' }) }, 1024, '/x', 5000);
    expect(fromHeaders.status).toBe(200);
    expect(seen).toMatchObject({ 'x-trace': '1' });
  });
});
