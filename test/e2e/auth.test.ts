/**
 * `serve --http` for a team, the built binary driven over loopback: static tokens (the SDK's client
 * with the header, raw refusals, a token in the URL, SIGHUP, an adversary's flood of wrong tokens
 * and oversized headers, no token in any log line), and OAuth against a real OpenID provider, whose
 * Protected Resource Metadata the SDK's own client follows to get a token by client credentials.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, ClientCredentialsProvider, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT, signingKey, startIssuer, type Issuer } from '../helpers/issuer.js';
import { runCli } from './helpers.js';
import {
  INITIALIZE,
  MCP_POST_HEADERS,
  postInitialize as post,
  rawRequest,
  startHttpServer,
  startOAuthServer,
  type HttpServerProcess,
} from './http-helpers.js';

const ALICE = `alice-${randomBytes(16).toString('hex')}`;
const BOB = `bob-${randomBytes(16).toString('hex')}`;
const CAROL = `carol-${randomBytes(16).toString('hex')}`;
const WRONG = `wrong-${randomBytes(16).toString('hex')}`;

async function connect(url: string, init: { token?: string; authProvider?: ClientCredentialsProvider } = {}) {
  const client = new Client({ name: 'auth-e2e', version: '0.0.0' }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      ...(init.token ? { requestInit: { headers: { authorization: `Bearer ${init.token}` } } } : {}),
      ...(init.authProvider ? { authProvider: init.authProvider } : {}),
    }),
  );
  return client;
}

describe('static tokens (--auth-tokens-file)', () => {
  let server: HttpServerProcess;
  let file: string;
  beforeAll(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'service-mcp-auth-')), 'tokens');
    writeFileSync(file, `# the team\nalice:${ALICE}\nbob:${BOB}\n`);
    // Two slots: a flood that took any would turn valid callers away with 503.
    server = await startHttpServer(['--auth-tokens-file', file, '--max-in-flight', '2', '--log-level', 'debug']);
  });
  afterAll(() => server?.stop());

  it('a caller with a token of the file is served; /healthz stays open', async () => {
    const client = await connect(server.url, { token: ALICE });
    const result = await client.callTool({ name: 'get_job', arguments: { job_id: 'job_ai_0001' } });
    expect(result.isError).toBeFalsy();
    await client.close();
    expect((await rawRequest(server.origin, { path: '/healthz' })).status).toBe(200);
  });

  it('no token or a wrong one: 401, a Bearer challenge and a JSON-RPC error body', async () => {
    // No token (or another scheme) gets a challenge with no error code: auth-discovery.test.ts.
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{}, /^Bearer realm="service-mcp"$/],
      [{ authorization: `Bearer ${WRONG}` }, /^Bearer error="invalid_token"/],
      [{ authorization: `Basic ${ALICE}` }, /^Bearer realm="service-mcp"$/],
    ];
    for (const [headers, challenge] of cases) {
      const answer = await post(server.origin, headers);
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(challenge);
      expect(answer.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.stringMatching(/^Unauthorized: .*send Authorization: Bearer <token>/) },
      });
    }
    await expect(connect(server.url)).rejects.toThrow();
  });

  it('a token in the URL is refused, saying to use the header, even a valid one', async () => {
    for (const path of [`/mcp?access_token=${ALICE}`, `/api/public/v1/mcp?surface=market&token=${ALICE}`]) {
      const answer = await post(server.origin, { authorization: `Bearer ${ALICE}` }, path);
      expect(answer.status).toBe(400);
      expect(answer.json<{ error: { message: string } }>().error.message).toMatch(
        /a token was sent in the URL .* send it only in the Authorization header/,
      );
    }
  });

  it('headers of 1 MB are refused by Node before any work, and the server goes on', async () => {
    const status = await new Promise<number | string>((resolve) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/mcp',
          headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${'x'.repeat(1024 * 1024)}` },
          agent: false,
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      // Node may answer 431 and close before the client has written everything.
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      req.end(INITIALIZE);
    });
    expect([431, 'ECONNRESET', 'EPIPE']).toContain(status);
    expect((await post(server.origin, { authorization: `Bearer ${ALICE}` })).status).toBe(200);
  });

  it('wrong tokens take no slot: 16 clients sending them all along, the valid caller is always served', async () => {
    const client = await connect(server.url, { token: BOB });
    let served = false;
    const refused: number[] = [];
    // Over kept-alive connections (fetch's), as a client hammering the port would: each of 16
    // clients sends wrong tokens back to back for as long as the valid caller's 20 calls take (and
    // 20 at least). With two slots, refusals that took one, or kept one, would turn it away. (This
    // sent 10,000 whatever the valid caller was doing: 14 s, most of it after its calls were done.)
    const flood = async () => {
      for (let mine = 0; !served || mine < 20; mine++) {
        const answer = await fetch(server.url, {
          method: 'POST',
          headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${WRONG}${refused.length}` },
          body: INITIALIZE,
        });
        await answer.arrayBuffer();
        refused.push(answer.status);
      }
    };
    const valid = async () => {
      const results = [];
      for (let i = 0; i < 20; i++)
        results.push(await client.callTool({ name: 'get_job', arguments: { job_id: 'job_ai_0001' } }));
      served = true;
      return results;
    };
    const [results] = await Promise.all([valid(), ...Array.from({ length: 16 }, flood)]);
    expect(results.filter((r) => r.isError)).toEqual([]);
    expect(refused.length).toBeGreaterThanOrEqual(16 * 20);
    expect(new Set(refused)).toEqual(new Set([401]));
    await client.close();
  }, 120_000);

  it('SIGHUP re-reads the file: a new token is accepted and a removed one refused', async () => {
    writeFileSync(file, `alice:${ALICE}\ncarol:${CAROL}\n`);
    server.process.kill('SIGHUP');
    // The re-read is asynchronous: polled until it shows (15 s: a margin a loaded machine keeps).
    await expect
      .poll(async () => (await post(server.origin, { authorization: `Bearer ${CAROL}` })).status, { timeout: 15_000 })
      .toBe(200);
    expect((await post(server.origin, { authorization: `Bearer ${BOB}` })).status).toBe(401);
    // A file that cannot be used keeps the tokens in force.
    writeFileSync(file, 'carol:short\n');
    server.process.kill('SIGHUP');
    await expect.poll(() => server.stderr(), { timeout: 15_000 }).toMatch(/SIGHUP: .*tokens:1: the token of carol/);
    expect((await post(server.origin, { authorization: `Bearer ${CAROL}` })).status).toBe(200);
    expect(server.process.exitCode).toBeNull();
  });

  it('a tokens file that cannot be used is bad usage before anything listens, naming the line, never a token', async () => {
    const missing = await runCli(['serve', '--http', '--port', '0', '--auth-tokens-file', `${file}.missing`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--auth-tokens-file: .*tokens\.missing: cannot be read \(ENOENT\)/);
    const bad = `${file}.bad`;
    writeFileSync(bad, `alice:${ALICE}\nbob:${ALICE}\n`);
    const twice = await runCli(['serve', '--http', '--port', '0', '--auth-tokens-file', bad]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/tokens\.bad:2: the token of bob is another name's too/);
    expect(twice.stdout + twice.stderr).not.toContain(ALICE);
  });

  it("no token appears in any log line; the callers' names do", () => {
    const log = server.stderr();
    for (const token of [ALICE, BOB, CAROL, WRONG]) expect(log).not.toContain(token);
    expect(log).toMatch(/caller token:alice/);
    expect(log).toMatch(/refused POST from 127\.0\.0\.1: invalid_token/);
  });
});

describe('OAuth access tokens (--auth-issuer, --auth-audience, --auth-scopes)', () => {
  let issuer: Issuer;
  let server: HttpServerProcess;
  let audience: string;
  beforeAll(async () => {
    issuer = await startIssuer({ keys: [await signingKey('k1')] });
    ({ server, audience } = await startOAuthServer(issuer.issuer, ['--log-level', 'debug']));
  }, 30_000);
  afterAll(() => Promise.all([server?.stop(), issuer?.close()]));

  it('publishes Protected Resource Metadata naming the issuer and scopes, at both addresses', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const answer = await rawRequest(server.origin, { path });
      expect(answer.status).toBe(200);
      expect(answer.json()).toMatchObject({
        resource: audience,
        authorization_servers: [issuer.issuer],
        scopes_supported: ['mcp:read'],
      });
    }
    const challenge = await post(server.origin);
    expect(challenge.status).toBe(401);
    expect(challenge.headers['www-authenticate']).toContain(
      `resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it("the SDK's client follows the metadata to the issuer, gets a token by client credentials and calls", async () => {
    const authProvider = new ClientCredentialsProvider({
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      scope: 'mcp:read',
      expectedIssuer: issuer.issuer,
    });
    const client = await connect(server.url, { authProvider });
    const result = await client.callTool({ name: 'check_api_health', arguments: {} });
    expect(result.isError).toBeFalsy();
    await client.close();
    expect(server.stderr()).toMatch(/caller oauth:agent/);
  });

  it("another audience's token gets 401; one without the scope gets 403 naming it", async () => {
    const other = await post(server.origin, {
      authorization: `Bearer ${await issuer.token('https://other.example/mcp', 'mcp:read')}`,
    });
    expect(other.status).toBe(401);
    expect(other.json<{ error: { message: string } }>().error.message).toMatch(/unexpected "aud" claim value/);
    const narrow = await post(server.origin, { authorization: `Bearer ${await issuer.token(audience, 'mcp:admin')}` });
    expect(narrow.status).toBe(403);
    expect(narrow.headers['www-authenticate']).toMatch(/error="insufficient_scope".*scope="mcp:read"/);
    expect(
      (await post(server.origin, { authorization: `Bearer ${await issuer.token(audience, 'mcp:read')}` })).status,
    ).toBe(200);
  });
});
