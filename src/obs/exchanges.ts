/**
 * What one call's requests to the API came to, written down by api/send-loop.ts as each one ends:
 * the caller's record of them (a tool call's, call-record.ts) and telemetry read these fields
 * instead of re-reading headers or error text.
 */
import type { ErrorKind } from '../contract/errors.js';

export interface UpstreamExchange {
  /** The REST operation (the spec's operationId), HOSTED_OPERATION for the bridge's requests, or 'other'. */
  operation: string;
  /** The status answered; absent when the exchange failed without an answer. */
  status?: number;
  /** Answered by the response cache, not the API. */
  cacheHit: boolean;
  /**
   * Why it ended without an answer: an error kind; a request shared with a caller who left (sent
   * again); or the caller's fair share spent (nothing sent).
   */
  failure?: ErrorKind | 'shared_request_ended' | 'fair_share';
}

/** The operation of every request the bridge sends the hosted surface (one name: a bounded label). */
export const HOSTED_OPERATION = 'hosted_mcp';

/** Where a caller collects its exchanges and Retry-After waits (in seconds), in order. */
export interface ExchangeLog {
  upstream: UpstreamExchange[];
  waitsS: number[];
}
