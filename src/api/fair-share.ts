/**
 * Each caller's fair share of the requests sent to the API: a token bucket per caller (so many a
 * minute, with a burst), taken from only when a request is about to leave the process (a cache hit
 * takes nothing: dispatcher.ts). A caller is an opaque name (HTTP mode: the token's name or subject,
 * or the client's address). With --redis-url the buckets live in Redis (redis/fair-share.ts).
 */
import { ApiError } from '../contract/errors.js';
import { telemetry } from '../obs/telemetry-hooks.js';

export interface Rate {
  /** Requests a minute, refilled continuously. */
  perMinute: number;
  /** Requests that may go at once, from a full bucket. */
  burst: number;
}

export interface BudgetAnswer {
  allowed: boolean;
  /** Whole requests left after this one. */
  left: number;
  /** When refused: whole seconds until the next request is allowed. */
  retryAfterS: number;
}

/** What the health tool may say of one caller's share: never a token, only counts. */
export interface ShareState {
  rate: Rate;
  left: number;
  /** Requests sent upstream and refused for this caller by this process since it started. */
  sent: number;
  refused: number;
  /** Whether the shares are kept in Redis for every replica right now. */
  shared: boolean;
  /** Callers this process holds a bucket for. */
  callers: number;
}

export interface UpstreamBudget {
  readonly rate: Rate;
  /** Takes one request from `caller`'s share; never rejects (a share that cannot be read allows). */
  take(caller: string): Promise<BudgetAnswer>;
  state(caller: string): Promise<ShareState>;
}

/** A request refused before it was sent: the caller has spent its share. Carries the caller, so a request shared by two callers can tell whose it was. */
export class BudgetExceeded extends ApiError {
  readonly caller: string;

  constructor(caller: string, rate: Rate, retryAfterS: number, path: string) {
    super(
      'rate_limited',
      `rate limited: your share of this server's requests to the API is spent (${rate.perMinute} a minute, bursts of ${rate.burst}, for each caller); nothing was sent`,
      {
        path,
        retryAfterS,
        hint: `Wait ${retryAfterS} s before calling again; answers already cached are still served, and other callers are not affected.`,
      },
    );
    this.caller = caller;
  }
}

/**
 * Takes one request from `caller`'s share, as every sender does (the REST interceptor and the
 * bridge's fetch), and counts it for telemetry; the refusal to throw when the share is spent.
 */
export async function takeShare(
  budget: UpstreamBudget,
  caller: string,
  path: string,
): Promise<BudgetExceeded | undefined> {
  const answer = await budget.take(caller);
  telemetry().fairShare(caller, answer.allowed);
  return answer.allowed ? undefined : new BudgetExceeded(caller, budget.rate, answer.retryAfterS, path);
}

/** Buckets kept by one process: at most this many callers, the least recently seen forgotten first (a forgotten caller starts full). */
const MAX_CALLERS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
  sent: number;
  refused: number;
}

export class LocalBudget implements UpstreamBudget {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly rate: Rate,
    private readonly now: () => number = Date.now,
  ) {}

  /** The bucket of `caller`, refilled to now and moved to the back of the forgetting order. */
  protected bucket(caller: string): Bucket {
    const now = this.now();
    const found = this.buckets.get(caller);
    const bucket = found ?? { tokens: this.rate.burst, at: now, sent: 0, refused: 0 };
    bucket.tokens = Math.min(
      this.rate.burst,
      bucket.tokens + (Math.max(0, now - bucket.at) * this.rate.perMinute) / 60_000,
    );
    bucket.at = now;
    this.buckets.delete(caller);
    this.buckets.set(caller, bucket);
    if (!found && this.buckets.size > MAX_CALLERS) this.buckets.delete(this.buckets.keys().next().value!);
    return bucket;
  }

  /** Counts a shared answer (Redis's) in this process's own tally. */
  protected tally(caller: string, allowed: boolean): void {
    const bucket = this.bucket(caller);
    if (allowed) bucket.sent++;
    else bucket.refused++;
  }

  take(caller: string): Promise<BudgetAnswer> {
    const bucket = this.bucket(caller);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      bucket.sent++;
      return Promise.resolve({ allowed: true, left: Math.floor(bucket.tokens), retryAfterS: 0 });
    }
    bucket.refused++;
    const waitMs = ((1 - bucket.tokens) * 60_000) / this.rate.perMinute;
    return Promise.resolve({ allowed: false, left: 0, retryAfterS: Math.max(1, Math.ceil(waitMs / 1000)) });
  }

  state(caller: string): Promise<ShareState> {
    const bucket = this.bucket(caller);
    return Promise.resolve({
      rate: this.rate,
      left: Math.floor(bucket.tokens),
      sent: bucket.sent,
      refused: bucket.refused,
      shared: false,
      callers: this.buckets.size,
    });
  }
}
