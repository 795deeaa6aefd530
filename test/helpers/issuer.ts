/**
 * A real OpenID provider on loopback for the auth tests: `oidc-provider` (OpenID-certified),
 * issuing JWT access tokens by the client credentials grant with a resource indicator (RFC 8707).
 * Its keys can be swapped while it runs (a key rotation), and a second provider can claim the
 * same issuer name with other keys (a forger) or share the keys under another name.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

export const CLIENT = { id: 'agent', secret: 'agent-secret-for-tests-only-0123456789' };
/** Scopes the resource server is given in tokens, when the client asks for them. */
const SCOPES = ['mcp:read', 'mcp:admin'];

export async function signingKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
}

export interface Issuer {
  /** The issuer identifier (this server's origin unless told otherwise). */
  issuer: string;
  url: string;
  /** Serves from now on with these keys, the first signing (a rotation when it is new). */
  useKeys(keys: JWK[]): void;
  /** An access token by client credentials for `resource`, with `scope`. */
  token(resource: string, scope?: string): Promise<string>;
  /** Requests seen for a path (the key set's, to count fetches). */
  hits(path: string): number;
  close(): Promise<void>;
}

export async function startIssuer(options: { keys: JWK[]; issuer?: string; ttlS?: number }): Promise<Issuer> {
  let handle: ReturnType<Provider['callback']> | undefined;
  const seen = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    seen.set(path, (seen.get(path) ?? 0) + 1);
    handle!(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = options.issuer ?? url;
  const useKeys = (keys: JWK[]) => {
    const provider = new Provider(issuer, {
      jwks: { keys },
      clients: [
        {
          client_id: CLIENT.id,
          client_secret: CLIENT.secret,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
          token_endpoint_auth_method: 'client_secret_basic',
          id_token_signed_response_alg: 'ES256',
          scope: SCOPES.join(' '),
        },
      ],
      scopes: SCOPES,
      features: {
        clientCredentials: { enabled: true },
        devInteractions: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string) => ({
            scope: SCOPES.join(' '),
            audience: resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: options.ttlS ?? 3600,
            jwt: { sign: { alg: 'ES256' } },
          }),
        },
      },
    });
    handle = provider.callback();
  };
  useKeys(options.keys);
  return {
    issuer,
    url,
    useKeys,
    hits: (path) => seen.get(path) ?? 0,
    async token(resource, scope = SCOPES.join(' ')) {
      const response = await fetch(`${url}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
