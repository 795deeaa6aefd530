/**
 * Auth as MCP clients meet it, the built binary over loopback: the challenge to a request with no
 * credentials carries no error code (RFC 6750 §3.1); with static tokens, every address an OAuth
 * client tries on a 401 (the well-known documents, then /register, /authorize, /token: the SDK's
 * fallbacks, which mcp-remote and the Inspector use) answers with an OAuth error naming the fix,
 * which is what those clients print; with OAuth, the Protected Resource Metadata and the answer
 * to a token that is no JWT need nothing from the issuer, so they hold while it is unreachable.
 * The clients themselves: test/installed/deploy-clients.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from './helpers.js';
import {
  postInitialize as post,
  rawRequest,
  startHttpServer,
  startOAuthServer,
  type HttpServerProcess,
} from './http-helpers.js';

const ALICE = `alice-${randomBytes(16).toString('hex')}`;
const WRONG = `wrong-${randomBytes(16).toString('hex')}`;

/** Where the SDK's OAuth client (mcp-remote 0.15, the Inspector 2.12) looks on a 401, in its order. */
const OAUTH_WALK: Array<[method: string, path: string]> = [
  ['GET', '/.well-known/oauth-protected-resource/mcp'],
  ['GET', '/.well-known/oauth-protected-resource'],
  ['GET', '/.well-known/oauth-protected-resource/api/public/v1/mcp'],
  ['GET', '/.well-known/oauth-authorization-server'],
  ['GET', '/.well-known/openid-configuration'],
  ['GET', '/mcp/.well-known/openid-configuration'],
  ['POST', '/register'],
  ['GET', '/authorize?response_type=code&client_id=x'],
  ['POST', '/token'],
];

describe('static tokens, as clients meet them', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'service-mcp-auth-')), 'tokens');
    writeFileSync(file, `alice:${ALICE}\n`);
    server = await startHttpServer(['--auth-tokens-file', file]);
  });
  afterAll(() => server?.stop());

  it('no credentials, or another scheme: 401 with a challenge that carries no error code (RFC 6750 §3.1)', async () => {
    const basic = `Basic ${Buffer.from(`alice:${ALICE}`).toString('base64')}`;
    for (const headers of [{}, { authorization: basic }] as Array<Record<string, string>>) {
      const answer = await post(server.origin, headers);
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="service-mcp"');
      expect(answer.json()).toMatchObject({
        error: { message: expect.stringMatching(/^Unauthorized: .*; send Authorization: Bearer <token>/) },
      });
    }
    const wrong = await post(server.origin, { authorization: `Bearer ${WRONG}` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(
      /^Bearer error="invalid_token", error_description="Unknown token"$/,
    );
  });

  it('every address an OAuth client tries answers with an OAuth error that names the fix', async () => {
    for (const [method, path] of OAUTH_WALK) {
      const cases: Array<[Record<string, string>, RegExp]> = [
        // Nothing said of a token this request lacks: the Inspector sends its --header to /mcp only.
        [{}, /authorize\. Send the header/],
        [
          { authorization: `Bearer ${WRONG}` },
          /authorize\. The token sent was refused: Unknown token\. Send the header/,
        ],
        [
          { authorization: 'Bearer short' },
          /The token sent was refused: Not a token of this server: its tokens are 16 or more/,
        ],
        [{ authorization: `Bearer ${ALICE}` }, /authorize\. The token sent is valid\. Send the header/],
      ];
      for (const [headers, state] of cases) {
        const answer = await rawRequest(server.origin, {
          method,
          path,
          headers: { ...headers, 'content-type': 'application/json' },
          ...(method === 'POST' ? { body: '{"redirect_uris":["http://localhost:1/cb"]}' } : {}),
        });
        // A document that is not there is 404 (clients go on); an endpoint's error is 400 (clients print it).
        expect(answer.status, `${method} ${path}`).toBe(path.includes('/.well-known/') ? 404 : 400);
        const body = answer.json<{ error: string; error_description: string }>();
        expect(body.error).toBe('invalid_request');
        expect(body.error_description).toMatch(
          /^This server takes static bearer tokens, not OAuth: there is nothing to discover, register or authorize\. /,
        );
        expect(body.error_description).toMatch(state);
        expect(body.error_description).toMatch(
          /Send the header Authorization: Bearer <token> on every MCP request, with a token from the server's operator \(mcp-remote, the MCP Inspector: --header "Authorization: Bearer <token>"\)\.$/,
        );
        expect(body.error_description).not.toContain(ALICE);
        // Words mcp-remote 0.15 reads as "fall back to SSE" or "wait for a browser sign-in" instead of printing it.
        expect(body.error_description).not.toMatch(/404|405|Not Found|Method Not Allowed|Unauthorized/);
      }
    }
    // Other addresses stay the plain 404 naming the MCP endpoint.
    expect((await rawRequest(server.origin, { path: '/nothing' })).json()).toMatchObject({
      error: { message: expect.stringMatching(/^Not Found: \/nothing; the MCP endpoint is POST \/mcp/) },
    });
  });
});

describe('OAuth while the issuer cannot be reached', () => {
  let server: HttpServerProcess;
  let issuer: string;
  let audience: string;
  beforeAll(async () => {
    issuer = `http://127.0.0.1:${await closedPort()}`;
    ({ server, audience } = await startOAuthServer(issuer));
  });
  afterAll(() => server?.stop());

  it('serves the Protected Resource Metadata from its configuration, at every address a client derives', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource/api/public/v1/mcp',
    ]) {
      const answer = await rawRequest(server.origin, { path });
      expect(answer.status, path).toBe(200);
      expect(answer.json()).toEqual({
        resource: audience,
        authorization_servers: [issuer],
        scopes_supported: ['mcp:read'],
        resource_name: 'service-mcp',
      });
    }
    // The issuer's own document is the issuer's: it is relayed when it can be read, 503 while not.
    expect((await rawRequest(server.origin, { path: '/.well-known/oauth-authorization-server' })).status).toBe(503);
  });

  it('no token: a challenge with no error code that names the metadata; a token that is no JWT: 401, not 503', async () => {
    const none = await post(server.origin);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe(
      `Bearer realm="service-mcp", scope="mcp:read", resource_metadata="${server.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    const notJwt = await post(server.origin, { authorization: `Bearer ${WRONG}` });
    expect(notJwt.status).toBe(401);
    expect(notJwt.headers['www-authenticate']).toMatch(
      /^Bearer error="invalid_token", error_description="Token rejected: not a JWT/,
    );
    expect(notJwt.json()).toMatchObject({
      error: { message: expect.stringMatching(/^Unauthorized: Token rejected: not a JWT/) },
    });
  });
});
