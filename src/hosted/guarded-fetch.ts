/**
 * The fetch the bridge's SDK transport sends through: the same Retry-After gate as the REST client
 * (so one deployment has one rate limit, shared through Redis with --redis-url), the per-request
 * deadline, the calling tool's cancellation, the caller's fair share (taken as budget-interceptor.ts
 * takes it for REST: one for each request a call sends; the bridge's own list reads take none),
 * progress while a Retry-After is waited out, and the answer read whole under a size cap and
 * checked to be JSON before the SDK parses it. A failure is thrown as an ApiError, which the SDK
 * passes up as the cause of its own error (outcome.ts reads it).
 *
 * The call's signal, progress and caller reach this fetch through AsyncLocalStorage: the SDK's
 * transport is shared by every call, and its fetch seam carries no per-call context.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
// The server package's guard, not the client's: this file loads at start, the SDK client only once the bridge reads.
import { isJSONRPCRequest } from '@modelcontextprotocol/server';
import { RequestEnded, withDeadline } from '../lib/abort.js';
import { readAnswerBody } from '../api/body.js';
import { ApiError, cancelledError, describeNetworkCause, isTransportFailure } from '../contract/errors.js';
import { takeShare, type UpstreamBudget } from '../api/fair-share.js';
import { onWaitLogged, type CallOptions } from '../api/request-policy.js';
import { HOSTED_OPERATION, type ExchangeLog, type UpstreamExchange } from '../obs/exchanges.js';
import { DEFAULT_429_PAUSE_S, heldRetryAfter, type RetryAfterGate } from '../api/retry-after-gate.js';
import { upstreamEnvelope } from '../api/status-errors.js';
import { telemetry } from '../obs/telemetry-hooks.js';
import { USER_AGENT } from '../contract/version.js';
import { HOSTED_CAPS } from './caps.js';

/** Sent with every bridge request: a server of ours that sees it serves no bridged tools (no loops). */
export const BRIDGE_HEADER = 'service-mcp-bridge';

export type WebFetch = (url: string, init: RequestInit) => Promise<Response>;

export interface GuardedFetchOptions {
  fetch: WebFetch;
  gate: RetryAfterGate;
  /** Each caller's share of upstream requests (--per-client-rate); a call that names no caller passes. */
  budget?: UpstreamBudget | undefined;
  timeoutMs: number;
  maxRetryWaitS: number;
  /** The endpoint's path and query, named in errors (never its origin's credentials: there are none). */
  label: () => string;
}

const calls = new AsyncLocalStorage<CallOptions>();

/** Runs `work` with the calling tool's signal and progress hook visible to the transport's fetch. */
export function withCallOptions<T>(options: CallOptions, work: () => Promise<T>): Promise<T> {
  return calls.run(options, work);
}

/** Whether a body is a JSON-RPC request (it has an id): notifications are never held to a call's signal. */
function isRequestBody(body: RequestInit['body']): boolean {
  if (typeof body !== 'string') return false;
  try {
    return isJSONRPCRequest(JSON.parse(body));
  } catch {
    return false; // a body that is not JSON is no request
  }
}

/** Every JSON text in an answer (the body, or each SSE `data:` field) parses. */
function parsesAsJson(text: string, type: string): boolean {
  if (text.trim() === '') return true;
  try {
    if (!type.includes('text/event-stream')) JSON.parse(text);
    else
      for (const event of text.split(/\r?\n\r?\n/)) {
        const data = event
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (data !== '') JSON.parse(data);
      }
    return true;
  } catch {
    return false;
  }
}

export function guardedFetch(options: GuardedFetchOptions): WebFetch {
  const { gate, budget, timeoutMs, maxRetryWaitS } = options;
  return async (url, init) => {
    const call = isRequestBody(init.body) ? (calls.getStore() ?? {}) : {};
    const what = `POST ${options.label()}`;
    const started = Date.now();
    // The call's record (tools/call-record.ts) gets each exchange and wait, as the REST client writes them.
    const { log } = call;
    const onWait = onWaitLogged(call);
    for (;;) {
      const budgetS = maxRetryWaitS - (Date.now() - started) / 1000;
      const ticket =
        gate.open() ??
        (await gate.pass({ maxWaitS: budgetS, signal: call.signal, onWait }).catch((error: unknown) => {
          if (error instanceof ApiError) throw error;
          throw cancelledError(what, call.signal?.reason ?? error);
        }));
      let answer: { status: number; headers: Headers; text: string };
      // A 429's pause, asked for or the default: the gate is shut for it before the ticket settles.
      let pauseS = DEFAULT_429_PAUSE_S;
      try {
        if (budget && call.caller !== undefined) await spend(budget, call.caller, log);
        const followed = telemetry().upstream(url, HOSTED_OPERATION, 'POST');
        const ended = (exchange: UpstreamExchange) => {
          log?.upstream.push(exchange);
          followed.ended(exchange);
        };
        answer = await withDeadline(timeoutMs, (deadline) => send(url, init, call.signal, deadline, what)).catch(
          (error: unknown) => {
            ended({
              operation: HOSTED_OPERATION,
              cacheHit: false,
              failure: error instanceof ApiError ? error.kind : 'internal',
            });
            throw error;
          },
        );
        ended({ operation: HOSTED_OPERATION, status: answer.status, cacheHit: false });
        if (answer.status === 429) {
          pauseS = heldRetryAfter(answer.headers.get('retry-after')) ?? DEFAULT_429_PAUSE_S;
          gate.block(pauseS);
        }
      } finally {
        ticket.settle();
      }
      const { status, headers, text } = answer;
      if (status === 429) {
        if (pauseS <= maxRetryWaitS - (Date.now() - started) / 1000) continue;
        throw new ApiError('rate_limited', `rate limited: the hosted surface asked for a ${pauseS}s pause`, {
          status,
          path: options.label(),
          retryAfterS: pauseS,
          ...upstreamEnvelope(text),
        });
      }
      if (status === 502 || status === 503 || status === 504)
        throw new ApiError('upstream_unavailable', `HTTP ${status} from ${what}`, {
          status,
          path: options.label(),
          ...upstreamEnvelope(text),
        });
      const type = headers.get('content-type') ?? '';
      if (status >= 200 && status < 300 && !parsesAsJson(text, type))
        throw new ApiError('upstream_contract', `${what} answered ${status} with a body that is not valid JSON`, {
          status,
          path: options.label(),
        });
      // Anything else (202 for a notification, 405 for the SDK's optional GET stream, an error
      // status) is the SDK's to read, as the protocol says.
      return new Response(status === 204 || status === 304 ? null : text, { status, headers });
    }
  };

  /** Takes one request from `caller`'s share, or refuses the call with nothing sent. */
  async function spend(share: UpstreamBudget, caller: string, log: ExchangeLog | undefined): Promise<void> {
    const refusal = await takeShare(share, caller, options.label());
    if (!refusal) return;
    log?.upstream.push({ operation: HOSTED_OPERATION, cacheHit: false, failure: 'fair_share' });
    throw refusal;
  }

  async function send(
    url: string,
    init: RequestInit,
    signal: AbortSignal | undefined,
    deadline: AbortSignal,
    what: string,
  ): Promise<{ status: number; headers: Headers; text: string }> {
    const own = new AbortController();
    const ending = AbortSignal.any([deadline, ...(signal ? [signal] : []), ...(init.signal ? [init.signal] : [])]);
    const end = () => own.abort(new RequestEnded());
    if (ending.aborted) end();
    ending.addEventListener('abort', end, { once: true });
    const headers = new Headers(init.headers);
    headers.set(BRIDGE_HEADER, '1');
    headers.set('user-agent', USER_AGENT);
    try {
      const response = await options.fetch(url, { ...init, headers, signal: own.signal });
      const text = await readAnswerBody(response, HOSTED_CAPS.answerBytes, options.label());
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (deadline.aborted)
        throw new ApiError('timeout', `timeout: ${what} took longer than ${timeoutMs} ms`, { cause: error });
      if (signal?.aborted || init.signal?.aborted) throw cancelledError(what, (signal ?? init.signal!).reason ?? error);
      if (isTransportFailure(error))
        throw new ApiError('network', `network: ${what} failed: ${describeNetworkCause(error)}`, { cause: error });
      throw error;
    } finally {
      ending.removeEventListener('abort', end);
    }
  }
}
