/**
 * What a body must pass, on the production fetch over real loopback HTTP: the size cap as sent and
 * as decoded (a compression bomb is refused however small it came), decoding as TextDecoder does,
 * and the nesting guard that keeps a hostile body from overflowing the stack.
 */
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { DEFAULT_MAX_BODY_BYTES, jsonTooDeep } from '../../../src/api/body.js';
import { createApiFetch } from '../../../src/api/dispatcher.js';
import { envelope, jobList, makeJob, productionClient, rejectionOf, useLoopback } from './helpers.js';

const api = useLoopback();
/** Bytes the server managed to write for the last endless response before the client stopped reading. */
let written = 0;

const client = (maxBodyBytes?: number) => productionClient(api.url, { cache: false, maxBodyBytes });

/** Writes 1 KB chunks until the client goes away, never ending the body. */
function endless(res: ServerResponse) {
  written = 0;
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(1024, 0x20);
  const pump = () => {
    while (written < 100 * 1024 * 1024 && !res.destroyed) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  res.write('{"a":"');
  pump();
}

function compressed(res: ServerResponse, encoding: 'gzip' | 'br', body: Buffer) {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
  res.end(encoding === 'gzip' ? gzipSync(body) : brotliCompressSync(body));
}

describe('the size cap', () => {
  it('refuses a declared Content-Length over it before reading the body', async () => {
    api.respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      res.write('{');
    };
    const error = await rejectionOf(client(1024).getJob('x'));
    expect(error).toMatchObject({ kind: 'upstream_contract', status: 200 });
    expect(error.message).toContain('10 MB (Content-Length), over the 1 KB cap; refused without reading it');
  });

  it('cuts off a streamed body once it passes the cap, and stops reading there', async () => {
    api.respond = (_req, res) => endless(res);
    const error = await rejectionOf(client(64 * 1024).getJob('x'));
    expect(error).toMatchObject({ kind: 'upstream_contract', status: 200 });
    expect(error.message).toContain('reading stopped at the cap');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written).toBeLessThan(20 * 1024 * 1024);
  });

  it('refuses a compression bomb at the default cap, however small it came', async () => {
    const bomb = gzipSync(Buffer.alloc(DEFAULT_MAX_BODY_BYTES + 1, 0x20));
    expect(bomb.length).toBeLessThan(64 * 1024);
    api.respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    };
    const error = await rejectionOf(client().getJob('x'));
    expect(error).toMatchObject({ kind: 'upstream_contract', status: 200 });
    expect(error.message).toContain('over the 8 MB cap');
  });

  describe('is kept by the dispatcher too, whatever the client reads', () => {
    // A dispatcher capped at 64 KB under a client that would read the default 8 MiB.
    const capped = () =>
      new ApiClient({
        baseUrl: api.url,
        fetch: createApiFetch({ timeoutMs: 5000, cache: false, maxBodyBytes: 64 * 1024 }),
        unavailableRetries: 0,
      });

    it('as sent (maxResponseSize)', async () => {
      api.respond = (_req, res) => endless(res);
      const error = await rejectionOf(capped().getJob('x'));
      expect(error).toMatchObject({ kind: 'upstream_contract', status: 200 });
      expect(error.message).toContain('reading stopped at the cap');
      // Stopped by the dispatcher's cap, long before the client's own would have.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(written).toBeLessThan(DEFAULT_MAX_BODY_BYTES);
    });

    it.each(['gzip', 'br'] as const)('decoded (%s)', async (encoding) => {
      api.respond = (_req, res) => compressed(res, encoding, Buffer.alloc(4 * 1024 * 1024, 0x20));
      expect(await rejectionOf(capped().getJob('x'))).toMatchObject({ kind: 'upstream_contract', status: 200 });
    });
  });

  it('reads a body of exactly the cap, and refuses one byte more', async () => {
    const body = Buffer.from(JSON.stringify(envelope(makeJob({ job_id: 'x' }))));
    api.respond = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    expect((await client(body.length).getJob('x')).data.job_id).toBe('x');
    expect(await rejectionOf(client(body.length - 1).getJob('x'))).toMatchObject({ kind: 'upstream_contract' });
  });
});

describe('decoding', () => {
  it('asks for gzip and br, and reads both', async () => {
    for (const encoding of ['gzip', 'br'] as const) {
      api.respond = (req, res) => {
        expect(req.headers['accept-encoding']).toBe('gzip, br');
        compressed(res, encoding, Buffer.from(JSON.stringify(jobList())));
      };
      expect((await client().listJobs()).data.jobs).toHaveLength(1);
    }
  });

  it('reads a compressed error envelope too', async () => {
    api.respond = (_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ success: false, error: 'bad_filter', message: 'unknown domain' })));
    };
    expect(await rejectionOf(client().listJobs())).toMatchObject({
      kind: 'invalid_argument',
      upstreamError: 'bad_filter',
      upstreamMessage: 'unknown domain',
    });
  });

  it('decodes UTF-8 split across chunks', async () => {
    const body = Buffer.from(JSON.stringify(envelope(makeJob({ job_id: 'x', title: '€uro – naïve' }))));
    const split = body.indexOf(Buffer.from('€')) + 1;
    api.respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(body.subarray(0, split));
      setTimeout(() => res.end(body.subarray(split)), 20);
    };
    expect((await client().getJob('x')).data.title).toBe('€uro – naïve');
  });

  it('reads text as TextDecoder does: a BOM dropped, malformed bytes replaced', async () => {
    const bodies = [
      Buffer.from('\uFEFF# llms.txt £ 😀'),
      Buffer.concat([
        Buffer.from('£ '),
        Buffer.from([0xff, 0x61, 0xe2, 0x82, 0x20, 0xed, 0xa0, 0x80, 0xc0, 0xaf]),
        Buffer.from('€ end'),
      ]),
      Buffer.concat([Buffer.from('€ '), Buffer.from([0xf0, 0x9f, 0x98])]),
    ];
    for (const bytes of bodies) {
      api.respond = (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(bytes);
      expect(await client().getLlmsTxt()).toBe(new TextDecoder().decode(bytes));
    }
  });

  it('an empty body is empty text, a contract break for JSON', async () => {
    api.respond = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end();
    const error = await rejectionOf(client().getJob('x'));
    expect(error).toMatchObject({ kind: 'upstream_contract' });
    expect(error.message).toContain('the body is empty');
  });
});

const nest = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('the nesting guard', () => {
  it('refuses an absurdly nested body as upstream_contract, before parsing', async () => {
    const body = `{"success":true,"data":{"deep":${nest(5_000)}},"meta":{}}`;
    api.respond = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    const error = await rejectionOf(client().getMarketMap());
    expect(error).toMatchObject({ kind: 'upstream_contract', status: 200 });
    expect(error.message).toMatch(/nested deeper than 64 levels/);
  });

  it('counts object and array nesting outside strings', () => {
    expect(jsonTooDeep(nest(64), 64)).toBe(false);
    expect(jsonTooDeep(nest(65), 64)).toBe(true);
    expect(jsonTooDeep(`[${'['.repeat(70)}${']'.repeat(70)}]`, 64)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonTooDeep(JSON.stringify({ s: '{'.repeat(500) + '\\"[[[[' + '"'.repeat(3) }), 2)).toBe(false);
    expect(jsonTooDeep(JSON.stringify({ s: 'a\\\\', t: { u: '[[[' } }), 1)).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ s: 'a\\\\', t: { u: '[[[' } }), 2)).toBe(false);
  });

  it('leaves malformed text to JSON.parse', () => {
    expect(jsonTooDeep('{"a":"unterminated', 64)).toBe(false);
  });

  it('agrees with the depth of any JSON value', () => {
    const depth = (value: unknown): number =>
      typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depth)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 8 }), (value, max) => {
        expect(jsonTooDeep(JSON.stringify(value), max)).toBe(depth(value) > max);
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
