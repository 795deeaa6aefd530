/**
 * How one logical GET is sent: through the Retry-After gate, bounded by the per-request deadline
 * and the caller's cancellation, a 429 waited out within the caller's budget, a 502, 503 or 504
 * retried with backoff a bounded number of times, and a request that was shared with a caller who
 * left sent again. Any other status the caller does not accept becomes an ApiError
 * (status-errors.ts). Knows nothing of what the answer holds.
 * Over 250 lines: the retry loop and the one exchange it repeats share their state (deadline, gate
 * ticket, attempts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULTS } from '../config/defaults.js';
import { silentLogger, type Logger, type LogSink } from '../obs/log.js';
import { USER_AGENT } from '../contract/version.js';
import { RequestEnded, withDeadline } from '../lib/abort.js';
import { DEFAULT_MAX_BODY_BYTES, readAnswerBody } from './body.js';
import { cacheHitOf } from './cache.js';
import {
  ApiError,
  cancelledError,
  describeNetworkCause,
  internalError,
  isTransportFailure,
} from '../contract/errors.js';
import { BudgetExceeded } from './fair-share.js';
import type { ExchangeLog, UpstreamExchange } from '../obs/exchanges.js';
import type { FetchLike, RawResponse } from './fetch-like.js';
import {
  DEFAULT_429_PAUSE_S,
  heldRetryAfter,
  MAX_RETRY_AFTER_S,
  parseRetryAfter,
  RetryAfterGate,
  type GateWaitInfo,
} from './retry-after-gate.js';
import { statusError, upstreamEnvelope } from './status-errors.js';
import { telemetry } from '../obs/telemetry-hooks.js';

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Told when the call starts waiting out a Retry-After, so callers can report progress. */
  onWait?: ((info: GateWaitInfo) => void) | undefined;
  /** Also told every line logged for this call (the MCP layer forwards them to the calling client). */
  logSink?: LogSink | undefined;
  /** On whose share of upstream requests the call goes (HTTP mode's callers; fair-share.ts). */
  caller?: string | undefined;
  /** Where this call's exchanges and waits are written down as they happen. */
  log?: ExchangeLog | undefined;
}

/** The call's onWait, writing each Retry-After wait into its log first (when it keeps one). */
export function onWaitLogged({ log, onWait }: CallOptions): CallOptions['onWait'] {
  if (log === undefined) return onWait;
  return (info) => {
    log.waitsS.push(info.seconds);
    onWait?.(info);
  };
}

/** How one GET is sent, besides the client's defaults. */
export interface GetOptions {
  /** A status (besides 2xx) whose body is an answer, not an error: health's 503. */
  acceptStatus?: (status: number) => boolean;
  /** The request asks for one record (a job, a company's brief): only then is a 404 `not_found`. */
  lookup?: boolean;
  /** Why the base URL could not be confirmed, when a lookup's 404 therefore cannot mean the record is gone. */
  unconfirmedBase?: string;
  gate?: RetryAfterGate;
  /** One quick attempt: no wait for a Retry-After, no retry of a 503, this deadline instead of the client's. */
  quickMs?: number;
  /** The REST operation asked for (the spec's operationId), named in telemetry. */
  operation?: string;
}

export interface RequestPolicyOptions {
  /** The base URL, named in the error for a 404 where no record was asked for. */
  baseUrl: string;
  fetch: FetchLike;
  timeoutMs?: number;
  maxRetryWaitS?: number;
  maxBodyBytes?: number;
  /** 503 handling: retries after the first attempt, and the total time they may take. */
  unavailableRetries?: number;
  unavailableBudgetMs?: number;
  logger?: Logger;
  /** Shared Retry-After gate; one per process unless a test wants its own. */
  gate?: RetryAfterGate;
  random?: () => number;
}

export class RequestPolicy {
  readonly timeoutMs: number;
  readonly gate: RetryAfterGate;
  /** The last 429 the API answered this process: when (epoch ms), and the pause it asked for. */
  lastRateLimit: { at: number; retryAfterS: number } | undefined;
  private readonly baseUrl: string;
  private readonly origin: string;
  private readonly fetchImpl: FetchLike;
  private readonly maxRetryWaitS: number;
  private readonly maxBodyBytes: number;
  private readonly unavailableRetries: number;
  private readonly unavailableBudgetMs: number;
  private readonly logger: Logger;
  private readonly random: () => number;

  constructor(options: RequestPolicyOptions) {
    this.baseUrl = options.baseUrl;
    this.origin = new URL(options.baseUrl).origin;
    this.fetchImpl = options.fetch;
    this.timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.maxRetryWaitS = options.maxRetryWaitS ?? DEFAULTS.maxRetryWaitS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.unavailableRetries = options.unavailableRetries ?? 2;
    this.unavailableBudgetMs = options.unavailableBudgetMs ?? 5_000;
    this.logger = options.logger ?? silentLogger;
    this.gate = options.gate ?? new RetryAfterGate();
    this.random = options.random ?? Math.random;
  }

  /**
   * One logical GET of `path` (the base URL's own path included): waits at the Retry-After gate,
   * sends, retries 429 within the caller's wait budget and 503 a bounded number of times, and
   * turns every other non-2xx into an ApiError.
   */
  async get(path: string, accept: string, options: CallOptions = {}, how: GetOptions = {}): Promise<RawResponse> {
    const { acceptStatus, lookup = false, gate = this.gate, quickMs, unconfirmedBase, operation = 'other' } = how;
    const maxRetryWaitS = quickMs === undefined ? this.maxRetryWaitS : 0;
    const started = Date.now();
    const onWait = onWaitLogged(options);
    let unavailableAttempts = 0;
    for (;;) {
      const waitedS = (Date.now() - started) / 1000;
      const ticket =
        gate.open() ??
        (await gate
          .pass({ maxWaitS: maxRetryWaitS - waitedS, signal: options.signal, onWait })
          .catch((error: unknown) => {
            if (error instanceof ApiError) {
              // The gate's fail-fast refusal knows the seconds but not which call it refused.
              throw new ApiError(error.kind, error.message, {
                status: error.status,
                path,
                retryAfterS: error.retryAfterS,
                cause: error,
              });
            }
            throw this.abortError(path, options.signal, error);
          }));
      let response: RawResponse;
      let retryAfterS: number | undefined;
      try {
        response = await this.attempt(path, accept, options, quickMs ?? this.timeoutMs, operation);
        retryAfterS = heldRetryAfter(response.headers.get('retry-after'));
        // Shut the gate before settling the ticket, so callers waiting on this probe see the new
        // window the moment they wake rather than racing out ahead of it.
        // A 429 without a readable Retry-After still gets a pause: never hammer a limited API.
        if (response.status === 429) {
          gate.block(retryAfterS ?? DEFAULT_429_PAUSE_S);
          this.lastRateLimit = { at: Date.now(), retryAfterS: retryAfterS ?? DEFAULT_429_PAUSE_S };
        }
      } finally {
        ticket.settle();
      }
      const { status } = response;
      if ((status >= 200 && status < 300) || acceptStatus?.(status)) return response;

      if (status === 429) {
        const { upstreamError, upstreamMessage } = upstreamEnvelope(response.body);
        const seconds = retryAfterS ?? DEFAULT_429_PAUSE_S;
        const budgetS = maxRetryWaitS - (Date.now() - started) / 1000;
        this.logger.info(`429 on ${path}: Retry-After ${seconds}s`, { budgetS: Math.floor(budgetS) }, options.logSink);
        if (seconds <= budgetS) continue;
        const asked =
          seconds === MAX_RETRY_AFTER_S &&
          (parseRetryAfter(response.headers.get('retry-after')) ?? 0) > MAX_RETRY_AFTER_S;
        const pause = asked
          ? `a pause longer than ${MAX_RETRY_AFTER_S} s (held to ${MAX_RETRY_AFTER_S} s, the longest this server honours)`
          : `a ${seconds}s pause`;
        throw new ApiError('rate_limited', `rate limited: the API asked for ${pause} before the next request`, {
          status,
          path,
          upstreamError,
          upstreamMessage,
          retryAfterS: seconds,
        });
      }

      if (status === 503 || status === 502 || status === 504) {
        const backoffMs = retryAfterS !== undefined ? retryAfterS * 1000 : this.backoffMs(unavailableAttempts);
        const elapsed = Date.now() - started;
        if (
          quickMs === undefined &&
          unavailableAttempts < this.unavailableRetries &&
          elapsed + backoffMs <= this.unavailableBudgetMs
        ) {
          unavailableAttempts++;
          this.logger.info(
            `${status} on ${path}; retry ${unavailableAttempts} of ${this.unavailableRetries} in ${backoffMs} ms`,
            undefined,
            options.logSink,
          );
          await sleep(backoffMs, undefined, { signal: options.signal }).catch((reason: unknown) => {
            throw this.abortError(path, options.signal, reason);
          });
          continue;
        }
      }

      throw statusError(
        response,
        path,
        unavailableAttempts,
        lookup ? undefined : this.baseUrl,
        undefined,
        unconfirmedBase,
      );
    }
  }

  private backoffMs(attempt: number): number {
    const base = 250 * 2 ** attempt;
    return Math.round(base / 2 + this.random() * (base / 2));
  }

  /**
   * One HTTP exchange, bounded by the per-request timeout and the caller's signal, which end it
   * with a RequestEnded of its own. A request that fails with another call's RequestEnded was
   * shared with that call (identical GETs in flight are sent once) and is sent again.
   */
  private attempt(
    path: string,
    accept: string,
    options: CallOptions,
    timeoutMs: number,
    operation: string,
  ): Promise<RawResponse> {
    return withDeadline(timeoutMs, (deadline) => this.exchange(path, accept, options, timeoutMs, deadline, operation));
  }

  private async exchange(
    path: string,
    accept: string,
    { signal, logSink, caller, log }: CallOptions,
    timeoutMs: number,
    deadline: AbortSignal,
    operation: string,
  ): Promise<RawResponse> {
    const ending = signal ? AbortSignal.any([signal, deadline]) : deadline;
    for (;;) {
      // A call cancelled before its turn sends nothing.
      if (signal?.aborted) throw this.abortError(path, signal, signal.reason);
      this.logger.debug(`GET ${path}`, undefined, logSink);
      const own = new AbortController();
      const end = () => own.abort(new RequestEnded());
      ending.addEventListener('abort', end, { once: true });
      const followed = telemetry().upstream(this.origin + path, operation);
      try {
        const answer = await this.fetchImpl(this.origin + path, {
          method: 'GET',
          headers: { accept, 'user-agent': USER_AGENT },
          signal: own.signal,
          redirect: 'follow',
          caller,
        });
        const body = await readAnswerBody(answer, this.maxBodyBytes, path);
        const cache = cacheHitOf(answer.headers);
        const exchange: UpstreamExchange = { operation, status: answer.status, cacheHit: cache !== undefined };
        log?.upstream.push(exchange);
        followed.ended(exchange);
        return { status: answer.status, body, headers: answer.headers, url: answer.url, cache };
      } catch (error) {
        const shared = error instanceof RequestEnded && !own.signal.aborted && !ending.aborted;
        // Nothing was sent. A refusal of another caller's share reached this call only because the
        // two asked the same thing at once (one request, shared): this caller's own is asked again.
        const refused = error instanceof BudgetExceeded;
        const failure =
          shared || refused
            ? undefined
            : this.exchangeError(path, signal, deadline.aborted ? timeoutMs : undefined, error);
        const exchange: UpstreamExchange = {
          operation,
          cacheHit: false,
          failure: refused ? 'fair_share' : (failure?.kind ?? 'shared_request_ended'),
        };
        log?.upstream.push(exchange);
        followed.ended(exchange);
        if (refused && (error as BudgetExceeded).caller === caller) throw error;
        if (failure) throw failure;
        continue;
      } finally {
        ending.removeEventListener('abort', end);
      }
    }
  }

  /**
   * What a failed exchange is, for the caller: a refusal as it is, else a timeout, a cancellation, a
   * network failure or a defect.
   */
  private exchangeError(
    path: string,
    signal: AbortSignal | undefined,
    timedOutMs: number | undefined,
    error: unknown,
  ): ApiError {
    if (error instanceof ApiError) return error;
    if (timedOutMs !== undefined)
      return new ApiError('timeout', `timeout: GET ${path} took longer than ${timedOutMs} ms`, { path, cause: error });
    if (signal?.aborted) return this.abortError(path, signal, error);
    if (!isTransportFailure(error)) return internalError(`GET ${path}`, error, path);
    return new ApiError('network', `network: GET ${path} failed: ${describeNetworkCause(error)}`, {
      path,
      cause: error,
    });
  }

  abortError(path: string, signal: AbortSignal | undefined, cause: unknown): ApiError {
    if (cause instanceof ApiError) return cause;
    return cancelledError(`GET ${path}`, signal?.reason ?? cause, path);
  }
}
