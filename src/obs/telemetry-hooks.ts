/**
 * The small interface through which the server, the API client and the Retry-After gate tell
 * telemetry what happens. Until telemetry is started (telemetry/start.ts, only when asked for)
 * every hook is a no-op and nothing of OpenTelemetry is loaded.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { CallRecord, UpstreamExchange } from './call-record.js';

/** One request to the API, as telemetry follows it. */
export interface UpstreamRequest {
  /** The request ended: answered (by the API or the response cache) or failed, as the exchange says. */
  ended(exchange: UpstreamExchange): void;
}

/**
 * The names a server answers to: a label or span name takes one of these, or `_OTHER`. Live sets:
 * a server that follows the bridge adds the tools bridged after it connected.
 */
export interface KnownNames {
  tools: ReadonlySet<string>;
  prompts: ReadonlySet<string>;
}

export interface TelemetryHooks {
  /** Sees every MCP request a server built by createServer handles. */
  instrumentServer(mcp: McpServer, known: KnownNames): void;
  /**
   * A request to the API starts (a GET, or the bridge's POST to the hosted surface); `url` carries
   * no secret (the API takes none in URLs).
   */
  upstream(url: string, operation: string, method?: 'GET' | 'POST'): UpstreamRequest;
  /** A caller's fair share was asked for one request (`caller` is a name, never a token). */
  fairShare(caller: string, allowed: boolean): void;
  /** A tool call ended: its record, complete, before its answer is sent. */
  toolCallEnded(record: CallRecord): void;
  /** A call starts waiting out a Retry-After of this many seconds. */
  retryAfterWait(seconds: number): void;
  /** The ids of the span current in this async context, for log lines; undefined outside one. */
  traceIds(): { trace_id: string; span_id: string } | undefined;
  /** Exports what is still batched; never rejects. For a process about to exit. */
  flush(): Promise<void>;
}

const NO_UPSTREAM: UpstreamRequest = { ended() {} };

const NO_TELEMETRY: TelemetryHooks = {
  instrumentServer() {},
  upstream: () => NO_UPSTREAM,
  fairShare() {},
  toolCallEnded() {},
  retryAfterWait() {},
  traceIds: () => undefined,
  flush: () => Promise.resolve(),
};

let current: TelemetryHooks = NO_TELEMETRY;

/** The hooks in force: no-ops unless telemetry was started. */
export const telemetry = (): TelemetryHooks => current;

export function installTelemetry(hooks: TelemetryHooks): void {
  current = hooks;
}
