/**
 * What the stdio transport reads: each line classified once, by the SDK's guards, when it is read;
 * and the messages read and not handed on yet, in order, while stdout is backed up or requests
 * wait for a slot. Their bytes are counted (past a bound the transport stops reading), and a
 * cancellation can find the waiting request it names, which is then dropped when its turn comes:
 * never started, and, like any cancelled request, never answered.
 */
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  isSpecType,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
} from '@modelcontextprotocol/server';
import { refusalsOf, type Refusal } from './stdio-refusals.js';

/** A message that waits its turn, with its line's length for the read-ahead bound. */
export type Waiting = (
  { kind: 'request'; message: JSONRPCRequest } | { kind: 'notification'; message: JSONRPCNotification }
) & { bytes: number; dropped?: boolean };

export type Read =
  | Waiting
  | { kind: 'cancellation'; message: JSONRPCNotification; requestId: RequestId }
  | { kind: 'response'; message: JSONRPCResponse }
  | { kind: 'refused'; refusal: Refusal };

export function classify(line: string): Read {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return { kind: 'refused', refusal: refusalsOf(line) };
  }
  if (isJSONRPCRequest(message)) return { kind: 'request', message, bytes: line.length };
  if (isJSONRPCNotification(message)) {
    const requestId = isSpecType.CancelledNotification(message) ? message.params.requestId : undefined;
    if (requestId === undefined) return { kind: 'notification', message, bytes: line.length };
    return { kind: 'cancellation', message, requestId };
  }
  if (isJSONRPCResponse(message)) return { kind: 'response', message };
  return { kind: 'refused', refusal: refusalsOf(line) };
}

export class ReadAhead {
  private items: Waiting[] = [];
  private readonly requests = new Map<RequestId, Waiting>();
  /** Characters of the lines waiting. */
  bytes = 0;

  get length(): number {
    return this.items.length;
  }

  push(waiting: Waiting): void {
    if (waiting.kind === 'request') this.requests.set(waiting.message.id, waiting);
    this.items.push(waiting);
    this.bytes += waiting.bytes;
  }

  /** The next message (undefined for one dropped), without taking it. */
  peek(): Waiting | undefined {
    const next = this.items[0];
    return next?.dropped ? undefined : next;
  }

  shift(): void {
    const next = this.items.shift();
    if (!next) return;
    this.bytes -= next.bytes;
    if (!next.dropped && next.kind === 'request') this.requests.delete(next.message.id);
  }

  /** Drops the waiting request `id`; false when none waits. */
  drop(id: RequestId): boolean {
    const waiting = this.requests.get(id);
    if (!waiting) return false;
    waiting.dropped = true;
    this.requests.delete(id);
    return true;
  }

  /** Empties it, giving back the requests that were still to start. */
  clear(): JSONRPCRequest[] {
    const requests = this.items.flatMap((w) => (w.kind === 'request' && !w.dropped ? [w.message] : []));
    this.items = [];
    this.requests.clear();
    this.bytes = 0;
    return requests;
  }
}
