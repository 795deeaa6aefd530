/**
 * One record per tool call, filled in as the call runs (tools/run.ts; the API client: each upstream
 * request and Retry-After wait) and read by the log line and telemetry's span and metrics: what a
 * call learned travels as these fields, never as text read back out of its result.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ErrorKind } from '../contract/errors.js';
import type { ExchangeLog } from './exchanges.js';

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
