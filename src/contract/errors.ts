/**
 * The error family of the API client. Every failure of a REST call is one ApiError with a stable
 * `kind` (the names of docs/contract.md), so the MCP layer can render it without knowing HTTP.
 */
import { causeChain } from '../lib/cause-chain.js';
import { redactSecrets } from '../lib/redact.js';
import { USER_AGENT } from './version.js';

export const ERROR_KINDS = [
  'invalid_argument',
  'not_found',
  'rate_limited',
  'upstream_unavailable',
  'upstream_contract',
  'not_deployed',
  'timeout',
  'network',
  'internal',
  'cancelled',
  // A bridged tool of the deployment's hosted surface answered with an error result of its own.
  'upstream_tool_error',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface ApiErrorDetails {
  /** HTTP status, when the API answered. */
  status?: number;
  /** Request path and query, never the origin's credentials. */
  path?: string;
  /** The `error` and `message` members of the upstream error envelope, verbatim. */
  upstreamError?: string;
  upstreamMessage?: string;
  /** For rate_limited: whole seconds until a retry may be sent. */
  retryAfterS?: number;
  /** For upstream_contract: JSON path of the offending member, e.g. `data.jobs[3].salary.source`. */
  jsonPath?: string;
  /** A recovery hint more specific than the kind's, when the error knows better (a wrong base URL). */
  hint?: string;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ErrorKind;
  readonly status: number | undefined;
  readonly path: string | undefined;
  readonly upstreamError: string | undefined;
  readonly upstreamMessage: string | undefined;
  readonly retryAfterS: number | undefined;
  readonly jsonPath: string | undefined;
  readonly hint: string | undefined;

  constructor(kind: ErrorKind, message: string, details: ApiErrorDetails = {}) {
    super(redactSecrets(message), details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.status = details.status;
    this.path = details.path === undefined ? undefined : redactSecrets(details.path);
    this.upstreamError = details.upstreamError;
    this.upstreamMessage = details.upstreamMessage;
    this.retryAfterS = details.retryAfterS;
    this.jsonPath = details.jsonPath;
    this.hint = details.hint;
  }
}

/**
 * A failure that is a defect of service-mcp or of a dependency as we call it, never the API's or the
 * network's: it names the package and Node versions, for the report it should become.
 */
export function internalError(what: string, cause: unknown, path?: string): ApiError {
  const described = cause instanceof Error ? `${cause.name}: ${describeNetworkCause(cause)}` : String(cause);
  return new ApiError(
    'internal',
    `internal: ${what} failed inside ${USER_AGENT} on Node.js ${process.version}: ${described}`,
    { path, cause },
  );
}

/** A request its caller cancelled: `what` names it (`GET <path>`, `tools/call <name>`), `reason` is the signal's. */
export function cancelledError(what: string, reason: unknown, path?: string): ApiError {
  return new ApiError('cancelled', `cancelled: ${what} was cancelled by the caller`, { path, cause: reason });
}

/** Drops a leading kind, also as words ("rate limited: "), so the text never reads "rate_limited: rate limited: …". */
export function stripKind(message: string, kind: ErrorKind): string {
  return message.replace(new RegExp(`^(?:[a-z_]+|${kind.replace(/_/g, ' ')}): `), '');
}

/** Kind for a non-2xx status; the caller has already handled health's 503. */
export function kindForStatus(status: number): ErrorKind {
  if (status === 400 || status === 422) return 'invalid_argument';
  if (status === 404 || status === 410) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'upstream_unavailable';
  // 401/403/405 and friends are not statuses this public, credential-free API defines.
  return 'upstream_contract';
}

/**
 * Whether a failed exchange failed on the way (a socket, DNS, TLS, a dropped or malformed answer, a
 * decoding the sender broke) rather than in code: ours, or a dependency's refusing how we called it
 * (a TypeError, undici's UND_ERR_INVALID_ARG). Only the first is `network`; telling anyone to check
 * their connectivity for the second sends them the wrong way.
 */
export function isTransportFailure(error: unknown, depth = 0): boolean {
  for (const current of causeChain(error, 8 - depth)) {
    if (!(current instanceof Error)) return false;
    if (
      TRANSPORT_CODE.test(String((current as { code?: unknown }).code ?? '')) ||
      REFUSED_REDIRECT.test(current.message)
    )
      return true;
    // fetch reports every network error as this TypeError, the reason (when it gives one) in its
    // cause: a network error unless that cause is itself a defect.
    if (current instanceof TypeError && FETCH_NETWORK_ERROR.test(current.message))
      return !looksLikeDefect(current.cause);
    if (current instanceof AggregateError && current.errors.some((inner) => isTransportFailure(inner, depth + 1)))
      return true;
    depth++;
  }
  return false;
}

/**
 * System errors from a socket or resolver (ECONNREFUSED, ENOTFOUND, EAI_AGAIN, ECONNRESET, EPIPE,
 * ETIMEDOUT...; Node's own ERR_ codes are programming errors and excluded), TLS and certificate
 * failures, undici's errors of the connection and of the answer as it arrived, llhttp's parse
 * errors (HPE_), and zlib's for a body its sender encoded badly.
 */
const TRANSPORT_CODE =
  /^(?:E(?!RR_)[A-Z0-9_]+|ERR_TLS_\w+|ERR_SSL_\w+|ERR_OSSL_\w+|CERT_\w+|UNABLE_TO_\w+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|UND_ERR_(?:SOCKET|CONNECT_TIMEOUT|HEADERS_TIMEOUT|BODY_TIMEOUT|CLOSED|DESTROYED|INFO|RES_CONTENT_LENGTH_MISMATCH|RES_EXCEEDED_MAX_SIZE|HEADERS_OVERFLOW|PRX_TLS|RESPONSE)|HPE_\w+|Z_\w+|ERR_BROTLI_\w+|ERR_ZSTD_\w+)$/;
const FETCH_NETWORK_ERROR = /^(?:fetch failed|Failed to fetch|NetworkError\b)/;
/** JavaScript's own errors for a mistake in code, and undici's and Node's for an argument they refuse. */
const DEFECT_NAME = /^(?:TypeError|RangeError|ReferenceError|SyntaxError)$/;
const DEFECT_CODE = /^(?:UND_ERR_INVALID_ARG|UND_ERR_NOT_SUPPORTED|ERR_(?!TLS_|SSL_|OSSL_|BROTLI_|ZSTD_)\w+)$/;

function looksLikeDefect(error: unknown): boolean {
  for (const current of causeChain(error)) {
    if (!(current instanceof Error)) return false;
    const code = String((current as { code?: unknown }).code ?? '');
    if (TRANSPORT_CODE.test(code)) return false;
    if (DEFECT_NAME.test(current.name) || DEFECT_CODE.test(code)) return true;
  }
  return false;
}
/** undici refuses a redirect to a scheme other than http(s) with an argument error: the API's answer, not our call. */
const REFUSED_REDIRECT = /^Invalid URL protocol/i;

/**
 * undici reports every transport failure as `TypeError: fetch failed` and hides the reason in
 * `cause` (sometimes nested, sometimes an AggregateError of one error per address tried); dig it
 * out so "network" errors say why.
 */
export function describeNetworkCause(error: unknown): string {
  const parts: string[] = [];
  const add = (text: string) => {
    if (text && text !== 'fetch failed' && !parts.includes(text)) parts.push(text);
  };
  for (const current of causeChain(error)) {
    if (!(current instanceof Error)) {
      if (typeof current === 'string') add(current);
      break;
    }
    // Every address tried (IPv6 and IPv4 under happy eyeballs) tells part of the story.
    if (current instanceof AggregateError && current.errors.length > 0)
      add(current.errors.map(describeOne).filter(Boolean).join('; '));
    else add(describeOne(current));
  }
  return parts.length > 0 ? parts.join(' <- ') : 'fetch failed';
}

function describeOne(error: unknown): string {
  if (!(error instanceof Error)) return typeof error === 'string' ? error : '';
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || error.message.includes(code)) return error.message;
  return error.message ? `${code}: ${error.message}` : code;
}
