/**
 * Logging goes to stderr only (stdout is the JSON-RPC channel in stdio mode). Sinks can be added,
 * so the MCP layer can forward the same lines as `notifications/message`.
 */
import { redactSecrets } from '../lib/redact.js';
import { telemetry } from './telemetry-hooks.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export type LogSink = (level: LogLevel, message: string, data?: Record<string, unknown>) => void;
type LogMethod = (message: string, data?: Record<string, unknown>, also?: LogSink) => void;

/**
 * Each method takes the sink of the call being served, if any: lines logged while serving one MCP
 * request also go to that request's client, and only to it. The sink is passed along rather than
 * found through AsyncLocalStorage, whose promise hooks cost about 50 µs of every tool call.
 */
export interface Logger extends Record<LogLevel, LogMethod> {
  enabled(level: LogLevel): boolean;
  /** Adds a sink that sees every line at or above the logger's level; returns its remover. */
  addSink(sink: LogSink): () => void;
}

/**
 * `format` json writes one object per line: time, level, message, the data if any, and inside a
 * traced request the trace_id and span_id that join it to its trace.
 */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(line),
  format: LogFormat = 'text',
): Logger {
  const sinks = new Set<LogSink>();
  const enabled = (at: LogLevel) => RANK[at] <= RANK[level];
  const emit = (at: LogLevel, message: string, data?: Record<string, unknown>, scoped?: LogSink) => {
    if (!enabled(at)) return;
    const safe = redactSecrets(message);
    const json = data && Object.keys(data).length > 0 ? redactSecrets(serialize(data)) : undefined;
    write(
      format === 'json'
        ? jsonLine(at, safe, json)
        : `[service-mcp] ${at}: ${safe}${json === undefined ? '' : ` ${json}`}\n`,
    );
    if (sinks.size === 0 && !scoped) return;
    // Sinks (e.g. MCP log notifications) get the same redacted data as stderr, never the original.
    const safeData = json === undefined ? data : redactedData(json);
    for (const sink of scoped ? [...sinks, scoped] : sinks) {
      try {
        sink(at, safe, safeData);
      } catch (error) {
        // A broken sink (e.g. a closed transport) must not break the call that logged.
        write(`[service-mcp] warn: log sink failed: ${redactSecrets(String(error))}\n`);
      }
    }
  };
  return {
    error: (m, d, also) => emit('error', m, d, also),
    warn: (m, d, also) => emit('warn', m, d, also),
    info: (m, d, also) => emit('info', m, d, also),
    debug: (m, d, also) => emit('debug', m, d, also),
    enabled,
    addSink(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
  };
}

function jsonLine(level: LogLevel, message: string, data: string | undefined): string {
  const ids = telemetry().traceIds();
  const dataMember = data === undefined ? '' : `,"data":${data}`;
  const traceMembers = ids ? `,"trace_id":"${ids.trace_id}","span_id":"${ids.span_id}"` : '';
  return `{"time":"${new Date().toISOString()}","level":"${level}","message":${JSON.stringify(message)}${dataMember}${traceMembers}}\n`;
}

/** JSON for a log line; never throws (a cyclic or BigInt value must not fail the call that logged). */
function serialize(data: Record<string, unknown>): string {
  const seen = new WeakSet<object>();
  try {
    return JSON.stringify(data, (_key, value: unknown) => {
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'object' && value !== null) {
        if (seen.has(value)) return '[circular]';
        seen.add(value);
      }
      return value;
    });
  } catch (error) {
    return JSON.stringify({ unserializable: String(error) });
  }
}

function redactedData(json: string): Record<string, unknown> {
  try {
    return JSON.parse(json) as Record<string, unknown>;
  } catch {
    // Redaction only rewrites inside string values, so this should not happen; keep the text.
    return { text: json };
  }
}

/** A logger that drops everything: the default for library use and tests. */
export const silentLogger: Logger = createLogger('error', () => {});
