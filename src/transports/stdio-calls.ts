/**
 * tools/call over stdio without the SDK's per-request machinery. The profile of a warm get_job put
 * about 70 µs of its CPU in the SDK's Protocol layer (zod checks of every incoming message, twice of
 * the request and once of the result, and the request's closures and promise chain), a seventh of
 * the whole call; tools/call is nearly all of a session's traffic.
 *
 * Only a plain, well-formed call is taken here: JSON-RPC 2.0, an integer or string id not already
 * running here, a string tool name, arguments that are an object if present, and `_meta` with at
 * most a progress token. Anything else (other methods, malformed params, task requests, other
 * `_meta`) goes to the SDK server, which answers it as before. What the SDK does for a call is
 * done the same way here: the call runs the very handler the SDK server runs (server.ts), its
 * notifications go out through the SDK server, a thrown error becomes the same JSON-RPC error, and
 * a notifications/cancelled for a call running here aborts it and its answer is not sent.
 */
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { jsonTextOf } from '../mcp/json-text.js';
import { isRecord } from '../is-record.js';
import { isJsonRpcRequest, isRequestId, type JsonObject, type RequestId } from '../mcp/jsonrpc.js';
import type { CallTool } from '../server.js';

export interface StdioCallsOptions {
  callTool: CallTool;
  /** Sends a notification tied to the request `relatedRequestId` (the SDK server's notification()). */
  notify(notification: ServerNotification, relatedRequestId: RequestId): Promise<void>;
  /** Writes one or more protocol lines (each with its newline) to the client. */
  write(lines: string): void;
}

/** The params of a call this lane takes, as the SDK's CallToolRequestSchema would accept them. */
function isPlainCall(params: unknown): params is { name: string; arguments?: JsonObject; _meta?: { progressToken?: string | number } } {
  if (!isRecord(params) || typeof params.name !== 'string') return false;
  for (const key in params) if (key !== 'name' && key !== 'arguments' && key !== '_meta') return false;
  if (params.arguments !== undefined && !isRecord(params.arguments)) return false;
  const meta = params._meta;
  if (meta === undefined) return true;
  if (!isRecord(meta)) return false;
  for (const key in meta) if (key !== 'progressToken') return false;
  return meta.progressToken === undefined || typeof meta.progressToken === 'string' || typeof meta.progressToken === 'number';
}

export class StdioCalls {
  private readonly running = new Map<RequestId, AbortController>();
  /**
   * Answers that finished while other calls were still running, written together at the end of
   * the event loop's turn: with several calls in flight a write per answer was a system call (and
   * a wake-up of the client) each, about a tenth of the server's CPU per call. An answer to the
   * only call running goes out at once, so a client that waits for each answer waits no longer.
   */
  private held: string[] = [];
  private flushScheduled = false;
  private readonly flushHeld = () => {
    this.flushScheduled = false;
    this.flush();
  };

  constructor(private readonly options: StdioCallsOptions) {}

  /** Calls running here. */
  get size(): number {
    return this.running.size;
  }

  /** Handles `message` when it is a call, or the cancellation of a call, this lane takes; false leaves it to the SDK. */
  take(message: unknown): boolean {
    if (!isRecord(message) || message.jsonrpc !== '2.0') return false;
    if (message.method === 'notifications/cancelled' && !('id' in message)) return this.cancel(message.params);
    if (!isJsonRpcRequest(message) || message.method !== 'tools/call' || this.running.has(message.id) || !isPlainCall(message.params)) return false;
    this.run(message.id, message.params);
    return true;
  }

  /** Aborts every call running here (the session is closing); none of them is answered. */
  abortAll(reason: unknown): void {
    for (const controller of this.running.values()) controller.abort(reason);
  }

  /** Writes the answers held back, in the order they finished. */
  flush(): void {
    if (this.held.length === 0) return;
    const lines = this.held.join('');
    this.held = [];
    this.options.write(lines);
  }

  private send(line: string): void {
    // This call is still counted as running: more than one means others are.
    if (this.running.size > 1) {
      this.held.push(line);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flushHeld);
      }
      return;
    }
    this.flush();
    this.options.write(line);
  }

  private cancel(params: unknown): boolean {
    if (!isRecord(params) || !isRequestId(params.requestId)) return false;
    const controller = this.running.get(params.requestId);
    if (!controller) return false;
    controller.abort(params.reason);
    return true;
  }

  private run(id: RequestId, params: Parameters<CallTool>[0]): void {
    const controller = new AbortController();
    const { signal } = controller;
    this.running.set(id, controller);
    const extra = {
      signal,
      sendNotification: (notification: ServerNotification) => (signal.aborted ? Promise.resolve() : this.options.notify(notification, id)),
    };
    const answer = (reply: { result?: unknown; jsonrpc: string; id: RequestId; error?: object }) => {
      if (signal.aborted) return;
      let line: string;
      try {
        // A result that carries its JSON text (run.ts) is written with it, in JSON.stringify's member order.
        const text = jsonTextOf(reply.result);
        line = text === undefined ? JSON.stringify(reply) : `{"result":${text},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`;
      } catch (error) {
        // The SDK would leave such a call unanswered; say what happened instead.
        line = JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: `Internal error: the result could not be serialized (${error instanceof Error ? error.message : String(error)})` } });
      }
      this.send(`${line}\n`);
    };
    // Started at once (its signal is new, so nothing can have cancelled it yet); a synchronous
    // throw becomes an error answer like a rejection.
    let started: Promise<Awaited<ReturnType<CallTool>>>;
    try {
      started = this.options.callTool(params, extra);
    } catch (error) {
      started = Promise.reject(error);
    }
    started
      .then(
        (result) => answer({ result, jsonrpc: '2.0', id }),
        (error: { code?: unknown; message?: string; data?: unknown }) =>
          answer({
            jsonrpc: '2.0',
            id,
            error: { code: Number.isSafeInteger(error?.code) ? error.code : -32603, message: error?.message ?? 'Internal error', ...(error?.data !== undefined && { data: error.data }) },
          }),
      )
      // A failed write to stdout is the stdio server's to notice (the pipe is gone); nothing to answer.
      .catch(() => {})
      .finally(() => {
        if (this.running.get(id) === controller) this.running.delete(id);
      });
  }
}
