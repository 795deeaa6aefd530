/** Real sockets, no msw: a refused connection names undici's underlying cause. */
import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ApiError } from '../../../src/contract/errors.js';
import { createApiFetch } from '../../../src/api/dispatcher.js';
import { withoutProxyVariables } from './helpers.js';

let closedPort = 0;
// The production fetch honours HTTP_PROXY: a developer's proxy must not answer for the closed port.
withoutProxyVariables();

beforeAll(async () => {
  // A port that was just free: listen, note it, close.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedPort = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('connection refused', () => {
  it('via globalThis.fetch: kind network with ECONNREFUSED in the message', async () => {
    const client = new ApiClient({
      baseUrl: `http://127.0.0.1:${closedPort}`,
      fetch: (url, init) => globalThis.fetch(url, init),
      unavailableRetries: 0,
    });
    const error = await client.listJobs().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'network', path: '/api/public/v1/jobs' });
    expect((error as ApiError).message).toMatch(/^network: GET \/api\/public\/v1\/jobs failed: .*ECONNREFUSED/);
    expect((error as ApiError).message).not.toContain('fetch failed');
    expect((error as ApiError).cause).toBeInstanceOf(TypeError);
  });

  it('via the production undici fetch: the same', async () => {
    const client = new ApiClient({
      baseUrl: `http://127.0.0.1:${closedPort}`,
      fetch: createApiFetch({ timeoutMs: 2000 }),
    });
    const error = await client.discover().catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network' });
    expect((error as ApiError).message).toContain('ECONNREFUSED');
  });
});
