/**
 * How one logical GET is sent: on the send loop (send-loop.ts: the Retry-After gate, the deadline,
 * the caller's cancellation, a 429 waited out within the caller's budget), with a 502, 503 or 504
 * retried with backoff a bounded number of times. Any other status the caller does not accept
 * becomes an ApiError (status-errors.ts). When the API could not answer, the response cache's last
 * answer to the same request may stand in, marked as such. Knows nothing of what the answer holds.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, type ErrorKind } from '../contract/errors.js';
import { NO_ANSWER_KINDS, type NoAnswerKind } from '../contract/provenance.js';
import { USER_AGENT } from '../contract/version.js';
import { readAnswerBody } from './body.js';
import { cacheHitOf } from './cache.js';
import { BudgetExceeded } from './fair-share.js';
import type { FetchLike, RawResponse } from './fetch-like.js';
import { heldRetryAfter, type RetryAfterGate } from './retry-after-gate.js';
import { abortError, SendLoop, type CallOptions, type SendLoopOptions } from './send-loop.js';
import { statusError } from './status-errors.js';

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
  /** A tool's data: the last answer may stand in when the API cannot answer (never for health). */
  lastAnswer?: boolean;
}

/** The API did not answer: a last answer may stand in (not for a caller over its share: nothing was asked). */
const unanswered = (error: unknown): error is ApiError & { kind: NoAnswerKind } =>
  error instanceof ApiError &&
  (NO_ANSWER_KINDS as readonly ErrorKind[]).includes(error.kind) &&
  !(error instanceof BudgetExceeded);

export interface RequestPolicyOptions extends SendLoopOptions {
  /** The base URL, named in the error for a 404 where no record was asked for. */
  baseUrl: string;
  fetch: FetchLike;
  /** 503 handling: retries after the first attempt, and the total time they may take. */
  unavailableRetries?: number;
  unavailableBudgetMs?: number;
  random?: () => number;
}

export class RequestPolicy extends SendLoop {
  private readonly origin: string;

  constructor(private readonly settings: RequestPolicyOptions) {
    // Not on the loop: REST takes each share inside undici (dispatcher.ts), where a cache hit takes none.
    super({ ...settings, budget: undefined });
    this.origin = new URL(settings.baseUrl).origin;
  }

  /** One logical GET of `path` (the base URL's own path included). */
  async get(path: string, accept: string, options: CallOptions = {}, how: GetOptions = {}): Promise<RawResponse> {
    try {
      return await this.ask(path, accept, options, how);
    } catch (error) {
      const kept =
        how.lastAnswer && unanswered(error) ? await this.lastAnswer(path, accept, options, error) : undefined;
      if (kept === undefined) throw error;
      return kept;
    }
  }

  /** What the response cache holds for this GET, standing in for `failure`; never sent, never a rejection. */
  private async lastAnswer(
    path: string,
    accept: string,
    options: CallOptions,
    failure: ApiError & { kind: NoAnswerKind },
  ) {
    try {
      const answer = await this.settings.fetch.lastAnswer?.(this.origin + path, {
        method: 'GET',
        headers: { accept, 'user-agent': USER_AGENT },
        signal: options.signal,
      });
      if (answer === undefined) return undefined;
      const body = await readAnswerBody(answer, this.maxBodyBytes, path);
      const cache = cacheHitOf(answer.headers);
      if (cache === undefined || answer.status < 200 || answer.status >= 300) return undefined;
      this.logger.info(
        `${failure.kind} on ${path}: answered with the last answer, ${cache.ageS} s old`,
        undefined,
        options.logSink,
      );
      const lastAnswer = { kind: failure.kind, message: failure.message };
      return { status: answer.status, body, headers: answer.headers, url: answer.url, cache: { ...cache, lastAnswer } };
    } catch (error) {
      // The cache could not be read (the call cancelled meanwhile): the API's own error stands.
      this.logger.info(`no last answer for ${path}: ${(error as Error).message}`, undefined, options.logSink);
      return undefined;
    }
  }

  private async ask(path: string, accept: string, options: CallOptions, how: GetOptions): Promise<RawResponse> {
    const { acceptStatus, lookup = false, gate, quickMs, unconfirmedBase, operation = 'other' } = how;
    const { unavailableRetries = 2, unavailableBudgetMs = 5_000 } = this.settings;
    const maxRetryWaitS = quickMs === undefined ? this.maxRetryWaitS : 0;
    const url = this.origin + path;
    const started = Date.now();
    let unavailableAttempts = 0;
    for (;;) {
      const response = await this.send({
        method: 'GET',
        url,
        path,
        operation,
        call: options,
        gate,
        // One budget for the whole GET: the 503 retries' backoff is taken from it too.
        maxWaitS: maxRetryWaitS - (Date.now() - started) / 1000,
        timeoutMs: quickMs,
        send: (signal) =>
          this.settings.fetch(url, {
            method: 'GET',
            headers: { accept, 'user-agent': USER_AGENT },
            signal,
            redirect: 'follow',
            caller: options.caller,
          }),
      });
      const { status } = response;
      if ((status >= 200 && status < 300) || acceptStatus?.(status)) return response;

      if (status === 503 || status === 502 || status === 504) {
        const retryAfterS = heldRetryAfter(response.headers.get('retry-after'));
        const backoffMs = retryAfterS !== undefined ? retryAfterS * 1000 : this.backoffMs(unavailableAttempts);
        const elapsed = Date.now() - started;
        if (
          quickMs === undefined &&
          unavailableAttempts < unavailableRetries &&
          elapsed + backoffMs <= unavailableBudgetMs
        ) {
          unavailableAttempts++;
          this.logger.info(
            `${status} on ${path}; retry ${unavailableAttempts} of ${unavailableRetries} in ${backoffMs} ms`,
            undefined,
            options.logSink,
          );
          await sleep(backoffMs, undefined, { signal: options.signal }).catch((reason: unknown) => {
            throw abortError(`GET ${path}`, path, options.signal, reason);
          });
          continue;
        }
      }

      throw statusError(
        response,
        path,
        unavailableAttempts,
        lookup ? undefined : this.settings.baseUrl,
        undefined,
        unconfirmedBase,
      );
    }
  }

  private backoffMs(attempt: number): number {
    const base = 250 * 2 ** attempt;
    return Math.round(base / 2 + (this.settings.random ?? Math.random)() * (base / 2));
  }
}
