/**
 * The messages the stdio transport has read and not handed on yet, in order: while stdout is
 * backed up, or while requests wait for a slot. Their bytes are counted (past a bound the
 * transport stops reading), and a cancellation can find the waiting request it names, which is
 * then dropped when its turn comes: never started, and, like any cancelled request, never answered.
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

export type WaitingRequest = JSONRPCMessage & { id: RequestId; method: string };

export const isRequest = (message: JSONRPCMessage): message is WaitingRequest => 'method' in message && 'id' in message;

interface Waiting {
  message: JSONRPCMessage;
  /** Its line's length (in characters), for the read-ahead bound. */
  bytes: number;
  dropped?: boolean;
}

export class ReadAhead {
  private items: Waiting[] = [];
  private readonly requests = new Map<RequestId, Waiting>();
  /** Characters of the lines waiting. */
  bytes = 0;

  get length(): number {
    return this.items.length;
  }

  push(message: JSONRPCMessage, bytes: number): void {
    const waiting: Waiting = { message, bytes };
    if (isRequest(message)) this.requests.set(message.id, waiting);
    this.items.push(waiting);
    this.bytes += bytes;
  }

  /** The next message (undefined for one dropped), without taking it. */
  peek(): JSONRPCMessage | undefined {
    const next = this.items[0];
    return next?.dropped ? undefined : next?.message;
  }

  shift(): void {
    const next = this.items.shift();
    if (!next) return;
    this.bytes -= next.bytes;
    if (!next.dropped && isRequest(next.message)) this.requests.delete(next.message.id);
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
  clear(): WaitingRequest[] {
    const requests = this.items
      .filter((w) => !w.dropped && isRequest(w.message))
      .map((w) => w.message as WaitingRequest);
    this.items = [];
    this.requests.clear();
    this.bytes = 0;
    return requests;
  }
}
