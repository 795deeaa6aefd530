/**
 * Who may talk to the HTTP server: the Host and Origin allow-lists that stop DNS rebinding.
 *
 * A page on evil.example can make a browser send requests to 127.0.0.1 by re-pointing its own
 * name there; the request then carries `Host: evil.example` (and its Origin). Checking both
 * against names this server was deliberately exposed under refuses that, whatever the socket
 * address. The SDK offers the same idea as Express middleware and as deprecated transport
 * options; this is the node:http equivalent, with ports checked too.
 */
import { bracketed } from '../lib/http-server.js';

/** Raised for a malformed --allowed-hosts / --allowed-origins entry; the CLI reports it as bad usage. */
export class HttpOptionError extends Error {
  override readonly name = 'HttpOptionError';
}

interface HostEntry {
  hostname: string;
  /** Undefined: any port (a name given without one in --allowed-hosts). */
  port: string | undefined;
}

export interface AccessPolicy {
  hosts: readonly HostEntry[];
  /** Normalised origins (`scheme://host[:port]`, as URL.origin gives them). */
  origins: ReadonlySet<string>;
  /** True when --allowed-origins was given: only then are CORS headers sent. */
  cors: boolean;
}

export interface PolicyInput {
  /** The interface bound (as given to listen). */
  host: string;
  /** The real bound port (after listen, so --port 0 works). */
  port: number;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/** Parses a Host header value (or an allow-list entry) into hostname and port; undefined when malformed. */
export function parseHost(value: string): HostEntry | undefined {
  // A Host header is authority only: userinfo, paths or whitespace mean someone is being clever.
  if (value === '' || /[\s/?#@\\]/.test(value)) return undefined;
  const url = URL.parse(`http://${value}`);
  if (!url) return undefined;
  const explicitPort = /:\d+$/.test(value);
  // URL drops the scheme's default port; a header saying :80 is still port 80.
  return { hostname: url.hostname, port: explicitPort ? url.port || '80' : undefined };
}

export function isLoopbackHost(host: string): boolean {
  const name = bracketed(host.trim().toLowerCase());
  return name === 'localhost' || name === '[::1]' || /^127(\.\d{1,3}){3}$/.test(name);
}

export function isWildcardHost(host: string): boolean {
  return WILDCARDS.has(host.trim());
}

export function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function parseAllowedHost(entry: string): HostEntry {
  const parsed = parseHost(entry);
  if (!parsed)
    throw new HttpOptionError(
      `--allowed-hosts: ${JSON.stringify(entry)} is not a host name (use name or name:port, e.g. mcp.example.com or mcp.example.com:8443)`,
    );
  return parsed;
}

function parseAllowedOrigin(entry: string): string {
  const url = URL.parse(entry);
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== ''
  ) {
    throw new HttpOptionError(
      `--allowed-origins: ${JSON.stringify(entry)} is not an origin (use scheme://host[:port], e.g. https://app.example.com)`,
    );
  }
  return url.origin;
}

/** Builds the policy for a bound address; throws HttpOptionError for a malformed entry. */
export function buildPolicy(input: PolicyInput): AccessPolicy {
  const port = String(input.port);
  const names = [...LOOPBACK_NAMES];
  // A specific non-loopback address is reachable by its literal; a literal cannot be rebound.
  if (!isWildcardHost(input.host) && !isLoopbackHost(input.host)) names.push(bracketed(input.host.toLowerCase()));
  const hosts: HostEntry[] = names.map((hostname) => ({ hostname: parseHost(hostname)!.hostname, port }));
  const origins = new Set(names.map((name) => new URL(`http://${name}:${port}`).origin));
  for (const entry of input.allowedHosts ?? []) hosts.push(parseAllowedHost(entry));
  for (const entry of input.allowedOrigins ?? []) origins.add(parseAllowedOrigin(entry));
  return { hosts, origins, cors: (input.allowedOrigins ?? []).length > 0 };
}

function shown(value: string): string {
  return JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
}

/** Undefined when the Host header is allowed; otherwise why not. */
export function checkHost(header: string | undefined, policy: AccessPolicy): string | undefined {
  if (header === undefined || header === '') return 'Forbidden: the request has no Host header';
  const parsed = parseHost(header);
  const allowed =
    parsed &&
    policy.hosts.some(
      (entry) =>
        entry.hostname === parsed.hostname && (entry.port === undefined || entry.port === (parsed.port ?? '80')),
    );
  return allowed
    ? undefined
    : `Forbidden: Host ${shown(header)} is not allowed (DNS-rebinding protection; serve --http --allowed-hosts adds names)`;
}

/** Undefined when there is no Origin (a non-browser client) or it is allowed; otherwise why not. */
export function checkOrigin(header: string | undefined, policy: AccessPolicy): string | undefined {
  if (header === undefined) return undefined;
  const origin = URL.parse(header)?.origin;
  // `null` (sandboxed frames, file:) parses to the opaque origin "null": never allowed.
  return origin && origin !== 'null' && policy.origins.has(origin)
    ? undefined
    : `Forbidden: Origin ${shown(header)} is not allowed (serve --http --allowed-origins adds origins)`;
}

/**
 * Undefined when the request names its target host once; otherwise why not (400). Node keeps the
 * first of two Host headers, and a proxy may read the last: a request that says two things about
 * where it goes is not guessed at. An absolute-form target (`POST http://host/mcp`) must name the
 * host that the Host header does.
 */
export function checkSingleTarget(
  rawHeaders: readonly string[],
  target: string | undefined,
  host: string | undefined,
): string | undefined {
  let hosts = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'host') hosts++;
  if (hosts > 1) return 'Bad Request: the request has two Host headers';
  if (target === undefined || target.startsWith('/') || target === '*') return undefined;
  const named = URL.parse(target)?.host;
  const sameHost =
    named !== undefined &&
    host !== undefined &&
    parseHost(host) !== undefined &&
    named === new URL(`http://${host}`).host;
  return sameHost
    ? undefined
    : `Bad Request: the request target ${shown(target)} names another host than the Host header`;
}
