/**
 * The one place configuration is decided: flags > environment > defaults, validated by zod into
 * one frozen Config. Each step is a pure function so it can be tested without a process.
 * Over 250 lines: the option table is most of it, one entry per flag, and keeping it in one place
 * is the point.
 */
import * as z from 'zod';
import { API_PREFIX } from '../contract/operations.js';
import { DEFAULTS } from './defaults.js';
import { redactSecrets } from '../lib/redact.js';
import { LOG_FORMATS, LOG_LEVELS } from '../obs/log.js';

/**
 * Each caller's share of upstream requests when auth is on and --per-client-rate is not given:
 * see docs/deploy.md for how it was measured (a research turn of an agent fits in the burst).
 */
const DEFAULT_PER_CLIENT_RATE = { perMinute: 60, burst: 30 } as const;

/** Raw values as commander hands them over (strings, or booleans for switches). */
export interface RawOptions {
  baseUrl?: string | undefined;
  offline?: boolean | undefined;
  timeoutMs?: string | number | undefined;
  maxRetryWaitS?: string | number | undefined;
  logLevel?: string | undefined;
  /** commander's `--no-cache` sets `cache: false`. */
  cache?: boolean | undefined;
  /** commander's `--no-bridge` sets `bridge: false`. */
  bridge?: boolean | undefined;
  redisUrl?: string | undefined;
  tools?: string | undefined;
  maxInFlight?: string | number | undefined;
  metricsPort?: string | number | undefined;
  metricsHost?: string | undefined;
  logFormat?: string | undefined;
  authTokensFile?: string | undefined;
  authIssuer?: string | undefined;
  authAudience?: string | undefined;
  authScopes?: string | undefined;
  perClientRate?: string | number | undefined;
}

/** Each option, its flag, its environment variable and its default: the table of docs/contract.md. */
export const OPTION_TABLE = [
  {
    key: 'baseUrl',
    flag: '--base-url <url>',
    env: 'SERVICE_MCP_BASE_URL',
    description:
      "the hosted API's origin (no live default: without it the embedded offline API, with fictional sample data, is used)",
  },
  {
    key: 'offline',
    flag: '--offline',
    env: 'SERVICE_MCP_OFFLINE',
    description: 'use the embedded offline API (bundled fictional sample data, not live)',
  },
  {
    key: 'timeoutMs',
    flag: '--timeout-ms <n>',
    env: 'SERVICE_MCP_TIMEOUT_MS',
    description: 'per-request timeout in milliseconds',
    default: DEFAULTS.timeoutMs,
  },
  {
    key: 'maxRetryWaitS',
    flag: '--max-retry-wait-s <n>',
    env: 'SERVICE_MCP_MAX_RETRY_WAIT_S',
    description: 'longest Retry-After waited out inside one tool call, in seconds',
    default: DEFAULTS.maxRetryWaitS,
  },
  {
    key: 'logLevel',
    flag: '--log-level <level>',
    env: 'SERVICE_MCP_LOG_LEVEL',
    description: 'error, warn, info or debug, to stderr',
    default: DEFAULTS.logLevel,
  },
  {
    key: 'cache',
    flag: '--no-cache',
    env: 'SERVICE_MCP_NO_CACHE',
    description: 'turn off the in-memory response cache',
  },
  {
    key: 'maxInFlight',
    flag: '--max-in-flight <n>',
    env: 'SERVICE_MCP_MAX_IN_FLIGHT',
    description:
      'requests served at once per process; over stdio later ones wait (stdin is read only so far ahead), over HTTP as many more wait in a queue and the rest get 503',
    default: DEFAULTS.maxInFlight,
  },
  {
    key: 'redisUrl',
    flag: '--redis-url <url>',
    env: 'SERVICE_MCP_REDIS_URL',
    description:
      'share the Retry-After cool-down and the response cache with other replicas through Redis (redis:// or rediss://; optional: without it, state is per process)',
  },
  {
    key: 'metricsPort',
    flag: '--metrics-port <n>',
    env: 'SERVICE_MCP_METRICS_PORT',
    description:
      'serve Prometheus metrics at GET /metrics on this port, on a listener of its own (default: no metrics)',
  },
  {
    key: 'metricsHost',
    flag: '--metrics-host <host>',
    env: 'SERVICE_MCP_METRICS_HOST',
    description: 'interface the metrics listener binds',
    default: DEFAULTS.host,
  },
  {
    key: 'logFormat',
    flag: '--log-format <format>',
    env: 'SERVICE_MCP_LOG_FORMAT',
    description: 'text, or json: one object per stderr line, with trace_id and span_id inside a traced request',
    default: DEFAULTS.logFormat,
  },
  {
    key: 'bridge',
    flag: '--no-bridge',
    env: 'SERVICE_MCP_NO_BRIDGE',
    description:
      "offer only our own tools: do not bridge the read-only tools of the deployment's hosted market surface (POST /api/public/v1/mcp?surface=market)",
  },
  {
    key: 'authTokensFile',
    flag: '--auth-tokens-file <path>',
    env: 'SERVICE_MCP_AUTH_TOKENS_FILE',
    description:
      'serve --http: require a bearer token from this file (one name:token a line; re-read on SIGHUP); see docs/deploy.md',
  },
  {
    key: 'authIssuer',
    flag: '--auth-issuer <url>',
    env: 'SERVICE_MCP_AUTH_ISSUER',
    description:
      'serve --http: require OAuth access tokens (JWTs) from this authorization server, checked against its published keys (needs --auth-audience)',
  },
  {
    key: 'authAudience',
    flag: '--auth-audience <url>',
    env: 'SERVICE_MCP_AUTH_AUDIENCE',
    description: "serve --http: this server's public URL, the resource (RFC 8707) its access tokens must be issued for",
  },
  {
    key: 'authScopes',
    flag: '--auth-scopes <list>',
    env: 'SERVICE_MCP_AUTH_SCOPES',
    description: 'serve --http: comma-separated scopes every access token must carry (default: none)',
  },
  {
    key: 'perClientRate',
    flag: '--per-client-rate <n[:burst]>',
    env: 'SERVICE_MCP_PER_CLIENT_RATE',
    description: `serve --http: upstream requests a minute for each caller (cache hits free), with a burst; default ${DEFAULT_PER_CLIENT_RATE.perMinute}:${DEFAULT_PER_CLIENT_RATE.burst} with auth, off without; off turns it off`,
  },
  {
    key: 'tools',
    flag: '--tools <names>',
    env: 'SERVICE_MCP_TOOLS',
    description:
      'comma-separated names of the tools to expose (default: all); the others are neither listed, callable nor mentioned',
  },
] as const;

const flagName = (key: string) => OPTION_TABLE.find((o) => o.key === key)?.flag.split(' ')[0] ?? key;
const envName = (key: string) => OPTION_TABLE.find((o) => o.key === key)?.env ?? key;

const integerFrom = (min: number, max: number) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/, 'must be a whole number').transform(Number)])
    .pipe(
      z.number().int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
    );

/** An absolute URL naming a server of ours or an issuer: https, or http on loopback only, with no credentials, query or fragment. */
function publicUrl(what: string) {
  return z
    .string()
    .trim()
    .refine((value) => URL.canParse(value), `must be an absolute URL (${what})`)
    .refine((value) => {
      if (!URL.canParse(value)) return true;
      const url = new URL(value);
      const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
      return url.protocol === 'https:' || (url.protocol === 'http:' && loopback);
    }, 'must be https (plain http only on localhost, 127.0.0.1 or [::1])')
    .refine(
      (value) => !URL.canParse(value) || (new URL(value).username === '' && new URL(value).password === ''),
      'must not carry credentials',
    )
    .refine((value) => !value.includes('?') && !value.includes('#'), 'must not have a query string or fragment');
}

const ConfigSchema = z
  .object({
    baseUrl: z
      .string()
      .trim()
      .refine((value) => {
        if (!URL.canParse(value)) return false;
        const url = new URL(value);
        return url.protocol === 'http:' || url.protocol === 'https:';
      }, 'must be an absolute http(s) URL')
      .refine(
        (value) => !URL.canParse(value) || (new URL(value).username === '' && new URL(value).password === ''),
        'must not carry credentials',
      )
      // Paths are appended to the base URL, so a query or fragment in it would swallow them.
      .refine(
        (value) => !URL.canParse(value) || (new URL(value).search === '' && !value.includes('?')),
        'must not have a query string',
      )
      .refine(
        (value) => !URL.canParse(value) || (new URL(value).hash === '' && !value.includes('#')),
        'must not have a fragment',
      )
      // Every request adds the API's prefix itself: a base URL that ends in it would ask for
      // /api/public/v1/api/public/v1/…, where a 404 reads as "that job is gone". Refused, naming the one to use.
      .superRefine((value, ctx) => {
        if (!URL.canParse(value)) return;
        const url = new URL(value);
        const path = url.pathname.replace(/\/+$/, '');
        if (!path.endsWith(API_PREFIX)) return;
        ctx.addIssue({
          code: 'custom',
          message: `ends in the API's path prefix ${API_PREFIX}, which every request adds itself; use ${url.origin}${path.slice(0, -API_PREFIX.length)} instead`,
        });
      })
      .transform((value) => value.replace(/\/+$/, ''))
      .optional(),
    offline: z.boolean(),
    timeoutMs: integerFrom(1, 600_000),
    maxRetryWaitS: integerFrom(0, 3_600),
    logLevel: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }),
    cache: z.boolean(),
    bridge: z.boolean(),
    maxInFlight: integerFrom(1, 100_000),
    redisUrl: z
      .string()
      .trim()
      .refine(
        (value) => URL.canParse(value) && ['redis:', 'rediss:'].includes(new URL(value).protocol),
        'must be a redis:// or rediss:// URL',
      )
      .optional(),
    // Names only here; which names exist is the registry's to say (tools/index.ts), when a command
    // starts, and with the bridge on a name may be a hosted tool's, known once the hosted list is read.
    tools: z
      .string()
      .transform((value) => [
        ...new Set(
          value
            .split(',')
            .map((name) => name.trim())
            .filter(Boolean),
        ),
      ])
      .refine((names) => names.length > 0, 'must name at least one tool')
      .optional(),
    metricsPort: integerFrom(1, 65_535).optional(),
    metricsHost: z.string().trim().min(1, 'must name an interface'),
    logFormat: z.enum(LOG_FORMATS, { error: `must be one of ${LOG_FORMATS.join(', ')}` }),
    authTokensFile: z.string().trim().min(1, 'must name a file').optional(),
    authIssuer: publicUrl('an issuer').optional(),
    authAudience: publicUrl('a resource').optional(),
    authScopes: z
      .string()
      .transform((value) => [...new Set(value.split(/[\s,]+/).filter(Boolean))])
      .refine((scopes) => scopes.length > 0, 'must name at least one scope')
      .optional(),
    perClientRate: z
      .union([z.number().transform(String), z.string()])
      .transform((value) => value.trim().toLowerCase())
      .refine((value) => value === 'off' || /^\d+(:\d+)?$/.test(value), 'must be n (a minute), n:burst, or off')
      .transform((value) => {
        if (value === 'off') return 'off' as const;
        const [perMinute, burst = String(Math.max(1, Math.ceil(Number(value.split(':')[0]) / 2)))] = value.split(':');
        return { perMinute: Number(perMinute), burst: Number(burst) };
      })
      .refine(
        (rate) => rate === 'off' || (rate.perMinute >= 1 && rate.perMinute <= 1_000_000),
        'must allow from 1 to 1000000 requests a minute',
      )
      .refine(
        (rate) => rate === 'off' || (rate.burst >= 1 && rate.burst <= 1_000_000),
        'must have a burst from 1 to 1000000',
      )
      .optional(),
  })
  .transform((c) => ({
    ...c,
    // On with auth unless turned off; without auth only when asked for (every caller is then an address).
    perClientRate:
      c.perClientRate === 'off'
        ? undefined
        : (c.perClientRate ?? (c.authTokensFile || c.authIssuer ? { ...DEFAULT_PER_CLIENT_RATE } : undefined)),
    // No base URL at all means offline: the spec's {base_url} is deployment-specific.
    offline: c.offline || c.baseUrl === undefined,
    offlineReason: c.offline ? ('requested' as const) : c.baseUrl === undefined ? ('no_base_url' as const) : undefined,
  }));

export type Config = Readonly<z.output<typeof ConfigSchema>>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off', '']);

function envBoolean(env: NodeJS.ProcessEnv, key: string): boolean | undefined {
  const raw = env[envName(key)];
  if (raw === undefined) return undefined;
  const value = raw.trim().toLowerCase();
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw new ConfigError(`${envName(key)}=${JSON.stringify(raw)} is not a boolean (use 1 or 0)`);
}

/** Merges the sources (flag > env > default) into an unvalidated candidate. */
export function mergeSources(flags: RawOptions, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const pick = (key: keyof RawOptions, fallback?: unknown) =>
    flags[key] ?? emptyToUndefined(env[envName(key)]) ?? fallback;
  const noCacheEnv = envBoolean(env, 'cache');
  const noBridgeEnv = envBoolean(env, 'bridge');
  return {
    baseUrl: pick('baseUrl'),
    offline: flags.offline ?? envBoolean(env, 'offline') ?? false,
    timeoutMs: pick('timeoutMs', DEFAULTS.timeoutMs),
    maxRetryWaitS: pick('maxRetryWaitS', DEFAULTS.maxRetryWaitS),
    logLevel: typeof pick('logLevel') === 'string' ? String(pick('logLevel')).trim().toLowerCase() : DEFAULTS.logLevel,
    // commander gives cache=true by default and false for --no-cache; only the explicit flag outranks env.
    cache: flags.cache === false ? false : noCacheEnv === true ? false : true,
    bridge: flags.bridge === false ? false : noBridgeEnv !== true,
    maxInFlight: pick('maxInFlight', DEFAULTS.maxInFlight),
    redisUrl: pick('redisUrl'),
    tools: pick('tools'),
    metricsPort: pick('metricsPort'),
    metricsHost: pick('metricsHost', DEFAULTS.host),
    logFormat:
      typeof pick('logFormat') === 'string' ? String(pick('logFormat')).trim().toLowerCase() : DEFAULTS.logFormat,
    authTokensFile: pick('authTokensFile'),
    authIssuer: pick('authIssuer'),
    authAudience: pick('authAudience'),
    authScopes: pick('authScopes'),
    perClientRate: pick('perClientRate'),
  };
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** Validates merged sources into a frozen Config, or throws a ConfigError naming the flag and env var. */
export function resolveConfig(flags: RawOptions = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const merged = mergeSources(flags, env);
  const parsed = ConfigSchema.safeParse(merged);
  if (!parsed.success) {
    const messages = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0] ?? '');
      // Never echo a password from a base URL into an error message (or the log that prints it).
      const shown = redactSecrets(JSON.stringify(merged[key]) ?? 'undefined');
      return `${flagName(key)} / ${envName(key)}: ${shown} ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration: ${messages.join('; ')}`);
  }
  // Offline answers from the embedded fictional data: with a base URL too, one of them is a mistake,
  // and guessing which would hide it.
  if (parsed.data.offlineReason === 'requested' && parsed.data.baseUrl !== undefined) {
    throw new ConfigError(
      `invalid configuration: ${flagName('offline')} / ${envName('offline')} and ${flagName('baseUrl')} / ${envName('baseUrl')} are both set; --offline answers from the embedded fictional data and would ignore the base URL: set one of them`,
    );
  }
  const c = parsed.data;
  const both = (a: string, b: string, why: string) =>
    new ConfigError(`invalid configuration: ${flagName(a)} / ${envName(a)} and ${flagName(b)} / ${envName(b)} ${why}`);
  if (c.authTokensFile !== undefined && c.authIssuer !== undefined)
    throw both('authTokensFile', 'authIssuer', 'are both set; choose static tokens or OAuth, not both');
  if ((c.authIssuer === undefined) !== (c.authAudience === undefined))
    throw both(
      'authIssuer',
      'authAudience',
      'go together: OAuth tokens are checked for their issuer and for this resource',
    );
  if (c.authScopes !== undefined && c.authIssuer === undefined)
    throw both('authScopes', 'authIssuer', 'go together: scopes are read from OAuth access tokens');
  return Object.freeze(c);
}
