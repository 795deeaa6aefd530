/**
 * The gate's answers that need no provider: callers by address, the challenge to a request with no
 * credentials, tokens that are not of the mode's form, and an issuer that cannot be reached.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPair, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/obs/log.js';
import { callerOf } from '../../../../src/transports/auth/caller.js';
import { createAuthGate, type AuthGate } from '../../../../src/transports/auth/gate.js';

const AUDIENCE = 'http://127.0.0.1:3333/mcp';
const METADATA = 'http://127.0.0.1:3333/.well-known/oauth-protected-resource/mcp';

const request = (authorization?: string) =>
  ({
    url: '/mcp',
    method: 'POST',
    headers: authorization === undefined ? {} : { authorization },
    socket: { remoteAddress: '10.0.0.7' },
  }) as unknown as IncomingMessage;

const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

async function refusal(gate: AuthGate, authorization?: string) {
  const answer = await gate.check(request(authorization));
  if (answer.ok) throw new Error('expected a refusal');
  return answer;
}

let issuer: string;
let tokensGate: AuthGate;
let unreachable: AuthGate;
beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'service-mcp-gate-')), 'tokens');
  writeFileSync(file, 'alice:alice-token-0123456789abcdef\n');
  tokensGate = await createAuthGate({ tokensFile: file, byAddress: false }, silentLogger);
  issuer = `http://127.0.0.1:${await closedPort()}`;
  unreachable = await createAuthGate(
    { oauth: { issuer, audience: AUDIENCE, scopes: ['mcp:read'] }, byAddress: false },
    silentLogger,
  );
});

describe('the gate', () => {
  it('without auth lets anyone in, named by address only when shares are kept', async () => {
    const byAddress = await createAuthGate({ byAddress: true }, silentLogger);
    const answer = await byAddress.check(request());
    expect(answer.ok && callerOf(answer.auth)).toBe('address:10.0.0.7');
    expect(byAddress.required).toBe(false);
    const open = await createAuthGate({ byAddress: false }, silentLogger);
    expect(await open.check(request('Bearer whatever'))).toEqual({ ok: true, auth: undefined });
  });

  it('no credentials (no header, an empty one, another scheme): 401 and a challenge with no error code (RFC 6750 §3.1)', async () => {
    for (const header of [undefined, '', 'Basic YWxpY2U6c2VjcmV0']) {
      const statics = await refusal(tokensGate, header);
      expect(statics.status).toBe(401);
      expect(statics.headers['www-authenticate']).toBe('Bearer realm="service-mcp"');
      expect(statics.message).toMatch(
        /^Unauthorized: (no token was sent|the Authorization header is of another scheme than Bearer); send Authorization: Bearer <token> with a token from the server operator$/,
      );
      // With OAuth the challenge still says where to get a token, and needs nothing from the issuer.
      const oauth = await refusal(unreachable, header);
      expect(oauth.status).toBe(401);
      expect(oauth.headers['www-authenticate']).toBe(
        `Bearer realm="service-mcp", scope="mcp:read", resource_metadata="${METADATA}"`,
      );
      expect(oauth.message).toMatch(/^Unauthorized: .*access token from http:\/\/127\.0\.0\.1:\d+ for the resource/);
    }
  });

  it('a token not of the form static tokens take: 401 invalid_token saying what the form is', async () => {
    for (const token of ['short', 'has"a-quote-0123456789abcdef', 'ümlaut-0123456789abcdef']) {
      const answer = await refusal(tokensGate, `Bearer ${token}`);
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
      expect(answer.message).toMatch(
        /Not a token of this server: its tokens are 16 or more of A-Z a-z 0-9 - \. _ ~ \+ \//,
      );
    }
    expect((await refusal(tokensGate, 'Bearer unknown-token-0123456789abcdef')).message).toMatch(/Unknown token/);
  });

  it('a token that is no JWT, with OAuth, is 401 invalid_token even while the issuer is unreachable, never 503', async () => {
    for (const token of ['not-a-jwt', 'a.b.c', 'eyJhbGciOiJub25lIn0.bm90IGpzb24.', 'a.b.c.d.e']) {
      const answer = await refusal(unreachable, `Bearer ${token}`);
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(
        new RegExp(`^Bearer error="invalid_token", .*resource_metadata="${METADATA}"`),
      );
      expect(answer.message).toMatch(/Token rejected: not a JWT/);
    }
  });

  it('a JWT while the issuer cannot be reached gives 503 with Retry-After, not a refusal of the token', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const jwt = await new SignJWT({ scope: 'mcp:read' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience(AUDIENCE)
      .setExpirationTime('1h')
      .sign(privateKey);
    const answer = await unreachable.check(request(`Bearer ${jwt}`));
    expect(answer).toMatchObject({ ok: false, status: 503, headers: { 'retry-after': '5' } });
    expect(!answer.ok && answer.message).toMatch(/the token could not be checked: .*metadata could not be read/);
  });
});
