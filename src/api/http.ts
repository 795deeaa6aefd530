/**
 * What the client needs from HTTP, and nothing of MCP: the seam it sends requests through
 * (FetchLike: undici in production, dispatcher.ts; the in-process offline API; msw in tests), a
 * cancellable sleep and the client-wide Retry-After gate.
 */
import { ApiError } from './errors.js';

/** What the client reads of an answer. A Fetch Response is one; so is the production fetch's. */
export interface HttpAnswer {
  status: number;
  /** Where the answer came from, after any redirects ('' when unknown). */
  url: string;
  headers: Pick<Headers, 'get'>;
  /** Stopping an iteration early must cancel the body (a Fetch body and a Node Readable both do). */
  body: AsyncIterable<Uint8Array> | null;
}

/**
 * The fetch the client calls, with a GET. Injectable, so msw (which patches globalThis.fetch) and
 * the offline API can stand in; each must end the request, body included, when `init.signal` aborts.
 */
export type FetchLike = (url: string, init: RequestInit) => Promise<HttpAnswer>;

/**
 * The reason the client aborts a request of its own with (its caller's cancellation or its
 * deadline). A request that fails with one the client did not send was shared with another call
 * and ended by it: undici's deduplicate interceptor aborts a shared request when the call that
 * started it leaves, not only once every call has left (the upstream change that would retire this).
 */
export class RequestEnded extends Error {
  constructor() {
    super('the request was ended by its caller');
    this.name = 'RequestEnded';
  }
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

/**
 * Runs `work` with a signal that aborts after `ms` (with a TimeoutError, as AbortSignal.timeout's
 * does), and drops its timer the moment the work settles. Not AbortSignal.timeout: Node 22's
 * AbortSignal.any keeps a timeout signal it is given, and the composite made with it, in a strong
 * set until the timer fires, so every request's signals, listeners and timer (about 1.2 KB)
 * outlived it by the whole timeout: 20 MB held at a thousand calls a second with the default 15 s.
 * (nodejs/node#57867 added that set, so a timeout inside a composite cannot be collected before it
 * fires.) Upstream, releasing a timeout source once its composite is unreachable, or cleared with
 * its timer, would let this go back to AbortSignal.timeout.
 */
export async function withDeadline<T>(ms: number, work: (deadline: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  // Unref'd, as AbortSignal.timeout's is: a deadline alone never keeps the process alive.
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms).unref();
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Races a promise against a signal, without cancelling the promise itself. The race owns the
 * promise whichever side wins: its rejection always lands in the race (settled already, so
 * ignored), never unhandled. Returning early on a signal that had already aborted left undici's
 * `request()` promise, which rejects with that very reason, without a listener: the process died
 * of an unhandled rejection when a call was cancelled just before its request was dispatched.
 */
export function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
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
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The longest Retry-After honoured: an hour. A longer one (a misconfigured proxy, a hostile
 * answer, an HTTP-date in year 9999) is held to it, and the error says the API asked for longer.
 */
export const MAX_RETRY_AFTER_S = 3_600;

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

  /** No cool-down and no probe pending in this process (what another replica knows is not asked). */
  idle(): boolean {
    return !this.halfOpen && !this.probing && this.until <= this.now();
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
