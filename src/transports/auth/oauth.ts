/**
 * OAuth access tokens for an organisation (--auth-issuer, --auth-audience, --auth-scopes): this
 * server is a resource server. A token is a JWT signed by the issuer: its keys come from the
 * issuer's published metadata (RFC 8414, else OpenID discovery) and JWKS, fetched on first need
 * and cached by jose, which fetches the set again when a token names a key it has not seen (key
 * rotation), at most once per cool-down, so a flood of made-up key ids cannot flood the issuer.
 * Issuer, audience (this server: RFC 8707's resource), expiry and not-before are checked; the
 * scopes are the SDK's to check (verifyBearerToken).
 */
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';

/** Clock difference allowed with the issuer when reading nbf and exp. */
const CLOCK_TOLERANCE_S = 5;
/** After a key set fetch, how long before an unknown key id may fetch it again. */
const JWKS_COOLDOWN_MS = 30_000;
/** How long a fetched key set is used before it is fetched again anyway. */
const JWKS_MAX_AGE_MS = 10 * 60_000;
/** After the issuer's metadata could not be read, how long before it is asked again. */
const DISCOVERY_RETRY_MS = 5_000;
const FETCH_TIMEOUT_MS = 5_000;

export interface OAuthOptions {
  issuer: string;
  /** This server's resource identifier: tokens must name it in `aud`. */
  audience: string;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
}

/** The issuer's metadata as far as a resource server reads it. */
export interface IssuerMetadata extends Record<string, unknown> {
  issuer: string;
  jwks_uri: string;
}

/** RFC 8414 §3 puts the well-known segment before the issuer's path; OpenID Discovery after it. */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

async function readMetadata(issuer: string, fetchImpl: typeof globalThis.fetch): Promise<IssuerMetadata> {
  const failures: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const response = await fetchImpl(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!response.ok) {
        await response.body?.cancel();
        failures.push(`${url}: HTTP ${response.status}`);
        continue;
      }
      const body = (await response.json()) as Record<string, unknown>;
      // RFC 8414 §3.3: a document naming another issuer is not this issuer's.
      if (body.issuer !== issuer) {
        failures.push(`${url}: names issuer ${JSON.stringify(body.issuer)}`);
        continue;
      }
      if (typeof body.jwks_uri !== 'string' || !URL.canParse(body.jwks_uri)) {
        failures.push(`${url}: has no jwks_uri`);
        continue;
      }
      return body as IssuerMetadata;
    } catch (error) {
      failures.push(`${url}: ${(error as Error).message}`);
    }
  }
  throw new Error(`the issuer's metadata could not be read (${failures.join('; ')})`);
}

const asList = (value: unknown): string[] =>
  typeof value === 'string' ? value.split(' ').filter(Boolean) : Array.isArray(value) ? value.map(String) : [];

export class JwtVerifier implements OAuthTokenVerifier {
  private readonly fetchImpl: typeof globalThis.fetch;
  private readonly now: () => number;
  private discovery: Promise<{ metadata: IssuerMetadata; keys: ReturnType<typeof createRemoteJWKSet> }> | undefined;
  private failedAt = -Infinity;
  private lastFailure = '';

  constructor(private readonly options: OAuthOptions) {
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.now = options.now ?? (() => Date.now());
  }

  /** The issuer's metadata and key set, read once; after a failure, again once DISCOVERY_RETRY_MS has passed. */
  discover() {
    if (!this.discovery && this.now() - this.failedAt < DISCOVERY_RETRY_MS)
      return Promise.reject(new Error(this.lastFailure));
    this.discovery ??= readMetadata(this.options.issuer, this.fetchImpl).then(
      (metadata) => ({
        metadata,
        keys: createRemoteJWKSet(new URL(metadata.jwks_uri), {
          cooldownDuration: JWKS_COOLDOWN_MS,
          cacheMaxAge: JWKS_MAX_AGE_MS,
          timeoutDuration: FETCH_TIMEOUT_MS,
        }),
      }),
      (error: Error) => {
        this.discovery = undefined;
        this.failedAt = this.now();
        this.lastFailure = error.message;
        throw error;
      },
    );
    return this.discovery;
  }

  /** Reads the metadata and keys again on next need (SIGHUP). */
  forget(): void {
    this.discovery = undefined;
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    // A token that is no JWT is refused without the issuer, so that answer (401) holds whatever its state.
    try {
      decodeProtectedHeader(token);
      decodeJwt(token);
    } catch (error) {
      throw new OAuthError(OAuthErrorCode.InvalidToken, `Token rejected: not a JWT (${(error as Error).message})`);
    }
    const { keys } = await this.discover().catch((error: Error) => {
      throw new OAuthError(OAuthErrorCode.ServerError, `The authorization server is unreachable: ${error.message}`);
    });
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.options.issuer,
        audience: this.options.audience,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['exp'],
        currentDate: new Date(this.now()),
      }));
    } catch (error) {
      if (error instanceof errors.JWKSTimeout || (error instanceof Error && error.name === 'TypeError'))
        throw new OAuthError(
          OAuthErrorCode.ServerError,
          `The authorization server's keys could not be read: ${error.message}`,
        );
      throw new OAuthError(OAuthErrorCode.InvalidToken, `Token rejected: ${describe(error)}`);
    }
    const clientId = String(payload.client_id ?? payload.azp ?? payload.sub ?? 'unknown');
    return {
      token,
      clientId,
      scopes: asList(payload.scope ?? payload.scp),
      expiresAt: payload.exp!,
      // jwtVerify checked that `aud` names this resource.
      resource: new URL(this.options.audience),
      extra: { subject: String(payload.sub ?? clientId) },
    };
  }
}

/** What was wrong with a token, in jose's words (which never quote the token). */
function describe(error: unknown): string {
  if (error instanceof errors.JWKSNoMatchingKey) return 'signed by a key the issuer does not publish';
  if (error instanceof errors.JOSEError) return error.message;
  return 'not a JWT this server can read';
}
