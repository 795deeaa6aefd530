/**
 * A defect is never reported as the network: an error thrown by our code or by a dependency for the
 * way it was called is `internal`, names the package and Node versions, and sends nobody to check
 * their connectivity. Only a socket, DNS, TLS or answer-in-transit failure is `network`.
 */
import { errors as undiciErrors } from 'undici';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { isTransportFailure, type ApiError } from '../../../src/contract/errors.js';
import { toErrorResult } from '../../../src/tools/error-result.js';
import { VERSION } from '../../../src/contract/version.js';
import { BASE, rejectionOf } from './helpers.js';

const failingWith = (error: unknown) =>
  new ApiClient({ baseUrl: BASE, fetch: () => Promise.reject(error), unavailableRetries: 0 });
const systemError = (code: string, message = code) => Object.assign(new Error(message), { code });
const textOf = (error: unknown) => (toErrorResult(error).content[0] as { text: string }).text;

describe('a failure thrown by code, not by the network', () => {
  it.each([
    [
      'a TypeError from our code or a dependency (undici 8 on Node 22.12)',
      new TypeError("Cannot read properties of undefined (reading 'bind')"),
    ],
    [
      "undici's UND_ERR_INVALID_ARG (undici 8.13 refusing our interceptor order)",
      new undiciErrors.InvalidArgumentError('the cache interceptor must be composed after the redirect interceptor'),
    ],
    ['a RangeError', new RangeError('Invalid array length')],
    [
      "Node's ERR_INVALID_ARG_TYPE",
      Object.assign(new TypeError('The "url" argument must be of type string'), { code: 'ERR_INVALID_ARG_TYPE' }),
    ],
    [
      "fetch's network TypeError whose cause is a defect",
      new TypeError('fetch failed', { cause: new undiciErrors.InvalidArgumentError('invalid onRequestStart method') }),
    ],
  ])('%s is internal, with the versions, and no connectivity advice', async (_what, thrown) => {
    const error = (await rejectionOf(failingWith(thrown).listJobs())) as ApiError;
    expect(error.kind).toBe('internal');
    expect(error.message).toContain(`service-mcp/${VERSION}`);
    expect(error.message).toContain(`Node.js ${process.version}`);
    const text = textOf(error);
    expect(text).toMatch(/^internal: GET \/api\/public\/v1\/jobs failed inside service-mcp\//);
    expect(text).toContain('Hint: This is a defect of service-mcp');
    expect(text).not.toMatch(/connectivity|proxy|base URL|check the network/i);
  });

  it('a throw outside any request (a renderer, say) is internal too, with the same versions', () => {
    const text = textOf(new Error('boom'));
    expect(text).toMatch(
      new RegExp(
        `^internal: the call failed inside service-mcp/${VERSION.replace(/\./g, '\\.')} on Node\\.js ${process.version.replace(/\./g, '\\.')}: Error: boom\\nHint: This is a defect`,
      ),
    );
  });
});

describe('a failure on the way is network', () => {
  it.each([
    ['connection refused', systemError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9')],
    ['DNS', systemError('ENOTFOUND', 'getaddrinfo ENOTFOUND api.example.invalid')],
    ['DNS, temporarily', systemError('EAI_AGAIN')],
    ['a reset', systemError('ECONNRESET', 'read ECONNRESET')],
    [
      'TLS: an untrusted certificate',
      systemError('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'),
    ],
    [
      'TLS: a wrong host name',
      systemError('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"),
    ],
    ["undici's socket error", new undiciErrors.SocketError('other side closed')],
    ["undici's connect timeout", new undiciErrors.ConnectTimeoutError()],
    ['an answer cut short', new undiciErrors.ResponseContentLengthMismatchError()],
    ['a malformed HTTP answer', systemError('HPE_INVALID_CONSTANT', 'Expected HTTP/')],
    ['a body its sender encoded badly', systemError('Z_DATA_ERROR', 'incorrect header check')],
    [
      'happy eyeballs: every address refused',
      new AggregateError([systemError('ECONNREFUSED'), systemError('ENETUNREACH')]),
    ],
    [
      "fetch's network TypeError, with a socket cause",
      new TypeError('fetch failed', { cause: systemError('ECONNRESET') }),
    ],
    [
      "fetch's network TypeError, with a cause that names no code",
      new TypeError('fetch failed', { cause: new Error('socket hang up') }),
    ],
    ["fetch's bare network TypeError", new TypeError('Failed to fetch')],
    [
      'a redirect to a scheme other than http(s)',
      new undiciErrors.InvalidArgumentError('Invalid URL protocol: the URL must start with `http:` or `https:`.'),
    ],
  ])('%s', async (_what, thrown) => {
    expect(isTransportFailure(thrown)).toBe(true);
    expect(await rejectionOf(failingWith(thrown).listJobs())).toMatchObject({ kind: 'network' });
  });
});
