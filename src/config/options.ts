/**
 * Every option: its flag, its environment variable, its default and the words `--help`, the README
 * and docs/contract.md show for it. One entry per flag, in the order `--help` lists them.
 */
import { DEFAULTS } from './defaults.js';

/**
 * Each caller's share of upstream requests when auth is on and --per-client-rate is not given:
 * see docs/deploy.md for how it was measured (a research turn of an agent fits in the burst).
 */
export const DEFAULT_PER_CLIENT_RATE = { perMinute: 60, burst: 30 } as const;

const OPTIONS = [
  {
    key: 'baseUrl',
    flag: '--base-url <url>',
    description:
      "the hosted API's origin (no live default: without it the embedded offline API, with fictional sample data, is used)",
  },
  {
    key: 'offline',
    flag: '--offline',
    description: 'use the embedded offline API (bundled fictional sample data, not live)',
  },
  {
    key: 'timeoutMs',
    flag: '--timeout-ms <n>',
    description: 'per-request timeout in milliseconds',
    default: DEFAULTS.timeoutMs,
  },
  {
    key: 'maxRetryWaitS',
    flag: '--max-retry-wait-s <n>',
    description: 'longest Retry-After waited out inside one tool call, in seconds',
    default: DEFAULTS.maxRetryWaitS,
  },
  {
    key: 'logLevel',
    flag: '--log-level <level>',
    description: 'error, warn, info or debug, to stderr',
    default: DEFAULTS.logLevel,
  },
  {
    key: 'cache',
    flag: '--no-cache',
    description: 'turn off the in-memory response cache (and the last answer it keeps for when the API is down)',
  },
  {
    key: 'maxInFlight',
    flag: '--max-in-flight <n>',
    description:
      'requests served at once per process; over stdio later ones wait (stdin is read only so far ahead), over HTTP as many more wait in a queue and the rest get 503',
    default: DEFAULTS.maxInFlight,
  },
  {
    key: 'redisUrl',
    flag: '--redis-url <url>',
    description:
      'share the Retry-After cool-down and the response cache with other replicas through Redis (redis:// or rediss://; optional: without it, state is per process)',
  },
  {
    key: 'metricsPort',
    flag: '--metrics-port <n>',
    description:
      'serve Prometheus metrics at GET /metrics on this port, on a listener of its own (default: no metrics)',
  },
  {
    key: 'metricsHost',
    flag: '--metrics-host <host>',
    description: 'interface the metrics listener binds',
    default: DEFAULTS.host,
  },
  {
    key: 'logFormat',
    flag: '--log-format <format>',
    description: 'text, or json: one object per stderr line, with trace_id and span_id inside a traced request',
    default: DEFAULTS.logFormat,
  },
  {
    key: 'bridge',
    flag: '--no-bridge',
    description:
      "offer only our own tools: do not bridge the read-only tools of the deployment's hosted market surface (POST /api/public/v1/mcp?surface=market)",
  },
  {
    key: 'authTokensFile',
    flag: '--auth-tokens-file <path>',
    description:
      'serve --http: require a bearer token from this file (one name:token a line; re-read on SIGHUP); see docs/deploy.md',
  },
  {
    key: 'authIssuer',
    flag: '--auth-issuer <url>',
    description:
      'serve --http: require OAuth access tokens (JWTs) from this authorization server, checked against its published keys (needs --auth-audience)',
  },
  {
    key: 'authAudience',
    flag: '--auth-audience <url>',
    description: "serve --http: this server's public URL, the resource (RFC 8707) its access tokens must be issued for",
  },
  {
    key: 'authScopes',
    flag: '--auth-scopes <list>',
    description: 'serve --http: comma-separated scopes every access token must carry (default: none)',
  },
  {
    key: 'perClientRate',
    flag: '--per-client-rate <n[:burst]>',
    description: `serve --http: upstream requests a minute for each caller (cache hits free), with a burst; default ${DEFAULT_PER_CLIENT_RATE.perMinute}:${DEFAULT_PER_CLIENT_RATE.burst} with auth, off without; off turns it off`,
  },
  {
    key: 'tools',
    flag: '--tools <names>',
    description:
      'comma-separated names of the tools to expose (default: all); the others are neither listed, callable nor mentioned',
  },
] as const;

/**
 * Each option, its flag, its environment variable and its default: the table of docs/contract.md.
 * The variable is SERVICE_MCP_ and the flag's name: --no-cache is SERVICE_MCP_NO_CACHE.
 */
export const OPTION_TABLE = OPTIONS.map((option) => ({
  ...option,
  env: `SERVICE_MCP_${option.flag.split(' ')[0]!.slice(2).toUpperCase().replaceAll('-', '_')}`,
}));

type OptionKey = (typeof OPTION_TABLE)[number]['key'];

/** Raw values as commander hands them over: strings, numbers, or booleans for switches (`--no-cache` sets `cache: false`). */
export type RawOptions = { [K in OptionKey]?: string | number | boolean | undefined };

export const flagName = (key: string) => OPTION_TABLE.find((o) => o.key === key)?.flag.split(' ')[0] ?? key;
export const envName = (key: string) => OPTION_TABLE.find((o) => o.key === key)?.env ?? key;
