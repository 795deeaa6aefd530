/**
 * The one send loop, for the REST client's GETs (request-policy.ts) and the bridge's POSTs
 * (hosted/guarded-fetch.ts): a request waits at the Retry-After gate, is bounded by the deadline
 * and its caller's cancellation, goes on the caller's fair share, and a 429 shuts the gate and is
 * waited out within the caller's budget. Each exchange is written into the call's log and told to
 * telemetry as it ends; every failure is one ApiError by kind. Other statuses are the sender's.
 */
import { DEFAULTS } from '../config/defaults.js';
import { silentLogger, type Logger, type LogSink } from '../obs/log.js';
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
import { BudgetExceeded, takeShare, type UpstreamBudget } from './fair-share.js';
import type { ExchangeLog, UpstreamExchange } from '../obs/call-record.js';
import type { HttpAnswer, RawResponse } from './fetch-like.js';
import {
  DEFAULT_429_PAUSE_S,
  heldRetryAfter,
  MAX_RETRY_AFTER_S,
  parseRetryAfter,
  RetryAfterGate,
  type GateWaitInfo,
} from './retry-after-gate.js';
import { upstreamEnvelope } from './status-errors.js';
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

export interface SendLoopOptions {
  timeoutMs?: number;
  maxRetryWaitS?: number;
  maxBodyBytes?: number;
  logger?: Logger;
  /** Shared Retry-After gate; one per process unless a test wants its own. */
  gate?: RetryAfterGate;
  /** Each caller's share, taken here before each send: for a sender with no cache in front of it. */
  budget?: UpstreamBudget | undefined;
  /** Who answers, as a 429's error names it. */
  upstream?: string;
}

/** One logical request, as its sender describes it. */
interface Sending<A extends HttpAnswer> {
  method: 'GET' | 'POST';
  /** The whole URL, told to telemetry; its path and query, named in errors. */
  url: string;
  path: string;
  /** The REST operation (the spec's operationId) or HOSTED_OPERATION, for the log and telemetry. */
  operation: string;
  call: CallOptions;
  /** Sends the request once; it must end the request, body included, when `signal` aborts. */
  send: (signal: AbortSignal) => Promise<A>;
  gate?: RetryAfterGate | undefined;
  /** Seconds this request may spend waiting out Retry-After, and its deadline, when not the loop's. */
  maxWaitS?: number | undefined;
  timeoutMs?: number | undefined;
}

/** An answer read whole, with the headers its sender's fetch gave. */
type Answer<A extends HttpAnswer> = Omit<RawResponse, 'headers'> & { headers: A['headers'] };

export class SendLoop {
  readonly timeoutMs: number;
  readonly gate: RetryAfterGate;
  /** The last 429 answered through this loop: when (epoch ms), and the pause it asked for. */
  lastRateLimit: { at: number; retryAfterS: number } | undefined;
  protected readonly maxRetryWaitS: number;
  protected readonly logger: Logger;
  protected readonly maxBodyBytes: number;
  private readonly budget: UpstreamBudget | undefined;
  private readonly upstream: string;

  constructor(options: SendLoopOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.maxRetryWaitS = options.maxRetryWaitS ?? DEFAULTS.maxRetryWaitS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.logger = options.logger ?? silentLogger;
    this.gate = options.gate ?? new RetryAfterGate();
    this.budget = options.budget;
    this.upstream = options.upstream ?? 'the API';
  }

  /** Sends one logical request until its answer is not a 429 (or `maxWaitS` runs out: `rate_limited`). */
  async send<A extends HttpAnswer>(sending: Sending<A>): Promise<Answer<A>> {
    const { path, call, gate = this.gate, maxWaitS = this.maxRetryWaitS, timeoutMs = this.timeoutMs } = sending;
    const what = `${sending.method} ${path}`;
    const started = Date.now();
    const leftS = () => maxWaitS - (Date.now() - started) / 1000;
    // Each Retry-After wait is written into the call's log before the caller hears of it.
    const onWait = (info: GateWaitInfo) => {
      call.log?.waitsS.push(info.seconds);
      call.onWait?.(info);
    };
    for (;;) {
      const ticket =
        gate.open() ??
        (await gate.pass({ maxWaitS: leftS(), signal: call.signal, onWait }).catch((error: unknown) => {
          if (!(error instanceof ApiError)) throw abortError(what, path, call.signal, error);
          // The gate's fail-fast refusal knows the seconds but not which request it refused.
          const { kind, message, status, retryAfterS } = error;
          throw new ApiError(kind, message, { status, path, retryAfterS, cause: error });
        }));
      let answer: Answer<A>;
      let pauseS: number | undefined;
      try {
        answer = await withDeadline(timeoutMs, (deadline) => this.exchange(sending, what, timeoutMs, deadline));
        // Shut the gate before settling the ticket, so callers waiting on this probe see the new
        // window the moment they wake rather than racing out ahead of it.
        // A 429 without a readable Retry-After still gets a pause: never hammer a limited API.
        if (answer.status === 429) {
          pauseS = heldRetryAfter(answer.headers.get('retry-after')) ?? DEFAULT_429_PAUSE_S;
          gate.block(pauseS);
          this.lastRateLimit = { at: Date.now(), retryAfterS: pauseS };
        }
      } finally {
        ticket.settle();
      }
      if (pauseS === undefined) return answer;
      const budgetS = leftS();
      this.logger.info(`429 on ${path}: Retry-After ${pauseS}s`, { budgetS: Math.floor(budgetS) }, call.logSink);
      if (pauseS <= budgetS) continue;
      throw this.rateLimited(answer, path, pauseS);
    }
  }

  private rateLimited(answer: Answer<HttpAnswer>, path: string, seconds: number): ApiError {
    const asked =
      seconds === MAX_RETRY_AFTER_S && (parseRetryAfter(answer.headers.get('retry-after')) ?? 0) > MAX_RETRY_AFTER_S;
    const pause = asked
      ? `a pause longer than ${MAX_RETRY_AFTER_S} s (held to ${MAX_RETRY_AFTER_S} s, the longest this server honours)`
      : `a ${seconds}s pause`;
    return new ApiError('rate_limited', `rate limited: ${this.upstream} asked for ${pause} before the next request`, {
      status: 429,
      path,
      ...upstreamEnvelope(answer.body),
      retryAfterS: seconds,
    });
  }

  /**
   * One HTTP exchange, ended by the deadline or the caller's signal with a RequestEnded of its own.
   * One that fails with another call's RequestEnded, or another caller's fair-share refusal, was
   * shared with that call (identical GETs in flight are sent once) and is sent again.
   */
  private async exchange<A extends HttpAnswer>(
    { url, path, operation, method, call, send }: Sending<A>,
    what: string,
    timeoutMs: number,
    deadline: AbortSignal,
  ): Promise<Answer<A>> {
    const { signal, logSink, caller, log } = call;
    const ending = signal ? AbortSignal.any([signal, deadline]) : deadline;
    for (;;) {
      // A call cancelled before its turn sends nothing.
      if (signal?.aborted) throw abortError(what, path, signal, signal.reason);
      this.logger.debug(what, undefined, logSink);
      const own = new AbortController();
      const end = () => own.abort(new RequestEnded());
      ending.addEventListener('abort', end, { once: true });
      const followed = telemetry().upstream(url, operation, method);
      try {
        const refusal = this.budget && caller !== undefined ? await takeShare(this.budget, caller, path) : undefined;
        if (refusal) throw refusal;
        const answer = await send(own.signal);
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
            : exchangeError(what, path, signal, deadline.aborted ? timeoutMs : undefined, error);
        const exchange: UpstreamExchange = {
          operation,
          cacheHit: false,
          failure: refused ? 'fair_share' : (failure?.kind ?? 'shared_request_ended'),
        };
        log?.upstream.push(exchange);
        followed.ended(exchange);
        if (refused && error.caller === caller) throw error;
        if (failure) throw failure;
      } finally {
        ending.removeEventListener('abort', end);
      }
    }
  }
}

function exchangeError(
  what: string,
  path: string,
  signal: AbortSignal | undefined,
  timedOutMs: number | undefined,
  error: unknown,
): ApiError {
  if (error instanceof ApiError) return error;
  if (timedOutMs !== undefined)
    return new ApiError('timeout', `timeout: ${what} took longer than ${timedOutMs} ms`, { path, cause: error });
  if (signal?.aborted) return abortError(what, path, signal, error);
  if (!isTransportFailure(error)) return internalError(what, error, path);
  return new ApiError('network', `network: ${what} failed: ${describeNetworkCause(error)}`, { path, cause: error });
}

/** `what` (`GET <path>`) ended by its caller's signal; a refusal that came first is kept as it is. */
export function abortError(what: string, path: string, signal: AbortSignal | undefined, cause: unknown): ApiError {
  if (cause instanceof ApiError) return cause;
  return cancelledError(what, signal?.reason ?? cause, path);
}
