/** The gate's answers that need no provider: callers by address, and an issuer that cannot be reached. */
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/obs/log.js';
import { callerOf } from '../../../../src/transports/auth/caller.js';
import { createAuthGate } from '../../../../src/transports/auth/gate.js';

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

describe('the gate', () => {
  it('without auth lets anyone in, named by address only when shares are kept', async () => {
    const byAddress = await createAuthGate({ byAddress: true }, silentLogger);
    const answer = await byAddress.check(request());
    expect(answer.ok && callerOf(answer.auth)).toBe('address:10.0.0.7');
    expect(byAddress.required).toBe(false);
    const open = await createAuthGate({ byAddress: false }, silentLogger);
    expect(await open.check(request('Bearer whatever'))).toEqual({ ok: true, auth: undefined });
  });

  it('an issuer that cannot be reached gives 503 with Retry-After, not a refusal of the token', async () => {
    const issuer = `http://127.0.0.1:${await closedPort()}`;
    const gate = await createAuthGate(
      { oauth: { issuer, audience: 'http://127.0.0.1:3333/mcp' }, byAddress: false },
      silentLogger,
    );
    const answer = await gate.check(request('Bearer a.b.c'));
    expect(answer).toMatchObject({ ok: false, status: 503, headers: { 'retry-after': '5' } });
    expect(!answer.ok && answer.message).toMatch(/the token could not be checked: .*metadata could not be read/);
  });
});
