/** Status before body: every non-2xx is a typed error; bodies are checked, capped and never trusted. */
import { http, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/contract/errors.js';
import { DEFAULT_MAX_BODY_BYTES, readAnswerBody } from '../../../src/api/body.js';
import { BASE, errorBody, health, jobList, makeClient, makeServer, rejectionOf } from './helpers.js';

const server = makeServer();
let requests = 0;
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  server.resetHandlers();
  requests = 0;
});
afterAll(() => server.close());

function serve(respond: () => Response) {
  server.use(
    http.get(`${BASE}/*`, () => {
      requests++;
      return respond();
    }),
  );
}

/** A body that yields `chunk`-byte pieces on demand, up to `limit` of them, recording pulls and cancellation. */
function countingStream(chunk: number, limit = Number.POSITIVE_INFINITY) {
  const state = { pulls: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulls++;
        if (state.pulls > limit) controller.close();
        else controller.enqueue(new Uint8Array(chunk).fill(0x20));
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

describe('error statuses become typed errors', () => {
  const cases: Array<[number, string]> = [
    [400, 'invalid_argument'],
    // A list asks for no record, so its 404 means a wrong address (honest-errors.test.ts).
    [404, 'upstream_contract'],
    [410, 'not_found'],
    [422, 'invalid_argument'],
    [403, 'upstream_contract'],
    [401, 'upstream_contract'],
    [500, 'upstream_unavailable'],
  ];

  it.each(cases)('HTTP %i -> %s, with the upstream envelope and the path', async (status, kind) => {
    serve(() => HttpResponse.json(errorBody('bad_thing', 'a human message'), { status }));
    const error = await rejectionOf(makeClient().listJobs({ q: 'x' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind,
      status,
      upstreamError: 'bad_thing',
      upstreamMessage: 'a human message',
      path: '/api/public/v1/jobs?q=x',
    });
    expect(error.message).toContain(`HTTP ${status}`);
    expect(error.message).toContain('bad_thing: a human message');
    expect(requests).toBe(1);
  });

  it('429 without budget to wait is rate_limited with the seconds and the envelope', async () => {
    serve(() =>
      HttpResponse.json(errorBody('rate_limited', 'slow down'), { status: 429, headers: { 'retry-after': '60' } }),
    );
    const error = await rejectionOf(makeClient({ maxRetryWaitS: 5 }).getJob('j'));
    expect(error).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      retryAfterS: 60,
      upstreamError: 'rate_limited',
      upstreamMessage: 'slow down',
      path: '/api/public/v1/jobs/j',
    });
    expect(requests).toBe(1);
  });

  it('503 beyond the retry budget is upstream_unavailable with the envelope', async () => {
    serve(() => HttpResponse.json(errorBody('read_model_unavailable'), { status: 503 }));
    const error = await rejectionOf(makeClient({ unavailableRetries: 0 }).searchJobs());
    expect(error).toMatchObject({
      kind: 'upstream_unavailable',
      status: 503,
      upstreamError: 'read_model_unavailable',
      upstreamMessage: undefined,
    });
  });

  it('a 404 whose body is not JSON is still not_found, not a contract error', async () => {
    serve(() => new HttpResponse('<html>Not Found</html>', { status: 404, headers: { 'content-type': 'text/html' } }));
    const error = await rejectionOf(makeClient().getJob('gone'));
    expect(error).toMatchObject({
      kind: 'not_found',
      status: 404,
      upstreamError: undefined,
      path: '/api/public/v1/jobs/gone',
    });
  });

  it('a 400 with an empty body is still invalid_argument', async () => {
    serve(() => new HttpResponse(null, { status: 400 }));
    expect(await rejectionOf(makeClient().listJobs())).toMatchObject({ kind: 'invalid_argument', status: 400 });
  });

  it('the error path carries no credentials of the base URL', async () => {
    serve(() => HttpResponse.json(errorBody('nope'), { status: 404 }));
    const error = await rejectionOf(makeClient().getJob('x'));
    expect(error.path).toBe('/api/public/v1/jobs/x');
    expect(error.path).not.toContain('example.test');
  });
});

describe('2xx bodies that are not the contract', () => {
  it.each([
    [
      'non-JSON',
      () => new HttpResponse('<html>hi</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
      /not JSON \(content-type text\/html\)/,
    ],
    [
      'empty',
      () => new HttpResponse('', { status: 200, headers: { 'content-type': 'application/json' } }),
      /body is empty/,
    ],
    [
      'truncated JSON',
      () =>
        new HttpResponse('{"success":true,"data":{"jobs":[', {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
      /malformed or truncated/,
    ],
  ])('%s -> upstream_contract', async (_name, respond, hint) => {
    serve(respond);
    const error = await rejectionOf(makeClient().listJobs());
    expect(error).toMatchObject({ kind: 'upstream_contract', status: 200, path: '/api/public/v1/jobs' });
    expect(error.message).toMatch(hint);
    expect(requests).toBe(1);
  });
});

describe('health', () => {
  it('200 returns the health response', async () => {
    serve(() => HttpResponse.json(health('ok')));
    const result = await makeClient().getHealth();
    expect(result.status).toBe(200);
    expect(result.data.status).toBe('ok');
  });

  it('503 returns the degraded health response as a result, not an error, and is not retried', async () => {
    serve(() => HttpResponse.json(health('degraded'), { status: 503 }));
    const result = await makeClient().getHealth();
    expect(result.status).toBe(503);
    expect(result.data.status).toBe('degraded');
    expect(result.data.probes[0]).toMatchObject({ ok: false, status: 503 });
    expect(requests).toBe(1);
  });

  it('a health body inside the success envelope is accepted too', async () => {
    serve(() => HttpResponse.json({ success: true, data: health('ok'), meta: { source: 'probe' } }));
    const result = await makeClient().getHealth();
    expect(result.data.status).toBe('ok');
    expect(result.meta.source).toBe('probe');
  });

  it('a 503 that is not a health body (a proxy error page) is upstream_unavailable, not a contract break', async () => {
    serve(
      () =>
        new HttpResponse('<html>503 Service Unavailable</html>', {
          status: 503,
          headers: { 'content-type': 'text/html' },
        }),
    );
    expect(await rejectionOf(makeClient().getHealth())).toMatchObject({ kind: 'upstream_unavailable', status: 503 });
  });

  it('a 503 error envelope for health is upstream_unavailable with the envelope', async () => {
    serve(() => HttpResponse.json(errorBody('maintenance', 'back soon'), { status: 503 }));
    expect(await rejectionOf(makeClient().getHealth())).toMatchObject({
      kind: 'upstream_unavailable',
      status: 503,
      upstreamError: 'maintenance',
      upstreamMessage: 'back soon',
    });
  });

  it('a 200 that is not a health body is a contract break', async () => {
    serve(() => HttpResponse.json({ status: 'fine' }));
    expect(await rejectionOf(makeClient().getHealth())).toMatchObject({
      kind: 'upstream_contract',
      jsonPath: 'status',
    });
  });

  it('other statuses are errors for health as for the rest', async () => {
    serve(() => HttpResponse.json(errorBody('nope'), { status: 400 }));
    expect(await rejectionOf(makeClient().getHealth())).toMatchObject({ kind: 'invalid_argument', status: 400 });
  });
});

describe('body size cap', () => {
  it('defaults to 8 MB', () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(8 * 1024 * 1024);
  });

  it('a body within the cap is read', async () => {
    serve(() => HttpResponse.json(jobList()));
    const size = Buffer.byteLength(JSON.stringify(jobList()));
    await expect(makeClient({ maxBodyBytes: size }).listJobs()).resolves.toMatchObject({ status: 200 });
  });

  it('a declared Content-Length over the cap is refused before reading a byte', async () => {
    const { stream, state } = countingStream(256);
    const client = makeClient({
      maxBodyBytes: 1024,
      fetch: async () =>
        new Response(stream, {
          status: 200,
          headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) },
        }),
    });
    const error = await rejectionOf(client.listJobs());
    expect(error).toMatchObject({ kind: 'upstream_contract', status: 200, path: '/api/public/v1/jobs' });
    expect(error.message).toMatch(/10 MB \(Content-Length\), over the 1 KB cap/);
    expect(state.pulls).toBe(0);
    expect(state.cancelled).toBe(true);
  });

  it('a streamed body without Content-Length is cut off once it passes the cap, after few chunks', async () => {
    const { stream, state } = countingStream(256);
    const client = makeClient({ maxBodyBytes: 1024, fetch: async () => new Response(stream, { status: 200 }) });
    const error = await rejectionOf(client.listJobs());
    expect(error).toMatchObject({ kind: 'upstream_contract', status: 200 });
    expect(error.message).toMatch(/more than 1 KB/);
    expect(state.cancelled).toBe(true);
    // 1024 / 256 = 4 chunks fit; the 5th crosses the cap.
    expect(state.pulls).toBeLessThanOrEqual(6);
  });

  it('through msw too, an endless body is refused and cancelled (Content-Length or not)', async () => {
    for (const headers of [{ 'content-length': String(64 * 1024 * 1024) }, {}] as Array<Record<string, string>>) {
      const { stream, state } = countingStream(256);
      serve(() => new HttpResponse(stream, { status: 200, headers }));
      const error = await rejectionOf(makeClient({ maxBodyBytes: 1024 }).listJobs());
      expect(error).toMatchObject({ kind: 'upstream_contract', status: 200 });
      expect(state.cancelled).toBe(true);
      // msw's interceptor reads ahead a buffer's worth, but never the whole (endless) stream.
      expect(state.pulls).toBeLessThan(1024);
    }
  });

  it('an oversized error body is refused too (status still reported)', async () => {
    const { stream, state } = countingStream(256);
    serve(() => new HttpResponse(stream, { status: 500 }));
    const error = await rejectionOf(makeClient({ maxBodyBytes: 1024 }).listJobs());
    expect(error).toMatchObject({ kind: 'upstream_contract', status: 500 });
    expect(state.cancelled).toBe(true);
  });

  it('readAnswerBody decodes multi-byte characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('"€uro"');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 2));
        controller.enqueue(bytes.slice(2));
        controller.close();
      },
    });
    await expect(readAnswerBody(new Response(stream), 100, '/x')).resolves.toBe('"€uro"');
  });

  it('readAnswerBody accepts a body of exactly the cap', async () => {
    await expect(readAnswerBody(new Response('x'.repeat(100)), 100, '/x')).resolves.toHaveLength(100);
    await expect(readAnswerBody(new Response('x'.repeat(101)), 100, '/x')).rejects.toMatchObject({
      kind: 'upstream_contract',
    });
  });
});
