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
import type * as Undici from 'undici';
import { DEFAULT_CACHE_LIMITS, withResponseCache } from './cache.js';
import { bodyTooLarge, declaredOverCap, formatBytes, type TextFetchLike, type TextResponse, type UndiciFetchOptions } from './http.js';
import { Agent, cacheStores, interceptors, loadEnvHttpProxyAgent, loadUndici, request } from './undici-parts.js';

/** fetch's redirect limit. */
const MAX_REDIRECTIONS = 20;
const ACCEPT_ENCODING = 'gzip, br';
const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY'];
/** Statuses whose responses never have a body (a Response cannot even be built with one). */
const NULL_BODY = new Set([204, 205, 304]);

type RawHeaders = Record<string, string | string[] | undefined>;

// undici's own Headers, not the global one: that loads Node's bundled copy of undici, a second
// HTTP stack in memory (about 6 MB of RSS) for one small class.
function toHeaders(raw: RawHeaders): Undici.Headers {
  const headers = new (loadUndici().Headers)();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

/**
 * undici's raw response headers (names lower-cased, a repeated header as an array) read as
 * Headers.get reads them, without building a Headers object: the client only ever reads a few.
 */
function headerReader(raw: RawHeaders): Pick<Headers, 'get'> {
  return {
    get(name: string) {
      const value = raw[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** Request headers as the plain lower-cased record undici takes; the client sends a plain record. */
function requestHeaders(init: RequestInit['headers']): Record<string, string> {
  const headers: Record<string, string> = { 'accept-encoding': ACCEPT_ENCODING };
  if (init === undefined) return headers;
  if (Array.isArray(init)) {
    for (const [name, value] of init) headers[name!.toLowerCase()] = value!;
  } else if (typeof (init as Headers).forEach === 'function') {
    (init as Headers).forEach((value, name) => (headers[name.toLowerCase()] = value));
  } else {
    for (const [name, value] of Object.entries(init as Record<string, string>)) headers[name.toLowerCase()] = value;
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

const UTF8_BOM = 0xfeff;
const ignore = () => {};

/**
 * Reads a Node body as UTF-8 text within `maxBytes`, as readBodyCapped does for a web stream and
 * with the same refusals, but without web streams: no ReadableStream, reader promise or
 * TextDecoder per call. An over-cap Content-Length is refused before a byte is read; a body that
 * passes the cap while streaming is destroyed there. `signal` (the request's timeout and
 * cancellation) rejects at once with its reason, even mid-body, and destroys the stream.
 */
export function readNodeBodyCapped(body: Readable, status: number, headers: Pick<Headers, 'get'>, maxBytes: number, path: string, signal?: AbortSignal): Promise<string> {
  const declared = declaredOverCap(headers, maxBytes);
  if (declared !== undefined) {
    body.on('error', ignore).destroy();
    return Promise.reject(bodyTooLarge(status, path, maxBytes, `${formatBytes(declared)} (Content-Length)`, 'refused without reading it'));
  }
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const settle = (error: unknown, text?: string) => {
      if (settled) return;
      settled = true;
      // A later error (undici destroying the body on abort) has been answered already; swallow it.
      body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose).on('error', ignore);
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) return resolve(text!);
      body.destroy();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) return settle(bodyTooLarge(status, path, maxBytes, `more than ${formatBytes(maxBytes)}`, 'reading stopped at the cap and the body was discarded'));
      chunks.push(chunk);
    };
    const onEnd = () => {
      // TextDecoder's reading: invalid sequences become U+FFFD and a leading BOM is dropped.
      const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total)).toString('utf8');
      settle(undefined, text.charCodeAt(0) === UTF8_BOM ? text.slice(1) : text);
    };
    const onError = (error: unknown) => settle(error ?? new Error('the response body failed'));
    const onClose = () => settle(new Error('the response body closed before its end'));
    const onAbort = () => settle(signal!.reason);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    body.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}

export function buildUndiciFetch(options: UndiciFetchOptions): TextFetchLike {
  const agentOptions = { connections: options.connections ?? 64, keepAliveTimeout: 30_000, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs };
  // EnvHttpProxyAgent reads the proxy variables once, here, and then parses every request's origin
  // and checks NO_PROXY for it; with no proxy set it would only ever pick its plain Agent.
  const agent = PROXY_VARIABLES.some((name) => process.env[name]) ? new (loadEnvHttpProxyAgent())(agentOptions) : new Agent(agentOptions);
  const cache = options.cache ?? true;
  // The cache sits inside the redirect handling, so each hop is cached under its own URL.
  const cached = cache === false ? agent : withResponseCache({ cacheStores, interceptors }, agent, cache === true ? DEFAULT_CACHE_LIMITS : cache);
  const dispatcher = cached.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }));

  const send = async (url: string, init: RequestInit) => {
    const target = new URL(url);
    const response = await request(dispatcher, {
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: 'GET',
      headers: requestHeaders(init.headers),
      signal: init.signal ?? undefined,
    });
    const raw = response.headers as RawHeaders;
    const headers = headerReader(raw);
    if (NULL_BODY.has(response.statusCode)) {
      await response.body.dump();
      return { status: response.statusCode, raw, headers, body: undefined };
    }
    return { status: response.statusCode, raw, headers, body: decoded(response.body, headers.get('content-encoding')) };
  };

  const fetch = async (url: string, init: RequestInit) => {
    const { status, raw, body } = await send(url, init);
    const { Response } = loadUndici();
    const web = body ? (Readable.toWeb(body) as ConstructorParameters<typeof Response>[0]) : null;
    // The same Fetch Response the client reads everywhere; only its type comes from another package.
    return new Response(web, { status, headers: toHeaders(raw) }) as unknown as globalThis.Response;
  };
  const text = async (url: string, init: RequestInit, maxBytes: number, path: string): Promise<TextResponse> => {
    const { status, headers, body } = await send(url, init);
    const textBody = body ? await readNodeBodyCapped(body, status, headers, maxBytes, path, init.signal ?? undefined) : '';
    return { status, headers, body: textBody };
  };
  return Object.assign(fetch, { text });
}
