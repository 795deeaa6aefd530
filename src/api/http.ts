/**
 * What the client needs from HTTP, and nothing of MCP: the production fetch (undici with one
 * keep-alive, proxy-aware dispatcher), a cancellable sleep, the client-wide Retry-After gate and a
 * body reader that refuses oversized responses without buffering them.
 */
import type { CacheLimits } from './cache.js';
import { ApiError } from './errors.js';

/** A response whose body has been read whole, as text. */
export interface TextResponse {
  status: number;
  /** Only read, and only with get. */
  headers: Pick<Headers, 'get'>;
  body: string;
}

/**
 * The fetch the client calls. Injectable so msw (which patches globalThis.fetch) can stand in.
 * A fetch may also offer `text`: the same GET, answered with its body already read within
 * `maxBytes` (refused as readBodyCapped refuses), which the client prefers when present. The
 * production fetch offers it to read the body as undici delivers it rather than through web
 * streams. A `text` must honour `init.signal` itself, mid-body too: the client does not race it;
 * and it must give up after `timeoutMs` with a RequestTimeout, so the client needs no controller
 * of its own between the caller's signal and the request.
 */
export type FetchLike = ((url: string, init: RequestInit) => Promise<Response>) & {
  text?: ((url: string, init: RequestInit, maxBytes: number, path: string, timeoutMs: number) => Promise<TextResponse>) | undefined;
};

/** A `text` request that ran out of time: the client reports it as a timeout. */
export class RequestTimeout extends Error {
  constructor(ms: number) {
    super(`no complete answer within ${ms} ms`);
    this.name = 'RequestTimeout';
  }
}
/** A FetchLike that offers `text`. */
export type TextFetchLike = FetchLike & { text: NonNullable<FetchLike['text']> };

export interface UndiciFetchOptions {
  timeoutMs: number;
  /** Most sockets kept per origin; calls above it queue in undici instead of opening more. */
  connections?: number;
  /** The in-memory response cache: on by default, `false` turns it off (`--no-cache`). */
  cache?: boolean | CacheLimits;
}

/**
 * Production path: one keep-alive undici agent for the process (an EnvHttpProxyAgent, which
 * honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY, when a proxy variable is set), with the response
 * cache (cache.ts) composed onto it unless turned off, read through undici's dispatch handler
 * interface (undici-fetch.ts). undici is loaded on first use, so offline mode, `--help` and the stdio
 * start-up never pay for loading it.
 */
export function createUndiciFetch(options: UndiciFetchOptions): FetchLike {
  let ready: Promise<TextFetchLike> | undefined;
  let loaded: TextFetchLike | undefined;
  const load = () =>
    (ready ??= import('./undici-fetch.js').then(({ buildUndiciFetch }) => {
      loaded = buildUndiciFetch(options);
      return loaded;
    }));
  const fetch: FetchLike = async (url, init) => (loaded ?? (await load()))(url, init);
  // Once loaded, straight through: every call passes here, and an extra await per call shows.
  fetch.text = (url, init, maxBytes, path, timeoutMs) => (loaded ? loaded.text(url, init, maxBytes, path, timeoutMs) : load().then((ready) => ready.text(url, init, maxBytes, path, timeoutMs)));
  return fetch;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Races a promise against a signal, without cancelling the promise itself. */
export function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Parses Retry-After: integer seconds (the spec's form) or an HTTP-date. Returns whole seconds,
 * at least 1, or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.max(1, Number(text));
  // Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with a day name. Without this
  // check Date.parse reads "-5" or "1.5" as dates in the past, i.e. a 1 s pause.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(1, Math.ceil((date - now) / 1000));
}

export interface GateWaitInfo {
  seconds: number;
  reason: 'rate_limited';
}

export interface GatePassOptions {
  /** Seconds this caller may still spend waiting; beyond it the call fails fast. */
  maxWaitS: number;
  signal?: AbortSignal | undefined;
  onWait?: ((info: GateWaitInfo) => void) | undefined;
}

export interface GateTicket {
  /** Milliseconds spent waiting at the gate. */
  readonly waitedMs: number;
  /** Must be called once the request this ticket let through has its status. */
  settle(): void;
}

/** The ticket of a pass through an open gate: nothing waited, nothing to settle. */
const OPEN_TICKET: GateTicket = Object.freeze({ waitedMs: 0, settle: () => {} });

/**
 * The client-wide Retry-After cool-down. While it lasts, no request of any kind goes upstream.
 * When it ends, one request goes first (the probe); the others wait for its status, so a burst
 * of callers produces one upstream request per window, not one each.
 */
export class RetryAfterGate {
  private until = 0;
  private halfOpen = false;
  private probing: Promise<void> | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds left in the current cool-down (0 when none). */
  remainingS(): number {
    return Math.max(0, Math.ceil((this.until - this.now()) / 1000));
  }

  /** Starts (or extends) a cool-down of `seconds` from now. */
  block(seconds: number): void {
    this.until = Math.max(this.until, this.now() + seconds * 1000);
    this.halfOpen = true;
  }

  /** The ticket when the gate is simply open (no cool-down, no probe), without waiting; else undefined. */
  open(): GateTicket | undefined {
    return this.halfOpen || this.probing || this.until > this.now() ? undefined : OPEN_TICKET;
  }

  async pass(options: GatePassOptions): Promise<GateTicket> {
    const started = this.now();
    for (;;) {
      const waitMs = this.until - this.now();
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000);
        const budgetS = options.maxWaitS - (this.now() - started) / 1000;
        // Compare exactly, not the rounded-up seconds: a caller told "wait 3 s" with a 3 s budget
        // must not be refused because a millisecond passed between the 429 and this check.
        if (waitMs > budgetS * 1000) {
          throw new ApiError('rate_limited', `rate limited: the API asked for a ${seconds}s pause, longer than this call may wait (${Math.max(0, Math.floor(budgetS))}s)`, { status: 429, retryAfterS: seconds });
        }
        options.onWait?.({ seconds, reason: 'rate_limited' });
        await sleep(waitMs, options.signal);
        continue;
      }
      if (this.probing) {
        await raceAbort(this.probing, options.signal);
        continue;
      }
      const waitedMs = this.now() - started;
      if (this.halfOpen) {
        this.halfOpen = false;
        let release!: () => void;
        this.probing = new Promise<void>((resolve) => (release = resolve));
        let settled = false;
        return {
          waitedMs,
          settle: () => {
            if (settled) return;
            settled = true;
            this.probing = undefined;
            release();
          },
        };
      }
      return waitedMs === 0 ? OPEN_TICKET : { waitedMs, settle: () => {} };
    }
  }
}

export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Reads a body as text, refusing it when Content-Length or the bytes read exceed `maxBytes`.
 * The stream is cancelled on refusal, so an oversized body is never held whole. Each read also
 * races `signal`, so a body that stalls mid-stream still ends on timeout or cancellation even when
 * the fetch in use does not tie its body to the request's signal.
 */
export async function readBodyCapped(response: Response, maxBytes: number, path: string, signal?: AbortSignal): Promise<string> {
  const declared = contentLengthOverCap(response.headers, response.status, path, maxBytes);
  if (declared) {
    await response.body?.cancel().catch(() => {});
    throw declared;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let total = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await raceAbort(reader.read(), signal);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw readPastCap(response.status, path, maxBytes);
      text += decoder.decode(value, { stream: true });
    }
  } catch (error) {
    // Not awaited: a source that never settles its cancel must not hold the caller.
    reader.cancel().catch(() => {});
    throw error;
  }
  return text + decoder.decode();
}

/** The refusal of a response whose declared Content-Length is over `maxBytes`, else undefined. */
export function contentLengthOverCap(headers: Pick<Headers, 'get'>, status: number, path: string, maxBytes: number): ApiError | undefined {
  const declared = Number(headers.get('content-length'));
  if (!Number.isFinite(declared) || declared <= maxBytes) return undefined;
  return bodyTooLarge(status, path, maxBytes, `${formatBytes(declared)} (Content-Length)`, 'refused without reading it');
}

/** The refusal of a body whose bytes, as read, passed `maxBytes`. */
export function readPastCap(status: number, path: string, maxBytes: number): ApiError {
  return bodyTooLarge(status, path, maxBytes, `more than ${formatBytes(maxBytes)}`, 'reading stopped at the cap and the body was discarded');
}

/** The refusal of a body over the cap; `size` and `how` say what was seen and what was done. */
export function bodyTooLarge(status: number, path: string, maxBytes: number, size: string, how: string): ApiError {
  return new ApiError('upstream_contract', `upstream_contract: the response to ${path} is ${size}, over the ${formatBytes(maxBytes)} cap; ${how}`, { status, path });
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
