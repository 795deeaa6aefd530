/**
 * Who may call HTTP mode, decided before any work: from the request's head alone (no body byte
 * read, no slot taken, nothing sent to the API). Static tokens (static-tokens.ts) or OAuth access
 * tokens (oauth.ts) are checked by the SDK's `verifyBearerToken`, and a refusal carries the SDK's
 * `WWW-Authenticate: Bearer` challenge with a JSON-RPC error body; a request with no Bearer
 * credentials gets a challenge of ours, with no error code (RFC 6750 §3.1), which the SDK's lacks.
 * What OAuth clients look for on the side (metadata, or why there is none) is discovery.ts's.
 * A token is never logged, never put in an error, and blanked before the request goes on (caller.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  bearerAuthChallengeResponse,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import type { Logger } from '../../obs/log.js';
import type { Headers } from '../../lib/http-server.js';
import { anonymous, withCaller } from './caller.js';
import { noOAuthHere, oauthDiscovery, type DiscoveryRoute } from './discovery.js';
import { JwtVerifier } from './oauth.js';
import { StaticTokens } from './static-tokens.js';

export type AuthCheck =
  { ok: true; auth: AuthInfo | undefined } | { ok: false; status: number; message: string; headers: Headers };

export interface AuthSettings {
  tokensFile?: string | undefined;
  oauth?: { issuer: string; audience: string; scopes?: readonly string[] | undefined } | undefined;
  /** Name callers by their address when no token names them (fair share without auth). */
  byAddress: boolean;
}

export interface AuthGate {
  /** For the start-up line: how callers are checked. */
  readonly description: string;
  /** Whether requests need a token. */
  readonly required: boolean;
  /** Host names the server is reached by that the settings name (the audience's). */
  readonly hosts: readonly string[];
  check(req: IncomingMessage): Promise<AuthCheck>;
  /** Answers where OAuth clients look for how to get a token (discovery.ts); false when `path` is no such address. */
  serveMetadata(path: string, req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Reads the tokens file again (SIGHUP); with OAuth, reads the issuer's metadata and keys again on next need. */
  reload(): Promise<void>;
}

/** Query parameters a token may be smuggled in: refused, whatever the settings (the spec's authentication rule 4). */
const TOKEN_PARAMETERS = ['access_token', 'token'];

function tokenInQuery(target: string | undefined): string | undefined {
  const params = new URL(target ?? '/', 'http://localhost').searchParams;
  return TOKEN_PARAMETERS.find((name) => params.has(name));
}

export async function createAuthGate(settings: AuthSettings, logger: Logger): Promise<AuthGate> {
  const scopes = [...(settings.oauth?.scopes ?? [])];
  let verifier: OAuthTokenVerifier | undefined;
  let tokens: StaticTokens | undefined;
  let jwt: JwtVerifier | undefined;
  let description = 'no authentication: anyone who can reach the port can call the tools';
  if (settings.tokensFile !== undefined) {
    tokens = new StaticTokens(settings.tokensFile);
    const count = await tokens.load();
    verifier = tokens;
    description = `bearer tokens from ${settings.tokensFile} (${count} name(s); SIGHUP re-reads it)`;
  } else if (settings.oauth) {
    jwt = new JwtVerifier({ issuer: settings.oauth.issuer, audience: settings.oauth.audience });
    verifier = jwt;
    description = `OAuth access tokens from ${settings.oauth.issuer} for ${settings.oauth.audience}${scopes.length ? ` with scope ${scopes.join(' ')}` : ''}`;
    // Read early, so a wrong issuer shows in the log at start; a request will try again.
    jwt.discover().catch((error: Error) => logger.warn(`--auth-issuer: ${error.message}; requests will try again`));
  }
  const audience = settings.oauth ? new URL(settings.oauth.audience) : undefined;
  const resourceMetadataUrl = audience ? getOAuthProtectedResourceMetadataUrl(audience) : undefined;
  // RFC 6750 §3.1: no error code for a request without credentials (the SDK's verifyBearerToken calls it
  // invalid_token: were it to follow the RFC, this could go); scope and metadata say where to get them.
  const bare = [
    'Bearer realm="service-mcp"',
    ...(jwt && scopes.length ? [`scope="${scopes.join(' ')}"`] : []),
    ...(resourceMetadataUrl ? [`resource_metadata="${resourceMetadataUrl}"`] : []),
  ].join(', ');
  const how = tokens
    ? 'send Authorization: Bearer <token> with a token from the server operator'
    : `send Authorization: Bearer <token> with an access token from ${settings.oauth?.issuer} for the resource ${settings.oauth?.audience} (Protected Resource Metadata: ${resourceMetadataUrl})`;

  async function check(req: IncomingMessage): Promise<AuthCheck> {
    const smuggled = tokenInQuery(req.url);
    if (smuggled)
      return {
        ok: false,
        status: 400,
        message: `Bad Request: a token was sent in the URL (query parameter ${smuggled}), where proxies and logs keep it; send it only in the Authorization header (Bearer), and replace that token: it is no longer secret`,
        headers: { 'www-authenticate': 'Bearer error="invalid_request", error_description="Token in URL refused"' },
      };
    if (!verifier) return { ok: true, auth: settings.byAddress ? anonymous(req.socket.remoteAddress) : undefined };
    const header = req.headers.authorization;
    if (!header || header.split(' ', 1)[0]!.toLowerCase() !== 'bearer') {
      const what = header ? 'the Authorization header is of another scheme than Bearer' : 'no token was sent';
      logger.debug(`refused ${req.method ?? 'GET'} from ${req.socket.remoteAddress ?? 'unknown'}: no token (${what})`);
      return {
        ok: false,
        status: 401,
        message: `Unauthorized: ${what}; ${how}`,
        headers: { 'www-authenticate': bare },
      };
    }
    try {
      const verified = await verifyBearerToken(header, {
        verifier,
        requiredScopes: scopes,
        ...(audience ? { expectedResource: audience } : {}),
        ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      });
      const caller = tokens
        ? `token:${verified.clientId}`
        : `oauth:${String(verified.extra?.subject ?? verified.clientId)}`;
      logger.debug(`caller ${caller}`);
      return { ok: true, auth: withCaller(verified, caller) };
    } catch (error) {
      const code = error instanceof OAuthError ? error.code : OAuthErrorCode.ServerError;
      const reason = error instanceof OAuthError ? error.message : 'verification failed';
      logger.debug(`refused ${req.method ?? 'GET'} from ${req.socket.remoteAddress ?? 'unknown'}: ${code} (${reason})`);
      if (code === OAuthErrorCode.ServerError)
        return {
          ok: false,
          status: 503,
          message: `Service Unavailable: the token could not be checked: ${reason}; retry shortly`,
          headers: { 'retry-after': '5' },
        };
      const challenge = bearerAuthChallengeResponse(error, {
        requiredScopes: scopes,
        ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
      });
      const status = challenge.status;
      const message =
        status === 403
          ? `Forbidden: insufficient_scope: this server needs the scope(s) ${scopes.join(' ')}; ask ${settings.oauth?.issuer} for a token that carries them`
          : `Unauthorized: ${reason}; ${how}`;
      return {
        ok: false,
        status,
        message,
        headers: { 'www-authenticate': challenge.headers.get('www-authenticate')! },
      };
    }
  }

  const discovery: DiscoveryRoute | undefined = jwt
    ? oauthDiscovery({
        issuer: settings.oauth!.issuer,
        audience: audience!,
        scopes,
        issuerMetadata: () => jwt.discover().then((found) => found.metadata),
      })
    : tokens
      ? noOAuthHere(async (req) => {
          // Said only of a token this request carries: the Inspector sends its header to /mcp, not here.
          if (!req.headers.authorization) return '';
          const who = await check(req);
          if (who.ok) return 'The token sent is valid. ';
          // The reason alone: mcp-remote takes an error naming "Unauthorized" for a sign-in to wait for.
          return `The token sent was refused: ${who.message.replace(/^[^:]+: /, '').replace(`; ${how}`, '')}. `;
        })
      : undefined;

  return {
    description,
    required: verifier !== undefined,
    hosts: audience ? [audience.host] : [],
    check,
    serveMetadata: (path, req, res) => discovery?.(path, req, res) ?? Promise.resolve(false),
    reload: async () => {
      if (tokens) {
        const count = await tokens.load();
        logger.warn(`re-read ${tokens.file}: ${count} name(s)`);
      }
      jwt?.forget();
    },
  };
}

/** SIGHUP re-reads the tokens file (or the issuer's metadata): a failed read keeps what was in force. */
export function reloadOnHangup(gate: AuthGate, logger: Logger): void {
  process.on('SIGHUP', () => {
    gate
      .reload()
      .catch((error: Error) => logger.error(`SIGHUP: ${error.message}; the tokens read before stay in force`));
  });
}
