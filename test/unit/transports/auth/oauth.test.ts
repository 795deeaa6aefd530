/**
 * OAuth access tokens checked by the gate HTTP mode uses, against a real OpenID provider on
 * loopback (oidc-provider) that issues them by client credentials with a resource indicator: the
 * token for this resource passes; another audience's, an expired one, one signed by a key the
 * issuer does not publish, another issuer's, one before its not-before, and one without the
 * required scope are refused with the SDK's challenge; a rotated key is fetched; made-up key ids
 * do not make the server hammer the issuer. Time is moved with a fake Date (jose reads it too).
 */
import type { IncomingMessage } from 'node:http';
import { SignJWT, importJWK, type JWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../../src/obs/log.js';
import { callerOf } from '../../../../src/transports/auth/caller.js';
import { createAuthGate, type AuthGate } from '../../../../src/transports/auth/gate.js';
import { signingKey, startIssuer, type Issuer } from '../../../helpers/issuer.js';

const RESOURCE = 'http://127.0.0.1:3333/mcp';
let issuer: Issuer;
let forger: Issuer;
let sibling: Issuer;
let gate: AuthGate;
let k1: JWK;
let k2: JWK;

beforeAll(async () => {
  [k1, k2] = await Promise.all([signingKey('k1'), signingKey('k2')]);
  issuer = await startIssuer({ keys: [k1] });
  // Claims the same issuer name with keys of its own; and another issuer sharing the real keys.
  forger = await startIssuer({ keys: [await signingKey('forged')], issuer: issuer.issuer });
  sibling = await startIssuer({ keys: [k1] });
  gate = await createAuthGate(
    { oauth: { issuer: issuer.issuer, audience: RESOURCE, scopes: ['mcp:read'] }, byAddress: false },
    silentLogger,
  );
}, 30_000);
afterAll(() => Promise.all([issuer?.close(), forger?.close(), sibling?.close()]));
afterEach(() => vi.useRealTimers());

const request = (authorization?: string, url = '/mcp') =>
  ({
    url,
    method: 'POST',
    headers: authorization === undefined ? {} : { authorization },
    socket: { remoteAddress: '127.0.0.1' },
  }) as unknown as IncomingMessage;

async function refusal(authorization?: string) {
  const answer = await gate.check(request(authorization));
  if (answer.ok) throw new Error('expected a refusal');
  return answer;
}

describe('OAuth access tokens', () => {
  it('a token for this resource with the scope passes, named by its client, its token blanked', async () => {
    const answer = await gate.check(request(`Bearer ${await issuer.token(RESOURCE)}`));
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(callerOf(answer.auth)).toBe('oauth:agent');
    expect(answer.auth?.token).toBe('');
    expect(answer.auth?.scopes).toContain('mcp:read');
  });

  it('no token, or another scheme: 401 with a challenge of no error code, naming the scope and the metadata', async () => {
    for (const header of [undefined, 'Basic abc']) {
      const { status, headers, message } = await refusal(header);
      expect(status).toBe(401);
      expect(headers['www-authenticate']).toBe(
        'Bearer realm="service-mcp", scope="mcp:read", resource_metadata="http://127.0.0.1:3333/.well-known/oauth-protected-resource/mcp"',
      );
      expect(message).toMatch(/^Unauthorized: .*access token from http:\/\/127\.0\.0\.1:\d+ for the resource/);
    }
  });

  it('a malformed token: 401 invalid_token with a Bearer challenge naming the metadata', async () => {
    const { status, headers, message } = await refusal('Bearer not-a-jwt');
    expect(status).toBe(401);
    expect(headers['www-authenticate']).toMatch(
      /^Bearer error="invalid_token", .*resource_metadata="http:\/\/127\.0\.0\.1:3333\/\.well-known\/oauth-protected-resource\/mcp"/,
    );
    expect(message).toMatch(
      /^Unauthorized: Token rejected: not a JWT .*access token from http:\/\/127\.0\.0\.1:\d+ for the resource/,
    );
  });

  it("another audience's token is refused", async () => {
    const { status, message } = await refusal(`Bearer ${await issuer.token('https://other.example/mcp')}`);
    expect(status).toBe(401);
    expect(message).toMatch(/Token rejected: unexpected "aud" claim value/);
  });

  it('an expired token is refused', async () => {
    const token = await issuer.token(RESOURCE);
    // A gate of its own: its key set, fetched two hours ahead, would hold the others' cool-down back.
    const later = await createAuthGate(
      { oauth: { issuer: issuer.issuer, audience: RESOURCE, scopes: ['mcp:read'] }, byAddress: false },
      silentLogger,
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 3_600_000);
    const answer = await later.check(request(`Bearer ${token}`));
    if (answer.ok) throw new Error('expected a refusal');
    const { status, message } = answer;
    expect(status).toBe(401);
    expect(message).toMatch(/"exp" claim timestamp check failed|Token has expired/);
  });

  it('a token before its not-before is refused (signed with the issuer key itself)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ scope: 'mcp:read', client_id: 'agent' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
      .setIssuer(issuer.issuer)
      .setAudience(RESOURCE)
      .setIssuedAt(now)
      .setNotBefore(now + 3_600)
      .setExpirationTime(now + 7_200)
      .sign(await importJWK(k1, 'ES256'));
    const { status, message } = await refusal(`Bearer ${token}`);
    expect(status).toBe(401);
    expect(message).toMatch(/"nbf" claim timestamp check failed/);
  });

  it('a token signed by a key the issuer does not publish is refused, though it names the issuer', async () => {
    const { status, message } = await refusal(`Bearer ${await forger.token(RESOURCE)}`);
    expect(status).toBe(401);
    expect(message).toMatch(/signed by a key the issuer does not publish/);
  });

  it("another issuer's token is refused, even signed with the same key", async () => {
    const { status, message } = await refusal(`Bearer ${await sibling.token(RESOURCE)}`);
    expect(status).toBe(401);
    expect(message).toMatch(/unexpected "iss" claim value/);
  });

  it('a token without the required scope gets 403 insufficient_scope naming it', async () => {
    const { status, headers, message } = await refusal(`Bearer ${await issuer.token(RESOURCE, 'mcp:admin')}`);
    expect(status).toBe(403);
    expect(headers['www-authenticate']).toMatch(/^Bearer error="insufficient_scope", .*scope="mcp:read"/);
    expect(message).toMatch(/needs the scope\(s\) mcp:read/);
  });

  it('a rotated key is fetched once the cool-down allows; made-up key ids do not flood the issuer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 60_000);
    expect(await gate.check(request(`Bearer ${await issuer.token(RESOURCE)}`))).toMatchObject({ ok: true });
    const fetches = issuer.hits('/jwks');
    // Within the cool-down, 50 tokens naming unknown keys fetch the set once at most.
    const forged = await forger.token(RESOURCE);
    const [, body, signature] = forged.split('.');
    for (let i = 0; i < 50; i++) {
      const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: `made-up-${i}` })).toString('base64url');
      expect((await gate.check(request(`Bearer ${header}.${body}.${signature}`))).ok).toBe(false);
    }
    expect(issuer.hits('/jwks') - fetches).toBeLessThanOrEqual(1);
    // The issuer rotates: k2 signs, k1 is still published.
    issuer.useKeys([k2, k1]);
    vi.setSystemTime(Date.now() + 60_000);
    const rotated = await issuer.token(RESOURCE);
    expect(JSON.parse(Buffer.from(rotated.split('.')[0]!, 'base64url').toString()).kid).toBe('k2');
    expect(await gate.check(request(`Bearer ${rotated}`))).toMatchObject({ ok: true });
    issuer.useKeys([k1]);
  });

  it('a token in the URL is refused, saying to use the header', async () => {
    const answer = await gate.check(request(undefined, '/mcp?access_token=abc'));
    expect(answer).toMatchObject({ ok: false, status: 400 });
    expect(!answer.ok && answer.message).toMatch(/send it only in the Authorization header/);
  });
});
