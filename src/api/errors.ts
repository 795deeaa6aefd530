/**
 * The error family of the API client. Every failure of a REST call is one ApiError with a stable
 * `kind` (the names of CONTRACT.md), so the MCP layer can render it without knowing HTTP.
 */
export const ERROR_KINDS = [
  'invalid_argument',
  'not_found',
  'rate_limited',
  'upstream_unavailable',
  'upstream_contract',
  'timeout',
  'network',
  'cancelled',
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

  constructor(kind: ErrorKind, message: string, details: ApiErrorDetails = {}) {
    super(redactSecrets(message), details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.status = details.status;
    this.path = details.path === undefined ? undefined : redactSecrets(details.path);
    this.upstreamError = details.upstreamError;
    this.upstreamMessage = details.upstreamMessage;
    this.retryAfterS = details.retryAfterS;
    this.jsonPath = details.jsonPath;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
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

const USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+(?::[^/\s@]*)?@/gi;
const SECRET_PARAM = /([?&](?:token|access_token|api_key|apikey|key|secret|password|auth|signature|sig)=)[^&#\s]*/gi;
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;

/** Strips URL userinfo, secret-looking query parameters and bearer tokens from text. */
export function redactSecrets(text: string): string {
  return text.replace(USERINFO, '$1[redacted]@').replace(SECRET_PARAM, '$1[redacted]').replace(BEARER, '$1[redacted]');
}

/**
 * undici reports every transport failure as `TypeError: fetch failed` and hides the reason in
 * `cause` (sometimes nested, sometimes an AggregateError); dig it out so "network" errors say why.
 */
export function describeNetworkCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof AggregateError && current.errors.length > 0) current = current.errors[0];
    if (!(current instanceof Error)) break;
    const code = (current as { code?: unknown }).code;
    const text = typeof code === 'string' && !current.message.includes(code) ? `${code}: ${current.message}` : current.message;
    if (text && !parts.includes(text) && text !== 'fetch failed') parts.push(text);
    current = current.cause;
  }
  return parts.length > 0 ? parts.join(' <- ') : 'fetch failed';
}
