/**
 * The one place configuration is decided: flags > environment > defaults, validated by zod into
 * one frozen Config. Each step is a pure function so it can be tested without a process.
 */
import { z } from 'zod';
import { API_PREFIX } from './api/operations.js';
import { redactSecrets } from './redact.js';

const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

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
    default: 15_000,
  },
  {
    key: 'maxRetryWaitS',
    flag: '--max-retry-wait-s <n>',
    env: 'SERVICE_MCP_MAX_RETRY_WAIT_S',
    description: 'longest Retry-After waited out inside one tool call, in seconds',
    default: 20,
  },
  {
    key: 'logLevel',
    flag: '--log-level <level>',
    env: 'SERVICE_MCP_LOG_LEVEL',
    description: 'error, warn, info or debug, to stderr',
    default: 'warn',
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
    default: 64,
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
    default: '127.0.0.1',
  },
  {
    key: 'logFormat',
    flag: '--log-format <format>',
    env: 'SERVICE_MCP_LOG_FORMAT',
    description: 'text, or json: one object per stderr line, with trace_id and span_id inside a traced request',
    default: 'text',
  },
  {
    key: 'bridge',
    flag: '--no-bridge',
    env: 'SERVICE_MCP_NO_BRIDGE',
    description:
      "offer only our own tools: do not bridge the read-only tools of the deployment's hosted market surface (POST /api/public/v1/mcp?surface=market)",
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
  })
  .transform((c) => ({
    ...c,
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
    timeoutMs: pick('timeoutMs', 15_000),
    maxRetryWaitS: pick('maxRetryWaitS', 20),
    logLevel: typeof pick('logLevel') === 'string' ? String(pick('logLevel')).trim().toLowerCase() : 'warn',
    // commander gives cache=true by default and false for --no-cache; only the explicit flag outranks env.
    cache: flags.cache === false ? false : noCacheEnv === true ? false : true,
    bridge: flags.bridge === false ? false : noBridgeEnv !== true,
    maxInFlight: pick('maxInFlight', 64),
    redisUrl: pick('redisUrl'),
    tools: pick('tools'),
    metricsPort: pick('metricsPort'),
    metricsHost: pick('metricsHost', '127.0.0.1'),
    logFormat: typeof pick('logFormat') === 'string' ? String(pick('logFormat')).trim().toLowerCase() : 'text',
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
  // Offline answers from the embedded fictional data: with a base URL too, one of them is a mistake, and guessing which would hide it.
  if (parsed.data.offlineReason === 'requested' && parsed.data.baseUrl !== undefined) {
    throw new ConfigError(
      `invalid configuration: ${flagName('offline')} / ${envName('offline')} and ${flagName('baseUrl')} / ${envName('baseUrl')} are both set; --offline answers from the embedded fictional data and would ignore the base URL: set one of them`,
    );
  }
  return Object.freeze(parsed.data);
}
