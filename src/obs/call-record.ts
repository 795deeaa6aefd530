/**
 * One record per tool call, filled in as the call runs (tools/run.ts; api/send-loop.ts: each
 * upstream request as it ends, and each Retry-After wait) and read by the log line and telemetry's
 * span and metrics: what a call learned travels as these fields, never as text or headers read back.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
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

export interface CallRecord extends ExchangeLog {
  tool: string;
  /** Whether the arguments passed the tool's input schema; undefined until they were checked. */
  arguments: 'valid' | 'invalid' | undefined;
  /** Why the call failed: its stable kind and the one-line message its result states. */
  error: { kind: ErrorKind; message: string } | undefined;
  result: CallToolResult | undefined;
}

export const newCallRecord = (tool: string): CallRecord => ({
  tool,
  arguments: undefined,
  upstream: [],
  waitsS: [],
  error: undefined,
  result: undefined,
});
