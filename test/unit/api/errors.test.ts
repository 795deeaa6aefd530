/** The error family: kinds by status, secrets redacted, undici's hidden causes dug out. */
import { describe, expect, it } from 'vitest';
import { ApiError, describeNetworkCause, ERROR_KINDS, kindForStatus } from '../../../src/contract/errors.js';
import { redactSecrets } from '../../../src/lib/redact.js';

describe('kindForStatus', () => {
  it.each([
    [400, 'invalid_argument'],
    [422, 'invalid_argument'],
    [404, 'not_found'],
    [410, 'not_found'],
    [429, 'rate_limited'],
    [500, 'upstream_unavailable'],
    [503, 'upstream_unavailable'],
    [401, 'upstream_contract'],
    [403, 'upstream_contract'],
    [302, 'upstream_contract'],
  ] as const)('%i -> %s', (status, kind) => {
    expect(kindForStatus(status)).toBe(kind);
  });

  it('every kind of docs/contract.md is in the family', () => {
    for (const kind of [
      'invalid_argument',
      'not_found',
      'rate_limited',
      'upstream_unavailable',
      'upstream_contract',
      'timeout',
      'network',
    ]) {
      expect(ERROR_KINDS).toContain(kind);
    }
  });
});

describe('ApiError', () => {
  it('keeps kind, status, path, upstream members, seconds, JSON path and cause', () => {
    const cause = new Error('root');
    const error = new ApiError('rate_limited', 'limited', {
      status: 429,
      path: '/api/public/v1/jobs',
      upstreamError: 'e',
      upstreamMessage: 'm',
      retryAfterS: 3,
      jsonPath: 'a.b',
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(ApiError);
    expect(new Error('x')).not.toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      name: 'ApiError',
      kind: 'rate_limited',
      status: 429,
      path: '/api/public/v1/jobs',
      upstreamError: 'e',
      upstreamMessage: 'm',
      retryAfterS: 3,
      jsonPath: 'a.b',
    });
    expect(error.cause).toBe(cause);
  });

  it('redacts secrets from its message and path', () => {
    const error = new ApiError('network', 'GET https://user:pw@api.example.test/x?token=abc failed', {
      path: '/x?api_key=k&q=1',
    });
    expect(error.message).not.toMatch(/pw|abc/);
    expect(error.path).toBe('/x?api_key=[redacted]&q=1');
  });

  it('has no cause member when none was given', () => {
    expect('cause' in new ApiError('timeout', 't')).toBe(false);
  });
});

describe('redactSecrets', () => {
  it.each([
    ['https://user:secret@api.example.test/path', 'https://[redacted]@api.example.test/path'],
    ['http://token@host/', 'http://[redacted]@host/'],
    ['/jobs?token=abc&q=x', '/jobs?token=[redacted]&q=x'],
    ['/jobs?q=x&access_token=abc', '/jobs?q=x&access_token=[redacted]'],
    ['/jobs?q=x&refresh_token=abc', '/jobs?q=x&refresh_token=[redacted]'],
    ['/jobs?client_secret=abc', '/jobs?client_secret=[redacted]'],
    ['/jobs?API_KEY=abc', '/jobs?API_KEY=[redacted]'],
    ['/jobs?x-api-key=abc', '/jobs?x-api-key=[redacted]'],
    ['/jobs?password=p#frag', '/jobs?password=[redacted]#frag'],
    ['/jobs?sig=zz&signature=yy', '/jobs?sig=[redacted]&signature=[redacted]'],
    ['Authorization: Bearer eyJhbGciOi.abc-def_ghi', 'Authorization: Bearer [redacted]'],
    ['authorization: bearer abc.def', 'authorization: bearer [redacted]'],
    ['Authorization: Basic dXNlcjpwYXNz', 'Authorization: Basic [redacted]'],
    ['{"authorization":"token abc123"}', '{"authorization":"token [redacted]"}'],
    ['sent Bearer abc and Bearer def', 'sent Bearer [redacted] and Bearer [redacted]'],
  ])('%s', (input, output) => {
    expect(redactSecrets(input)).toBe(output);
  });

  it('leaves ordinary text, e-mail addresses and harmless parameters alone', () => {
    for (const text of [
      '/jobs?q=monkey&skills=rust,go',
      'see https://api.example.test/x and write to a@b.example',
      'token budget exceeded',
      '/jobs?keyword=x&monkey=1',
      'Basic filters require q',
      'the bearer of bad news',
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });

  it('does not reach across quoted JSON values', () => {
    for (const value of [
      { url: 'https://api.example.test/x', contact: 'ops@example.test', n: 1 },
      { url: 'https://api.example.test', contact: 'ops@example.test' },
    ]) {
      const json = JSON.stringify(value);
      expect(redactSecrets(json)).toBe(json);
    }
    expect(JSON.parse(redactSecrets(JSON.stringify({ url: 'https://u:p@h.example/x', n: 1 })))).toEqual({
      url: 'https://[redacted]@h.example/x',
      n: 1,
    });
    expect(JSON.parse(redactSecrets(JSON.stringify({ path: '/x?token=abc', n: 1 })))).toEqual({
      path: '/x?token=[redacted]',
      n: 1,
    });
  });
});

describe('describeNetworkCause', () => {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });

  it('unwraps undici\'s TypeError("fetch failed") to its cause', () => {
    expect(describeNetworkCause(new TypeError('fetch failed', { cause: refused() }))).toBe(
      'connect ECONNREFUSED 127.0.0.1:9',
    );
  });

  it('prefixes the code when the message does not carry it', () => {
    const cause = Object.assign(new Error('getaddrinfo failed'), { code: 'ENOTFOUND' });
    expect(describeNetworkCause(new TypeError('fetch failed', { cause }))).toBe('ENOTFOUND: getaddrinfo failed');
  });

  it('joins nested causes outermost first', () => {
    const inner = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    const middle = new Error('TLS handshake failed', { cause: inner });
    expect(describeNetworkCause(new TypeError('fetch failed', { cause: middle }))).toBe(
      'TLS handshake failed <- DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate',
    );
  });

  it('looks inside an AggregateError (happy eyeballs tries several addresses)', () => {
    const v6 = Object.assign(new Error('connect ECONNREFUSED ::1:9'), { code: 'ECONNREFUSED' });
    const v4 = refused();
    const aggregate = Object.assign(new AggregateError([v6, v4], ''), { code: 'ECONNREFUSED' });
    const text = describeNetworkCause(new TypeError('fetch failed', { cause: aggregate }));
    expect(text).toContain('ECONNREFUSED');
    expect(text).toContain('::1:9');
    expect(text).toContain('127.0.0.1:9');
  });

  it('names a non-Error cause', () => {
    expect(describeNetworkCause(new TypeError('fetch failed', { cause: 'socket closed' }))).toBe('socket closed');
  });

  it('stops on cycles and deep chains', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(describeNetworkCause(a)).toBe('a <- b');
  });

  it('falls back to "fetch failed" when there is nothing better', () => {
    expect(describeNetworkCause(new TypeError('fetch failed'))).toBe('fetch failed');
    expect(describeNetworkCause(undefined)).toBe('fetch failed');
  });
});
