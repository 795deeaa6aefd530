/** Configuration: flags > env > defaults, validated into one frozen Config with errors naming flag and env var. */
import { describe, expect, it } from 'vitest';
import { ConfigError, mergeSources, resolveConfig } from '../../src/config/config.js';
import { OPTION_TABLE, type RawOptions } from '../../src/config/options.js';

const BASE = 'https://api.example.test';
const resolve = (flags: RawOptions = {}, env: Record<string, string> = {}) => resolveConfig(flags, env);

function configError(flags: RawOptions, env: Record<string, string> = {}): ConfigError {
  try {
    resolve(flags, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('defaults', () => {
  it('with nothing set: offline (no base URL), 15 s timeout, 20 s retry wait, warn, cache on, 64 in flight', () => {
    expect(resolve()).toEqual({
      baseUrl: undefined,
      offline: true,
      offlineReason: 'no_base_url',
      timeoutMs: 15_000,
      maxRetryWaitS: 20,
      logLevel: 'warn',
      cache: true,
      bridge: true,
      maxInFlight: 64,
      metricsHost: '127.0.0.1',
      logFormat: 'text',
    });
  });

  it('--no-bridge and SERVICE_MCP_NO_BRIDGE=1 turn the bridge off; an unreadable value is refused', () => {
    expect(resolve({ bridge: false }).bridge).toBe(false);
    expect(resolve({}, { SERVICE_MCP_NO_BRIDGE: '1' }).bridge).toBe(false);
    expect(resolve({}, { SERVICE_MCP_NO_BRIDGE: '0' }).bridge).toBe(true);
    expect(() => resolve({}, { SERVICE_MCP_NO_BRIDGE: 'maybe' })).toThrow(
      /SERVICE_MCP_NO_BRIDGE="maybe" is not a boolean/,
    );
  });

  it('with a base URL: online', () => {
    expect(resolve({}, { SERVICE_MCP_BASE_URL: BASE })).toMatchObject({
      baseUrl: BASE,
      offline: false,
      offlineReason: undefined,
    });
  });

  it('reads process.env when no env is given', () => {
    const saved = process.env.SERVICE_MCP_TIMEOUT_MS;
    process.env.SERVICE_MCP_TIMEOUT_MS = '4321';
    try {
      expect(resolveConfig({}).timeoutMs).toBe(4321);
    } finally {
      if (saved === undefined) delete process.env.SERVICE_MCP_TIMEOUT_MS;
      else process.env.SERVICE_MCP_TIMEOUT_MS = saved;
    }
  });
});

describe('precedence: flag > env > default', () => {
  it.each([
    ['baseUrl', 'SERVICE_MCP_BASE_URL', 'https://flag.example.test', 'https://env.example.test'],
    ['timeoutMs', 'SERVICE_MCP_TIMEOUT_MS', '1000', '2000'],
    ['maxRetryWaitS', 'SERVICE_MCP_MAX_RETRY_WAIT_S', '5', '6'],
    ['logLevel', 'SERVICE_MCP_LOG_LEVEL', 'debug', 'info'],
  ] as const)('%s', (key, env, flagValue, envValue) => {
    const base = key === 'baseUrl' ? {} : { baseUrl: BASE };
    const fromFlag = resolve({ ...base, [key]: flagValue }, { [env]: envValue });
    const fromEnv = resolve(base, { [env]: envValue });
    const numeric = key === 'timeoutMs' || key === 'maxRetryWaitS';
    expect(fromFlag[key]).toEqual(numeric ? Number(flagValue) : flagValue);
    expect(fromEnv[key]).toEqual(numeric ? Number(envValue) : envValue);
  });

  it('an empty environment variable counts as unset', () => {
    expect(resolve({}, { SERVICE_MCP_BASE_URL: '', SERVICE_MCP_TIMEOUT_MS: ' ' })).toMatchObject({
      offline: true,
      timeoutMs: 15_000,
    });
  });

  it('commander numbers are accepted as well as strings', () => {
    expect(resolve({ timeoutMs: 3000, maxRetryWaitS: 0 }).timeoutMs).toBe(3000);
    expect(resolve({ maxRetryWaitS: 0 }).maxRetryWaitS).toBe(0);
  });

  it('the log level is case-insensitive and trimmed', () => {
    expect(resolve({ logLevel: ' DEBUG ' }).logLevel).toBe('debug');
    expect(resolve({}, { SERVICE_MCP_LOG_LEVEL: 'Error' }).logLevel).toBe('error');
  });

  it.each([
    [`${BASE}/api/public/v1`, BASE],
    [`${BASE}/api/public/v1/`, BASE],
    [`${BASE}/gateway/api/public/v1`, `${BASE}/gateway`],
  ])('a base URL ending in the API prefix (%s) is refused, naming the one to use', (given, use) => {
    expect(() => resolve({ baseUrl: given })).toThrow(
      `--base-url / SERVICE_MCP_BASE_URL: "${given}" ends in the API's path prefix /api/public/v1, which every request adds itself; use ${use} instead`,
    );
  });

  it('a trailing slash of the base URL is dropped', () => {
    expect(resolve({ baseUrl: `${BASE}/prefix//` }).baseUrl).toBe(`${BASE}/prefix`);
  });
});

describe('offline', () => {
  it('--offline with a base URL is an error naming both (one of them is a mistake)', () => {
    expect(() => resolve({ offline: true, baseUrl: BASE })).toThrow(
      /--offline \/ SERVICE_MCP_OFFLINE and --base-url \/ SERVICE_MCP_BASE_URL are both set/,
    );
    expect(() => resolve({ offline: true }, { SERVICE_MCP_BASE_URL: BASE })).toThrow(ConfigError);
  });

  it.each(['1', 'true', 'yes', 'ON'])('SERVICE_MCP_OFFLINE=%s', (value) => {
    expect(resolve({}, { SERVICE_MCP_OFFLINE: value })).toMatchObject({ offline: true, offlineReason: 'requested' });
    expect(() => resolve({}, { SERVICE_MCP_BASE_URL: BASE, SERVICE_MCP_OFFLINE: value })).toThrow(ConfigError);
  });

  it.each(['0', 'false', 'no', ''])('SERVICE_MCP_OFFLINE=%j stays online', (value) => {
    expect(resolve({}, { SERVICE_MCP_BASE_URL: BASE, SERVICE_MCP_OFFLINE: value }).offline).toBe(false);
  });

  it('a flag --offline=false outranks SERVICE_MCP_OFFLINE=1', () => {
    expect(resolve({ offline: false, baseUrl: BASE }, { SERVICE_MCP_OFFLINE: '1' }).offline).toBe(false);
  });

  it('no base URL at all is offline with reason no_base_url', () => {
    expect(resolve({}, {})).toMatchObject({ offline: true, offlineReason: 'no_base_url' });
  });

  it('an unreadable SERVICE_MCP_OFFLINE is refused, naming the variable', () => {
    expect(() => resolve({}, { SERVICE_MCP_OFFLINE: 'maybe' })).toThrow(/SERVICE_MCP_OFFLINE="maybe" is not a boolean/);
  });
});

describe('cache', () => {
  it('is on by default (commander passes cache: true without --no-cache)', () => {
    expect(resolve({ cache: true }).cache).toBe(true);
    expect(resolve().cache).toBe(true);
  });

  it('--no-cache (cache: false) turns it off', () => {
    expect(resolve({ cache: false }).cache).toBe(false);
  });

  it('SERVICE_MCP_NO_CACHE=1 turns it off', () => {
    expect(resolve({ cache: true }, { SERVICE_MCP_NO_CACHE: '1' }).cache).toBe(false);
  });

  it('SERVICE_MCP_NO_CACHE=0 leaves it on', () => {
    expect(resolve({}, { SERVICE_MCP_NO_CACHE: '0' }).cache).toBe(true);
  });

  it('an unreadable SERVICE_MCP_NO_CACHE is refused', () => {
    expect(() => resolve({}, { SERVICE_MCP_NO_CACHE: 'perhaps' })).toThrow(ConfigError);
  });
});

describe('validation errors name the flag and the environment variable', () => {
  it.each([
    [{ timeoutMs: 'abc' }, {}, '--timeout-ms', 'SERVICE_MCP_TIMEOUT_MS', '"abc"'],
    [{}, { SERVICE_MCP_TIMEOUT_MS: '12.5' }, '--timeout-ms', 'SERVICE_MCP_TIMEOUT_MS', '"12.5"'],
    [{ timeoutMs: '0' }, {}, '--timeout-ms', 'SERVICE_MCP_TIMEOUT_MS', 'at least 1'],
    [{ timeoutMs: '-5' }, {}, '--timeout-ms', 'SERVICE_MCP_TIMEOUT_MS', '"-5"'],
    [{ maxRetryWaitS: 'ten' }, {}, '--max-retry-wait-s', 'SERVICE_MCP_MAX_RETRY_WAIT_S', '"ten"'],
    [{ maxRetryWaitS: '99999' }, {}, '--max-retry-wait-s', 'SERVICE_MCP_MAX_RETRY_WAIT_S', 'at most 3600'],
    [{ logLevel: 'verbose' }, {}, '--log-level', 'SERVICE_MCP_LOG_LEVEL', 'error, warn, info, debug'],
    [{ baseUrl: 'ftp://api.example.test' }, {}, '--base-url', 'SERVICE_MCP_BASE_URL', 'http(s)'],
    [{ baseUrl: 'api.example.test' }, {}, '--base-url', 'SERVICE_MCP_BASE_URL', 'http(s)'],
    [{ baseUrl: 'javascript:alert(1)' }, {}, '--base-url', 'SERVICE_MCP_BASE_URL', 'http(s)'],
    [{ baseUrl: 'https://user:pass@api.example.test' }, {}, '--base-url', 'SERVICE_MCP_BASE_URL', 'credentials'],
    [{ baseUrl: 'https://api.example.test/?x=1' }, {}, '--base-url', 'SERVICE_MCP_BASE_URL', 'query'],
    [{ baseUrl: 'https://api.example.test/#top' }, {}, '--base-url', 'SERVICE_MCP_BASE_URL', 'fragment'],
    [{ baseUrl: 'https://api.example.test/?' }, {}, '--base-url', 'SERVICE_MCP_BASE_URL', 'query'],
  ] as Array<[RawOptions, Record<string, string>, string, string, string]>)(
    '%j %j',
    (flags, env, flag, envVar, detail) => {
      const error = configError(flags, env);
      expect(error.message).toContain(flag);
      expect(error.message).toContain(envVar);
      expect(error.message).toContain(detail);
    },
  );

  it.each([
    [{ timeoutMs: 'abc' }, '--timeout-ms / SERVICE_MCP_TIMEOUT_MS: "abc" must be a whole number'],
    [{ timeoutMs: '12.5' }, '--timeout-ms / SERVICE_MCP_TIMEOUT_MS: "12.5" must be a whole number'],
    [{ timeoutMs: '-5' }, '--timeout-ms / SERVICE_MCP_TIMEOUT_MS: "-5" must be at least 1'],
    [{ maxRetryWaitS: '-5' }, '--max-retry-wait-s / SERVICE_MCP_MAX_RETRY_WAIT_S: "-5" must be at least 0'],
    [{ metricsPort: 'x' }, '--metrics-port / SERVICE_MCP_METRICS_PORT: "x" must be a whole number'],
  ] as Array<[RawOptions, string]>)('a number refused says what it must be: %j', (flags, expected) => {
    // zod's union said only "Invalid input" here.
    expect(configError(flags).message).toBe(`invalid configuration: ${expected}`);
  });

  it('every rule a value breaks is said', () => {
    expect(configError({ baseUrl: 'https://user:pw@api.example.test/api/public/v1?x#y' }).message).toBe(
      [
        'must not carry credentials',
        'must not have a query string',
        'must not have a fragment',
        "ends in the API's path prefix /api/public/v1, which every request adds itself; use https://api.example.test instead",
      ]
        .map(
          (reason, i) =>
            `${i === 0 ? 'invalid configuration: ' : ''}--base-url / SERVICE_MCP_BASE_URL: "https://[redacted]@api.example.test/api/public/v1?x#y" ${reason}`,
        )
        .join('; '),
    );
  });

  it('a base URL with credentials is refused without echoing the password', () => {
    const error = configError({ baseUrl: 'https://user:hunter2@api.example.test' });
    expect(error.message).not.toContain('hunter2');
  });

  it('several bad values are all reported', () => {
    const error = configError({ timeoutMs: 'abc', logLevel: 'loud' });
    expect(error.message).toContain('--timeout-ms');
    expect(error.message).toContain('--log-level');
  });
});

describe('the result', () => {
  it('is frozen', () => {
    const config = resolve({ baseUrl: BASE });
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { timeoutMs: number }).timeoutMs = 1;
    }).toThrow(TypeError);
  });

  it('mergeSources is pure: same inputs, same candidate, inputs untouched', () => {
    const flags = { timeoutMs: '100' };
    const env = { SERVICE_MCP_LOG_LEVEL: 'info' };
    expect(mergeSources(flags, env)).toEqual(mergeSources(flags, env));
    expect(flags).toEqual({ timeoutMs: '100' });
    expect(env).toEqual({ SERVICE_MCP_LOG_LEVEL: 'info' });
  });

  it('the option table lists every flag and env var of docs/contract.md', () => {
    expect(OPTION_TABLE.map((o) => [o.flag.split(' ')[0], o.env])).toEqual([
      ['--base-url', 'SERVICE_MCP_BASE_URL'],
      ['--offline', 'SERVICE_MCP_OFFLINE'],
      ['--timeout-ms', 'SERVICE_MCP_TIMEOUT_MS'],
      ['--max-retry-wait-s', 'SERVICE_MCP_MAX_RETRY_WAIT_S'],
      ['--log-level', 'SERVICE_MCP_LOG_LEVEL'],
      ['--no-cache', 'SERVICE_MCP_NO_CACHE'],
      ['--max-in-flight', 'SERVICE_MCP_MAX_IN_FLIGHT'],
      ['--redis-url', 'SERVICE_MCP_REDIS_URL'],
      ['--metrics-port', 'SERVICE_MCP_METRICS_PORT'],
      ['--metrics-host', 'SERVICE_MCP_METRICS_HOST'],
      ['--log-format', 'SERVICE_MCP_LOG_FORMAT'],
      ['--no-bridge', 'SERVICE_MCP_NO_BRIDGE'],
      ['--auth-tokens-file', 'SERVICE_MCP_AUTH_TOKENS_FILE'],
      ['--auth-issuer', 'SERVICE_MCP_AUTH_ISSUER'],
      ['--auth-audience', 'SERVICE_MCP_AUTH_AUDIENCE'],
      ['--auth-scopes', 'SERVICE_MCP_AUTH_SCOPES'],
      ['--per-client-rate', 'SERVICE_MCP_PER_CLIENT_RATE'],
      ['--tools', 'SERVICE_MCP_TOOLS'],
    ]);
  });

  it('--max-in-flight: flag over env over 64, a whole number from 1, named when wrong', () => {
    expect(resolveConfig({ maxInFlight: '8' }, { SERVICE_MCP_MAX_IN_FLIGHT: '16' }).maxInFlight).toBe(8);
    expect(resolveConfig({}, { SERVICE_MCP_MAX_IN_FLIGHT: '16' }).maxInFlight).toBe(16);
    expect(resolveConfig({}, {}).maxInFlight).toBe(64);
    expect(() => resolveConfig({ maxInFlight: '0' }, {})).toThrow(
      /--max-in-flight \/ SERVICE_MCP_MAX_IN_FLIGHT: "0" must be at least 1/,
    );
    expect(() => resolveConfig({}, { SERVICE_MCP_MAX_IN_FLIGHT: 'lots' })).toThrow(
      /--max-in-flight \/ SERVICE_MCP_MAX_IN_FLIGHT: "lots" /,
    );
  });

  it('--metrics-port is a port from 1 to 65535 (flag or env), --metrics-host defaults to loopback, --log-format is text or json', () => {
    expect(resolveConfig({ metricsPort: '9464' }, {}).metricsPort).toBe(9464);
    expect(resolveConfig({}, { SERVICE_MCP_METRICS_PORT: '9100', SERVICE_MCP_METRICS_HOST: '0.0.0.0' })).toMatchObject({
      metricsPort: 9100,
      metricsHost: '0.0.0.0',
    });
    expect(resolveConfig({}, {}).metricsPort).toBeUndefined();
    expect(() => resolveConfig({ metricsPort: '70000' }, {})).toThrow(
      /--metrics-port \/ SERVICE_MCP_METRICS_PORT: .* must be at most 65535/,
    );
    expect(resolveConfig({}, { SERVICE_MCP_LOG_FORMAT: ' JSON ' }).logFormat).toBe('json');
    expect(() => resolveConfig({ logFormat: 'xml' }, {})).toThrow(
      /--log-format \/ SERVICE_MCP_LOG_FORMAT: .* must be one of text, json/,
    );
  });

  it('--redis-url takes redis:// and rediss:// only, and a refused one never shows its password', () => {
    expect(resolveConfig({ redisUrl: 'rediss://:s3cret@cache.example.com:6380' }, {}).redisUrl).toBe(
      'rediss://:s3cret@cache.example.com:6380',
    );
    expect(resolveConfig({}, { SERVICE_MCP_REDIS_URL: 'redis://redis:6379' }).redisUrl).toBe('redis://redis:6379');
    expect(resolveConfig({}, {}).redisUrl).toBeUndefined();
    const error = (() => {
      try {
        resolveConfig({ redisUrl: 'http://:s3cret@cache.example.com' }, {});
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(error.message).toMatch(/--redis-url \/ SERVICE_MCP_REDIS_URL: .* must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(error.message).not.toContain('s3cret');
  });
});

describe('serve --http for a team: auth and fair share', () => {
  const ISSUER = 'https://login.example.com/tenant';
  const AUDIENCE = 'https://mcp.example.com/mcp';

  it('all off by default: no auth, no share', () => {
    expect(resolve()).not.toHaveProperty('perClientRate.perMinute');
    expect(resolve().authTokensFile).toBeUndefined();
  });

  it('a share of 60:30 comes with auth unless given or turned off; without auth only when given', () => {
    expect(resolve({ authTokensFile: 'tokens' }).perClientRate).toEqual({ perMinute: 60, burst: 30 });
    expect(resolve({ authIssuer: ISSUER, authAudience: AUDIENCE }).perClientRate).toEqual({
      perMinute: 60,
      burst: 30,
    });
    expect(resolve({ authTokensFile: 'tokens', perClientRate: 'off' }).perClientRate).toBeUndefined();
    expect(resolve({}, { SERVICE_MCP_PER_CLIENT_RATE: '120:10' }).perClientRate).toEqual({ perMinute: 120, burst: 10 });
    // A burst left out is half the rate, rounded up.
    expect(resolve({ perClientRate: '7' }).perClientRate).toEqual({ perMinute: 7, burst: 4 });
  });

  it('scopes are a list, comma or space separated', () => {
    expect(
      resolve(
        { authIssuer: ISSUER, authAudience: AUDIENCE },
        { SERVICE_MCP_AUTH_SCOPES: 'mcp:read, mcp:tools mcp:read' },
      ).authScopes,
    ).toEqual(['mcp:read', 'mcp:tools']);
  });

  it.each([
    [
      { perClientRate: 'fast' },
      /--per-client-rate \/ SERVICE_MCP_PER_CLIENT_RATE: "fast" must be n \(a minute\), n:burst, or off/,
    ],
    [{ perClientRate: '0' }, /must allow from 1 to 1000000 requests a minute/],
    [
      { authIssuer: 'http://login.example.com', authAudience: AUDIENCE },
      /--auth-issuer .* must be https \(plain http only on localhost/,
    ],
    [
      { authIssuer: ISSUER, authAudience: `${AUDIENCE}?x=1` },
      /--auth-audience .* must not have a query string or fragment/,
    ],
    [
      { authIssuer: ISSUER },
      /--auth-issuer \/ SERVICE_MCP_AUTH_ISSUER and --auth-audience \/ SERVICE_MCP_AUTH_AUDIENCE go together/,
    ],
    [
      { authTokensFile: 'tokens', authIssuer: ISSUER, authAudience: AUDIENCE },
      /are both set; choose static tokens or OAuth, not both/,
    ],
    [{ authScopes: 'mcp:read' }, /--auth-scopes \/ SERVICE_MCP_AUTH_SCOPES and --auth-issuer .* go together/],
  ] as Array<[RawOptions, RegExp]>)('refuses %o, naming the flag and env var', (flags, expected) => {
    expect(configError(flags).message).toMatch(expected);
  });
});
