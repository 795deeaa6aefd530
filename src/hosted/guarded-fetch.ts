/**
 * The fetch the bridge's SDK transport sends through: the REST client's send loop (send-loop.ts),
 * so one deployment has one rate limit, and a bridged call has the deadline, cancellation,
 * progress and fair share ours have (the bridge's own list reads take no share). The bridge's own:
 * the answer read under the hosted cap and checked to be JSON before the SDK parses it, a 502, 503
 * or 504 failed at once where the REST client retries, every other status handed to the SDK. A
 * failure is an ApiError, which the SDK passes up as its error's cause (outcome.ts reads it).
 *
 * The call's signal, progress and caller reach this fetch through AsyncLocalStorage: the SDK's
 * transport is shared by every call, and its fetch seam carries no per-call context.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
// The server package's guard, not the client's: this file loads at start, the SDK client only once the bridge reads.
import { isJSONRPCRequest } from '@modelcontextprotocol/server';
import { ApiError } from '../contract/errors.js';
import type { UpstreamBudget } from '../api/fair-share.js';
import { SendLoop, type CallOptions } from '../api/send-loop.js';
import { HOSTED_OPERATION } from '../obs/call-record.js';
import type { RetryAfterGate } from '../api/retry-after-gate.js';
import { upstreamEnvelope } from '../api/status-errors.js';
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
  const maxBodyBytes = HOSTED_CAPS.answerBytes;
  const loop = new SendLoop({ gate, budget, timeoutMs, maxRetryWaitS, maxBodyBytes, upstream: 'the hosted surface' });
  return async (url, init) => {
    const call = isRequestBody(init.body) ? (calls.getStore() ?? {}) : {};
    // The SDK's own abort of a request (its timeout, say) ends it as the caller's cancellation does.
    const signals = [call.signal, init.signal].filter((signal) => signal != null);
    const path = options.label();
    const headers = new Headers(init.headers);
    headers.set(BRIDGE_HEADER, '1');
    headers.set('user-agent', USER_AGENT);
    const answer = await loop.send({
      method: 'POST',
      url,
      path,
      operation: HOSTED_OPERATION,
      call: { ...call, signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0] },
      send: (signal) => options.fetch(url, { ...init, headers, signal }),
    });
    const { status, body } = answer;
    if (status === 502 || status === 503 || status === 504)
      throw new ApiError('upstream_unavailable', `HTTP ${status} from POST ${path}`, {
        status,
        path,
        ...upstreamEnvelope(body),
      });
    if (status >= 200 && status < 300 && !parsesAsJson(body, answer.headers.get('content-type') ?? ''))
      throw new ApiError('upstream_contract', `POST ${path} answered ${status} with a body that is not valid JSON`, {
        status,
        path,
      });
    // Anything else (202 for a notification, 405 for the SDK's optional GET stream, an error
    // status) is the SDK's to read, as the protocol says.
    return new Response(status === 204 || status === 304 ? null : body, { status, headers: answer.headers });
  };
}
