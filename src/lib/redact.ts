/**
 * Credentials out of text: every message, log line and error that may quote a URL or a header
 * passes through here before anyone sees it.
 */
// Userinfo stops at characters a URL cannot hold unescaped (quotes, brackets, spaces), so it
// never reaches across a JSON value into the next one.
const USERINFO = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@"'<>\\{}[\]?#]*(?::[^/\s@"'<>\\{}[\]?#]*)?@/gi;
// Query parameters whose name is, or ends in, a secret-looking word (token, refresh_token,
// client_secret, x-api-key...).
const SECRET_PARAM =
  /([?&](?:[a-z0-9]+[_-])*(?:token|secret|password|passwd|api[_-]?key|apikey|key|auth|authorization|signature|sig|credentials?)=)[^&#\s"'<>]*/gi;
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;
// Any scheme (bearer, basic...) in any case, but only after an Authorization name, so that ordinary
// words ("Basic filters", "bearer of") in upstream messages are left alone.
const AUTHORIZATION = /\b(authorization["']?\s*[:=]\s*["']?(?:[A-Za-z]+\s+)?)[^\s,;"']+/gi;

/** Strips URL userinfo, secret-looking query parameters and bearer/Authorization credentials from text. */
export function redactSecrets(text: string): string {
  return text
    .replace(USERINFO, '$1[redacted]@')
    .replace(SECRET_PARAM, '$1[redacted]')
    .replace(AUTHORIZATION, '$1[redacted]')
    .replace(BEARER, '$1[redacted]');
}
