/**
 * The small interface through which the server, the API client and the Retry-After gate tell
 * telemetry what happens. Until telemetry is started (telemetry/start.ts, only when asked for)
 * every hook is a no-op and nothing of OpenTelemetry is loaded: code without telemetry reads, and
 * costs, as it did before.
 */
import type { McpServer } from '@modelcontextprotocol/server';

/** One request to the API, as telemetry follows it. */
export interface UpstreamRequest {
  /** The API (or the response cache: its marker is in the headers) answered with this status. */
  answered(status: number, headers: Pick<Headers, 'get'>): void;
  /** The exchange failed without an answer; `errorType` is the error kind (timeout, network, …). */
  failed(errorType: string): void;
  /** Never sent: the caller's fair share was spent. */
  refused(): void;
}

export interface TelemetryHooks {
  /** Sees every MCP request a server built by createServer handles. */
  instrumentServer(mcp: McpServer): void;
  /** A GET to the API starts; `url` carries no secret (the API takes none in URLs). */
  upstream(url: string, operation: string): UpstreamRequest;
  /** A caller's fair share was asked for one request (`caller` is a name, never a token). */
  fairShare(caller: string, allowed: boolean): void;
  /** A call starts waiting out a Retry-After of this many seconds. */
  retryAfterWait(seconds: number): void;
  /** The ids of the span current in this async context, for log lines; undefined outside one. */
  traceIds(): { trace_id: string; span_id: string } | undefined;
  /** Exports what is still batched; never rejects. For a process about to exit. */
  flush(): Promise<void>;
}

const NO_UPSTREAM: UpstreamRequest = { answered() {}, failed() {}, refused() {} };

const NO_TELEMETRY: TelemetryHooks = {
  instrumentServer() {},
  upstream: () => NO_UPSTREAM,
  fairShare() {},
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
