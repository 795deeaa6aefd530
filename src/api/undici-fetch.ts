/**
 * The production FetchLike, built on undici's dispatcher rather than `undici.fetch`. The client
 * only ever sends a GET with a few headers and reads status, headers and body, so the Fetch
 * machinery (Request objects, header guards, the fetch algorithm's steps) buys nothing here, and
 * costs about twice the CPU per call; so does the Readable body of `dispatcher.request`. What fetch
 * did that still matters is done explicitly: redirects are followed (undici's RedirectHandler, 20
 * hops like fetch), gzip and br responses are decoded (only those are advertised), and network
 * errors are undici's own, which describeNetworkCause names as before.
 * Loaded on first use: nothing here is on the start-up path.
 */
import nodeBuffer from 'node:buffer';
import { brotliDecompress, gunzip } from 'node:zlib';
import type * as Undici from 'undici';
import { DEFAULT_CACHE_LIMITS, withResponseCache } from './cache.js';
import { bodyTooLarge, contentLengthOverCap, DEFAULT_MAX_BODY_BYTES, formatBytes, readPastCap, RequestTimeout, type TextFetchLike, type TextResponse, type UndiciFetchOptions } from './http.js';
import { Deadlines, type Deadline } from './deadlines.js';
import { Agent, cacheStores, interceptors, loadEnvHttpProxyAgent, loadUndici, RedirectHandler } from './undici-parts.js';

/** fetch's redirect limit. */
const MAX_REDIRECTIONS = 20;
const ACCEPT_ENCODING = 'gzip, br';
const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY'];
/** Statuses whose responses never have a body (a Response cannot even be built with one). */
const NULL_BODY = new Set([204, 205, 304]);
/** The statuses undici's RedirectHandler follows (when a Location comes with them). */
const REDIRECT_STATUSES = new Set([300, 301, 302, 303, 307, 308]);

type Handler = Undici.Dispatcher.DispatchHandler;
type Controller = Undici.Dispatcher.DispatchController;
/** Takes a GET over from its first response on, following redirects, and reports the rest to `final`. */
type FollowRedirects = (request: Undici.Dispatcher.DispatchOptions, final: Handler) => Handler;

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
    const record = init as Record<string, string>;
    for (const name in record) headers[name.toLowerCase()] = record[name]!;
  }
  return headers;
}

/**
 * A path and query as URL parsing leaves them: only characters it keeps as they are, no dot
 * segment, no fragment, no empty query (`search` drops a lone "?").
 */
const PARSED_FORM = /^(?:\/(?!\.\.?(?:[/?]|$))[\w\-.~!$&()*+,;=:@%]*)+(?:\?[\w\-.~!$&()*+,;=:@%/?]+)?$/;
/** URL parsing reads an encoded dot as a dot, so such a path may hold a dot segment. */
const ENCODED_DOT = /%2e/i;

/**
 * Where a GET for `url` goes (origin, and path with query), as URL parsing gives them. The client
 * asks for `base + path` with one base throughout and paths already in parsed form (percent-encoded,
 * no dot segments), so once a parse has shown where the base puts such a path, later ones skip the
 * parser (a call into C++, about 5 µs of a warm call). Any other URL is parsed, as always.
 */
export function targetFinder(): (url: string, path: string) => { origin: string; path: string } {
  let known: { base: string; origin: string; prefix: string } | undefined;
  return (url, path) => {
    const base = url.endsWith(path) && PARSED_FORM.test(path) && !ENCODED_DOT.test(path) ? url.slice(0, url.length - path.length) : undefined;
    if (known && base === known.base) return { origin: known.origin, path: known.prefix + path };
    const target = new URL(url);
    const parsed = `${target.pathname}${target.search}`;
    if (base !== undefined && parsed.endsWith(path)) known = { base, origin: target.origin, prefix: parsed.slice(0, parsed.length - path.length) };
    return { origin: target.origin, path: parsed };
  };
}

/** Headers of a response not yet started. */
const NO_HEADERS = headerReader({});

const UTF8_BOM = 0xfeff;

type Decoder = (buffer: Buffer, options: { maxOutputLength: number }, callback: (error: Error | null, result: Buffer) => void) => void;

/** The decoder for a content coding this client advertises; any other coding passes through as sent. */
function decoderFor(encoding: string | null): Decoder | undefined {
  const coding = encoding?.trim().toLowerCase();
  return coding === 'gzip' || coding === 'x-gzip' ? gunzip : coding === 'br' ? brotliDecompress : undefined;
}

/** Absent from a Node built without ICU. */
const transcode: typeof nodeBuffer.transcode | undefined = nodeBuffer.transcode;
/** Below this many bytes converting twice costs more than it saves; above the other, the UTF-16 copy costs memory. */
const TRANSCODE_MIN_BYTES = 2048;
const TRANSCODE_MAX_BYTES = 1 << 20;

/** UTF-8 as TextDecoder reads it: invalid sequences become U+FFFD and a leading BOM is dropped. */
function utf8(buffer: Buffer): string {
  const text = decodeUtf8(buffer);
  return text.charCodeAt(0) === UTF8_BOM ? text.slice(1) : text;
}

/**
 * V8's decoder takes a slow path once the bytes hold one character beyond ASCII: an 18 KB page of
 * 20 jobs with a few "£" and "–" took 24 µs, against 7 µs through UTF-16 by ICU's converter (about
 * 15 µs less server CPU per search in situ). ICU refuses malformed bytes where V8 replaces them, so
 * those take V8's path and read exactly as before.
 */
function decodeUtf8(buffer: Buffer): string {
  // ASCII reads the same in either encoding, and latin1 is the cheapest way to say so.
  if (nodeBuffer.isAscii(buffer)) return buffer.toString('latin1');
  if (transcode && buffer.length >= TRANSCODE_MIN_BYTES && buffer.length <= TRANSCODE_MAX_BYTES) {
    try {
      return transcode(buffer, 'utf8', 'utf16le').toString('utf16le');
    } catch {
      // malformed UTF-8: V8's decoder below replaces what ICU refuses
    }
  }
  return buffer.toString('utf8');
}

/**
 * One GET answered as text, read through undici's dispatch handler interface: the bytes are
 * collected as they come, with no Readable stream, request handler or async resource in between
 * (that machinery was about 50 µs of a warm call). Refusals are readBodyCapped's: an over-cap
 * Content-Length before a byte is read, a body that passes the cap where it passes it (a gzip or
 * br body when its decoded size does), both as upstream_contract errors. `signal` (the caller's
 * cancellation) and `timeoutMs` (a RequestTimeout) settle the call at once, even while the request
 * still waits for a connection, and abort the request.
 *
 * Redirects are left to undici's RedirectHandler, which is brought in only when the first response
 * is a redirect and from then on sees every event, as if its interceptor had wrapped the request
 * from the start: the interceptor builds the handler, copies the options twice and parses a URL
 * for every request, about 15 µs of server CPU per call that almost never redirects.
 */
class TextReader implements Handler {
  readonly done: Promise<TextResponse>;
  private resolve!: (response: TextResponse) => void;
  private reject!: (error: unknown) => void;
  private controller: Undici.Dispatcher.DispatchController | undefined;
  private failure: unknown;
  private settled = false;
  private status = 0;
  private headers: Pick<Headers, 'get'> = NO_HEADERS;
  /** The response headers as undici gives them (names lower-cased, a repeated one as an array). */
  raw: RawHeaders = {};
  private readonly chunks: Buffer[] = [];
  private total = 0;
  /** The RedirectHandler, once the first response was a redirect. */
  private redirects: Handler | undefined;
  private deadline: Deadline | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly path: string,
    private readonly signal: AbortSignal | undefined,
    /** With the deadlines that watch it: ended with a RequestTimeout after this long. */
    private readonly timeout: { ms: number; deadlines: Deadlines<TextReader> } | undefined,
    /** The request as dispatched, and what follows its redirects; without them redirects are not followed. */
    private readonly options?: Undici.Dispatcher.DispatchOptions,
    private readonly follow?: FollowRedirects,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.deadline = timeout?.deadlines.add(this, timeout.ms);
  }

  private readonly onAbort = () => this.fail(this.signal!.reason);

  /** The deadline has passed. */
  expire(): void {
    this.fail(new RequestTimeout(this.timeout!.ms));
  }

  /** Settles with `error` and stops the request, wherever it is. */
  fail(error: unknown): void {
    if (!this.settle()) return;
    this.failure = error;
    this.reject(error);
    if (this.controller && !this.controller.aborted) this.controller.abort(error instanceof Error ? error : new Error(String(error)));
  }

  private succeed(body: string): void {
    if (this.settle()) this.resolve({ status: this.status, headers: this.headers, body });
  }

  /** False when settled already. */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.timeout?.deadlines.delete(this.deadline);
    this.signal?.removeEventListener('abort', this.onAbort);
    return true;
  }

  onRequestStart(controller: Controller): void {
    this.controller = controller;
    // Settled while it waited for a connection: it goes no further.
    if (this.settled) controller.abort(this.failure instanceof Error ? this.failure : new Error('the request was cancelled'));
  }

  onResponseStart(controller: Controller, statusCode: number, headers: RawHeaders, statusMessage?: string): void {
    if (!this.redirects && this.follow && this.options && REDIRECT_STATUSES.has(statusCode)) this.redirects = this.follow(this.options, this.ownHandling());
    if (this.redirects) return this.redirects.onResponseStart?.(controller, statusCode, headers, statusMessage ?? '');
    this.start(statusCode, headers);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.redirects) return this.redirects.onResponseData?.(controller, chunk);
    this.data(chunk);
  }

  onResponseEnd(controller: Controller, trailers: RawHeaders): void {
    if (this.redirects) return this.redirects.onResponseEnd?.(controller, trailers);
    this.end();
  }

  onResponseError(controller: Controller, error: Error): void {
    if (this.redirects) return this.redirects.onResponseError?.(controller, error);
    this.fail(error);
  }

  /** This reader's handling of a hop, for the RedirectHandler to report the hops it does not follow to. */
  private ownHandling(): Handler {
    return {
      onRequestStart: (controller) => this.onRequestStart(controller),
      onResponseStart: (_controller, statusCode, headers) => this.start(statusCode, headers as RawHeaders),
      onResponseData: (_controller, chunk) => this.data(chunk),
      onResponseEnd: () => this.end(),
      onResponseError: (_controller, error) => this.fail(error),
    };
  }

  private start(statusCode: number, headers: RawHeaders): void {
    this.status = statusCode;
    this.raw = headers;
    this.headers = headerReader(headers);
    const declared = contentLengthOverCap(this.headers, statusCode, this.path, this.maxBytes);
    if (declared) this.fail(declared);
  }

  private data(chunk: Buffer): void {
    if (this.settled) return;
    this.total += chunk.length;
    if (this.total > this.maxBytes) return this.fail(readPastCap(this.status, this.path, this.maxBytes));
    this.chunks.push(chunk);
  }

  private end(): void {
    if (this.settled) return;
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.total);
    const decode = NULL_BODY.has(this.status) ? undefined : decoderFor(this.headers.get('content-encoding'));
    if (!decode) return this.succeed(utf8(body));
    decode(body, { maxOutputLength: this.maxBytes }, (error, decoded) => {
      if (!error) return this.succeed(utf8(decoded));
      const overCap = (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      this.fail(overCap ? bodyTooLarge(this.status, this.path, this.maxBytes, `more than ${formatBytes(this.maxBytes)} decoded`, 'decoding stopped at the cap and the body was discarded') : error);
    });
  }
}

export function buildUndiciFetch(options: UndiciFetchOptions): TextFetchLike {
  const agentOptions = { connections: options.connections ?? 64, keepAliveTimeout: 30_000, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs };
  // EnvHttpProxyAgent reads the proxy variables once, here, and then parses every request's origin
  // and checks NO_PROXY for it; with no proxy set it would only ever pick its plain Agent.
  const agent = PROXY_VARIABLES.some((name) => process.env[name]) ? new (loadEnvHttpProxyAgent())(agentOptions) : new Agent(agentOptions);
  const cache = options.cache ?? true;
  // The cache sits inside the redirect handling, so each hop is cached under its own URL.
  const dispatcher = cache === false ? agent : withResponseCache({ cacheStores, interceptors }, agent, cache === true ? DEFAULT_CACHE_LIMITS : cache);
  const dispatch = dispatcher.dispatch.bind(dispatcher);
  const follow: FollowRedirects = (request, final) => new RedirectHandler(dispatch, MAX_REDIRECTIONS, request, final);
  const deadlines = new Deadlines<TextReader>((reader) => reader.expire());
  const targetOf = targetFinder();

  /** Starts one GET, read by a TextReader; a signal already aborted sends nothing. */
  const read = (url: string, init: RequestInit, maxBytes: number, path: string, timeoutMs?: number): TextReader => {
    const signal = init.signal ?? undefined;
    let options: Undici.Dispatcher.DispatchOptions | undefined;
    let invalid: unknown;
    try {
      const target = targetOf(url, path);
      options = { origin: target.origin, path: target.path, method: 'GET', headers: requestHeaders(init.headers) };
    } catch (error) {
      invalid = error;
    }
    const reader = new TextReader(maxBytes, path, signal, timeoutMs === undefined ? undefined : { ms: timeoutMs, deadlines }, options, follow);
    if (signal?.aborted) reader.fail(signal.reason);
    else if (!options) reader.fail(invalid);
    else {
      try {
        dispatcher.dispatch(options, reader);
      } catch (error) {
        reader.fail(error);
      }
    }
    return reader;
  };
  const text = (url: string, init: RequestInit, maxBytes: number, path: string, timeoutMs: number): Promise<TextResponse> => read(url, init, maxBytes, path, timeoutMs).done;
  // The Fetch form a FetchLike must also offer (the client uses text); read whole within the default cap.
  const fetch = async (url: string, init: RequestInit) => {
    const target = new URL(url);
    const reader = read(url, init, DEFAULT_MAX_BODY_BYTES, `${target.pathname}${target.search}`);
    const { status, body } = await reader.done;
    const { Response } = loadUndici();
    // The same Fetch Response the client reads everywhere; only its type comes from another package.
    return new Response(NULL_BODY.has(status) ? null : body, { status, headers: toHeaders(reader.raw) }) as unknown as globalThis.Response;
  };
  return Object.assign(fetch, { text });
}
