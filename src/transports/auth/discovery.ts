/**
 * What the server answers where OAuth clients look for how to get a token.
 *
 * With --auth-issuer: the Protected Resource Metadata (RFC 9728), made once from the configuration,
 * so it is served whatever the issuer's state (every 401 links to it, and a client that cannot read
 * it stops), at the root address and at every path-suffixed one a client derives from the URL it
 * was given; and, for older clients that look here, the issuer's own metadata, relayed.
 *
 * With static tokens there is no OAuth to find, but an MCP client meeting a 401 tries anyway: the
 * SDK's (in mcp-remote and the Inspector) walks the well-known documents, falls back to
 * /register on this origin, and reports what that answered. So each of those addresses answers
 * with an OAuth error body that says what to do instead: the text those clients print.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildOAuthProtectedResourceMetadata, type OAuthMetadata } from '@modelcontextprotocol/server';
import { sendJson, sendRpcError } from '../../lib/http-server.js';

/** Answers a request when `path` is an address of its kind; false when it is not. */
export type DiscoveryRoute = (path: string, req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const PRM = '/.well-known/oauth-protected-resource';
const AS_METADATA = '/.well-known/oauth-authorization-server';
const OPENID = '/.well-known/openid-configuration';
/** The endpoints the SDK's client falls back to on the server's origin when no metadata names them. */
const FALLBACK_ENDPOINTS = ['/register', '/authorize', '/token'];
const CORS = { 'access-control-allow-origin': '*' };

/** A document named `name`, at the root or with a resource's path after it (RFC 8414, RFC 9728). */
const wellKnown = (path: string, name: string) => path === name || path.startsWith(`${name}/`);

/** Browsers' preflights (the Inspector's web client reads these cross-origin); true when it answered. */
function answeredPreflight(req: IncomingMessage, res: ServerResponse): boolean {
  req.resume();
  if (req.method !== 'OPTIONS') return false;
  res.writeHead(204, {
    ...CORS,
    'access-control-allow-methods': 'GET, HEAD, OPTIONS',
    'access-control-allow-headers': 'MCP-Protocol-Version',
  });
  res.end();
  return true;
}

export function oauthDiscovery(options: {
  issuer: string;
  audience: URL;
  scopes: readonly string[];
  /** The issuer's metadata, read (and cached) by the token verifier. */
  issuerMetadata: () => Promise<Record<string, unknown>>;
}): DiscoveryRoute {
  const resourceMetadata = buildOAuthProtectedResourceMetadata({
    // Only the issuer's name goes into the document.
    oauthMetadata: { issuer: options.issuer } as OAuthMetadata,
    resourceServerUrl: options.audience,
    ...(options.scopes.length ? { scopesSupported: [...options.scopes] } : {}),
    resourceName: 'service-mcp',
    // The configuration admits only https or loopback http; the SDK's own check forgets [::1].
    dangerouslyAllowInsecureIssuerUrl: true,
  });
  return async (path, req, res) => {
    if (!wellKnown(path, PRM) && path !== AS_METADATA) return false;
    if (answeredPreflight(req, res)) return true;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendRpcError(res, 405, 'Method Not Allowed', { ...CORS, allow: 'GET, HEAD, OPTIONS' });
      return true;
    }
    let document: unknown = resourceMetadata;
    if (path === AS_METADATA) {
      try {
        document = await options.issuerMetadata();
      } catch (error) {
        sendRpcError(res, 503, `Service Unavailable: ${(error as Error).message}`, { ...CORS, 'retry-after': '5' });
        return true;
      }
    }
    sendJson(res, 200, document, { ...CORS, 'cache-control': 'public, max-age=300' });
    return true;
  };
}

/** `state` says how the request's own credentials fared (the gate's answer to them), as a sentence or nothing. */
export function noOAuthHere(state: (req: IncomingMessage) => Promise<string>): DiscoveryRoute {
  return async (path, req, res) => {
    const asked =
      FALLBACK_ENDPOINTS.includes(path) ||
      [PRM, AS_METADATA, OPENID].some((name) => wellKnown(path, name)) ||
      path.endsWith(OPENID);
    if (!asked) return false;
    if (answeredPreflight(req, res)) return true;
    sendJson(
      res,
      // A missing document is 404, after which clients go on to the endpoints; their error (RFC 6749
      // §5.2, RFC 7591 §3.2.2) is 400, which they print. Not 404 there: mcp-remote takes an error
      // naming 404 for a transport to fall back from, and tries again over SSE before it prints it.
      FALLBACK_ENDPOINTS.includes(path) ? 400 : 404,
      {
        error: 'invalid_request',
        error_description: `This server takes static bearer tokens, not OAuth: there is nothing to discover, register or authorize. ${await state(req)}Send the header Authorization: Bearer <token> on every MCP request, with a token from the server's operator (mcp-remote, the MCP Inspector: --header "Authorization: Bearer <token>").`,
      },
      CORS,
    );
    return true;
  };
}
