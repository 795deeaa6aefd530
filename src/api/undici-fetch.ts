/**
 * The production FetchLike, built on undici's `dispatcher.request` rather than `undici.fetch`.
 * The client only ever sends a GET with a few headers and reads status, headers and body, so the
 * Fetch machinery (Request objects, header guards, the fetch algorithm's steps) buys nothing here,
 * and costs about twice the CPU per call. What fetch did that still matters is done explicitly:
 * redirects are followed (undici's redirect interceptor, 20 hops like fetch), gzip and br
 * responses are decoded (only those are advertised), and network errors are undici's own, which
 * describeNetworkCause names as before. Loaded on first use: nothing here is on the start-up path.
 */
import { pipeline, Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import * as undici from 'undici';
import { DEFAULT_CACHE_LIMITS, withResponseCache } from './cache.js';
import type { FetchLike, UndiciFetchOptions } from './http.js';

/** fetch's redirect limit. */
const MAX_REDIRECTIONS = 20;
const ACCEPT_ENCODING = 'gzip, br';
/** Statuses whose responses never have a body (a Response cannot even be built with one). */
const NULL_BODY = new Set([204, 205, 304]);

// undici's own Response and Headers, not the globals: those load Node's bundled copy of undici, a
// second HTTP stack in memory (about 6 MB of RSS) for two small classes.
const { Headers, Response } = undici;

function toHeaders(raw: Record<string, string | string[] | undefined>): InstanceType<typeof Headers> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

/** The body, decoded when it is gzip or br; any other coding passes through as sent. */
function decoded(body: Readable, encoding: string | null): Readable {
  const coding = encoding?.trim().toLowerCase();
  const decoder = coding === 'gzip' || coding === 'x-gzip' ? createGunzip() : coding === 'br' ? createBrotliDecompress() : undefined;
  if (!decoder) return body;
  // Errors on either side destroy both, so a reset mid-body still reaches the reader.
  return pipeline(body, decoder, () => {});
}

export function buildUndiciFetch(options: UndiciFetchOptions): FetchLike {
  const agent = new undici.EnvHttpProxyAgent({
    connections: options.connections ?? 64,
    keepAliveTimeout: 30_000,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const cache = options.cache ?? true;
  // The cache sits inside the redirect handling, so each hop is cached under its own URL.
  const cached = cache === false ? agent : withResponseCache(undici, agent, cache === true ? DEFAULT_CACHE_LIMITS : cache);
  const dispatcher = cached.compose(undici.interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }));

  return async (url, init) => {
    const target = new URL(url);
    const headers: Record<string, string> = { 'accept-encoding': ACCEPT_ENCODING };
    new Headers(init.headers as ConstructorParameters<typeof Headers>[0]).forEach((value, name) => (headers[name] = value));
    const response = await dispatcher.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: 'GET',
      headers,
      signal: init.signal ?? undefined,
    });
    const responseHeaders = toHeaders(response.headers);
    if (NULL_BODY.has(response.statusCode)) {
      await response.body.dump();
      return new Response(null, { status: response.statusCode, headers: responseHeaders }) as unknown as globalThis.Response;
    }
    const body = Readable.toWeb(decoded(response.body, responseHeaders.get('content-encoding')));
    // The same Fetch Response the client reads everywhere; only its type comes from another package.
    return new Response(body as ConstructorParameters<typeof Response>[0], { status: response.statusCode, headers: responseHeaders }) as unknown as globalThis.Response;
  };
}
