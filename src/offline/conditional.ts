/**
 * HTTP caching headers of the offline API, so a client's cache has something real to honour: every
 * 200 carries a strong ETag and a Cache-Control, and a matching If-None-Match is answered 304. Only
 * successes get them: an error must never be served from a cache. Health is `no-store`: a health
 * check that answers from a cache checks nothing.
 */
import { createHash } from 'node:crypto';

export const DATA_CACHE_CONTROL = 'public, max-age=60';
const NO_STORE_PATHS = new Set(['/api/public/v1/mcp/health']);

/**
 * Whether an If-None-Match value (a list, or `*`) matches `etag`, by the weak comparison RFC 9110
 * prescribes for it.
 */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** Adds validators to a 200 answer and turns it into a 304 when the request already holds it. */
export async function withValidators(request: Request, pathname: string, response: Response): Promise<Response> {
  if (response.status !== 200) return response;
  const headers = new Headers(response.headers);
  // One trailing slash is tolerated on every path, as the router does.
  if (NO_STORE_PATHS.has(pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname)) {
    headers.set('cache-control', 'no-store');
    return new Response(response.body, { status: 200, headers });
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  const etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  headers.set('etag', etag);
  headers.set('cache-control', DATA_CACHE_CONTROL);
  if (matchesIfNoneMatch(request.headers.get('if-none-match'), etag)) {
    // A 304 repeats the validators and freshness of the 200 it stands for, without the body.
    headers.delete('content-length');
    headers.delete('content-type');
    return new Response(null, { status: 304, headers });
  }
  return new Response(bytes, { status: 200, headers });
}
