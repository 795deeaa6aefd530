/**
 * The production fetch (undici's EnvHttpProxyAgent) honours HTTP_PROXY and NO_PROXY. No msw here:
 * a tiny loopback proxy answers absolute-URI GETs for a host that only it can reach.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { createApiFetch } from '../../../src/api/dispatcher.js';
import { USER_AGENT } from '../../../src/contract/version.js';
import { jobList } from './helpers.js';

const ENV_KEYS = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy', 'NO_PROXY', 'no_proxy'] as const;
const saved = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));

type Seen = Array<{ method: string; url: string; headers: IncomingMessage['headers'] }>;
let proxy: Server;
let origin: Server;
let proxyUrl = '';
let originUrl = '';
let seen: Seen = [];
let seenByOrigin: Seen = [];

/** Answers any GET with a job list, recording what it was asked. */
function recorder(log: () => Seen) {
  return createServer((req, res) => {
    log().push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    res.writeHead(req.method === 'GET' ? 200 : 405, { 'content-type': 'application/json' });
    res.end(JSON.stringify(jobList()));
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

beforeAll(async () => {
  // A forward proxy receives the absolute URI of the target, which is how it is recognised here.
  proxy = recorder(() => seen);
  origin = recorder(() => seenByOrigin);
  proxyUrl = await listen(proxy);
  originUrl = await listen(origin);
});
afterEach(() => {
  seen = [];
  seenByOrigin = [];
  for (const key of ENV_KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});
afterAll(async () => {
  for (const server of [proxy, origin]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

function setProxyEnv(noProxy: string) {
  for (const key of ENV_KEYS) delete process.env[key];
  // EnvHttpProxyAgent reads HTTP_PROXY when it is built (on the first request) and NO_PROXY on each request.
  process.env.HTTP_PROXY = proxyUrl;
  process.env.NO_PROXY = noProxy;
}

describe('proxy environment', () => {
  it('HTTP_PROXY carries the request through the proxy', async () => {
    setProxyEnv('');
    const client = new ApiClient({ baseUrl: 'http://api.example.test', fetch: createApiFetch({ timeoutMs: 2000 }) });
    const result = await client.listJobs({ q: 'ml' });
    expect(result.data.jobs).toHaveLength(1);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'GET', url: 'http://api.example.test/api/public/v1/jobs?q=ml' });
    expect(seen[0]!.headers['user-agent']).toBe(USER_AGENT);
    expect(seen[0]!.headers.accept).toBe('application/json');
  });

  it('NO_PROXY matching the host bypasses the proxy', async () => {
    setProxyEnv('localhost,127.0.0.1');
    const client = new ApiClient({ baseUrl: originUrl, fetch: createApiFetch({ timeoutMs: 2000 }) });
    await client.listJobs();
    expect(seen).toHaveLength(0);
    expect(seenByOrigin.map((s) => s.url)).toEqual(['/api/public/v1/jobs']);
  });

  it('without a NO_PROXY match even a loopback origin goes through the proxy', async () => {
    setProxyEnv('');
    const client = new ApiClient({ baseUrl: originUrl, fetch: createApiFetch({ timeoutMs: 2000 }) });
    await client.listJobs();
    expect(seenByOrigin).toHaveLength(0);
    expect(seen.map((s) => s.url)).toEqual([`${originUrl}/api/public/v1/jobs`]);
  });

  it('NO_PROXY for another host leaves the proxy in use', async () => {
    setProxyEnv('other.example.com');
    const client = new ApiClient({ baseUrl: 'http://api.example.test', fetch: createApiFetch({ timeoutMs: 2000 }) });
    await client.discover().catch(() => undefined); // the proxy's job list is not a discovery body
    expect(seen.map((s) => s.url)).toEqual(['http://api.example.test/api/public/v1']);
  });
});
