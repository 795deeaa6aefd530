/**
 * The client-wide Retry-After cool-down: while it lasts no request of any kind goes upstream, and
 * when it ends one request probes while the others wait for its status, so a burst of callers sends
 * one upstream request per window, not one each. Also how a Retry-After value is read.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { raceAbort } from '../lib/abort.js';
import { ApiError } from '../contract/errors.js';
import { telemetry } from '../obs/telemetry-hooks.js';

/**
 * The longest Retry-After honoured: an hour. A longer one (a misconfigured proxy, a hostile
 * answer, an HTTP-date in year 9999) is held to it, and the error says the API asked for longer.
 */
export const MAX_RETRY_AFTER_S = 3_600;

/** The pause after a 429 that names no (readable) Retry-After: never hammer a limited API. */
export const DEFAULT_429_PAUSE_S = 5;

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
}

export interface GatePassOptions {
  /** Seconds this caller may still spend waiting; beyond it the call fails fast. */
  maxWaitS: number;
  signal?: AbortSignal | undefined;
  onWait?: ((info: GateWaitInfo) => void) | undefined;
}

export interface GateTicket {
  readonly waitedMs: number;
  /** Must be called once the request this ticket let through has its status. */
  settle(): void;
}

/** Retry-After as seconds, held to MAX_RETRY_AFTER_S: one answer must not lock the process for years. */
export function heldRetryAfter(value: string | null): number | undefined {
  const seconds = parseRetryAfter(value);
  return seconds === undefined ? undefined : Math.min(seconds, MAX_RETRY_AFTER_S);
}

/** The ticket of a pass through an open gate: nothing waited, nothing to settle. */
const OPEN_TICKET: GateTicket = Object.freeze({ waitedMs: 0, settle: () => {} });

export class RetryAfterGate {
  private until = 0;
  private halfOpen = false;
  private probing: Promise<void> | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** When the current cool-down ends (epoch ms), or undefined when none is running. */
  coolDownUntil(): number | undefined {
    return this.until > this.now() ? this.until : undefined;
  }

  /** With --redis-url: whether the shared cool-down's Redis answers right now; undefined without one. */
  sharedConnected(): boolean | undefined {
    return undefined;
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
          throw new ApiError(
            'rate_limited',
            `rate limited: the API asked for a ${seconds}s pause, longer than this call may wait (${Math.max(0, Math.floor(budgetS))}s)`,
            { status: 429, retryAfterS: seconds },
          );
        }
        options.onWait?.({ seconds });
        telemetry().retryAfterWait(seconds);
        await sleep(waitMs, undefined, { signal: options.signal });
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
