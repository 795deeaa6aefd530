/**
 * What the stdio transport has read, from the line to its answer: the one place a request is
 * tracked. Each line is classified once, by the SDK's guards. What cannot be handed on yet waits in
 * order, its bytes counted for the read-ahead bound (while stdout is backed up, or every one of the
 * --max-in-flight slots of lib/slots.ts is taken); a request handed on holds its slot until it is
 * answered or cancelled, and once answerAll has answered each before exit, none is answered again.
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
import { Slots, type Release } from '../lib/slots.js';
import { notAMessage, notJson, type Refusal } from './stdio-refusals.js';

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
    return { kind: 'refused', refusal: notJson(line) };
  }
  if (isJSONRPCRequest(message)) return { kind: 'request', message, bytes: line.length };
  if (isJSONRPCNotification(message)) {
    const requestId = isSpecType.CancelledNotification(message) ? message.params.requestId : undefined;
    if (requestId === undefined) return { kind: 'notification', message, bytes: line.length };
    return { kind: 'cancellation', message, requestId };
  }
  if (isJSONRPCResponse(message)) return { kind: 'response', message };
  return { kind: 'refused', refusal: notAMessage(message) };
}

/**
 * `subscriptions/listen` stays open until the client cancels it, and the SDK bounds those itself
 * (maxSubscriptions): counted as a call, a few would hold every slot for good.
 */
const LONG_LIVED = new Set(['subscriptions/listen']);

export class Requests {
  private waiting: Waiting[] = [];
  /** Characters of the lines waiting. */
  bytes = 0;
  /** Each request handed on and owed an answer, with its slot's release (none for a long-lived one). */
  private readonly owed = new Map<RequestId, Release | undefined>();
  /** No queue of its own: requests wait in `waiting`, in order. */
  private readonly slots: Slots;
  private settledWaiters: Array<() => void> = [];
  private allAnswered = false;

  constructor(maxInFlight: number) {
    this.slots = new Slots(maxInFlight, 0);
  }

  /** Requests handed on and not answered yet (cancelled ones excepted: they get no answer). */
  get owing(): number {
    return this.owed.size;
  }

  /** Nothing waits and nothing is owed. */
  get done(): boolean {
    return this.waiting.length === 0 && this.owed.size === 0;
  }

  push(waiting: Waiting): void {
    this.waiting.push(waiting);
    this.bytes += waiting.bytes;
  }

  /**
   * The next message to hand on, taken from the queue, a request taking its slot; undefined when
   * none waits, or the next request finds every slot taken. While `refusing`, a request takes no
   * slot and does not wait for one: it is the caller's to refuse.
   */
  next(refusing: boolean): Waiting | undefined {
    for (let head = this.waiting[0]; head; head = this.waiting[0]) {
      const request = head.kind === 'request' && !head.dropped ? head.message : undefined;
      if (request && !refusing && !LONG_LIVED.has(request.method) && !this.slots.free) return undefined;
      this.waiting.shift();
      this.bytes -= head.bytes;
      if (head.dropped) continue;
      // An id already running (a client's mistake) holds no second slot: its release would be lost.
      if (request && !refusing && !this.owed.has(request.id))
        this.owed.set(request.id, LONG_LIVED.has(request.method) ? undefined : this.slots.tryTake());
      return head;
    }
    return undefined;
  }

  /**
   * A cancellation of `id`: true when it was still waiting, and is dropped, never to start (and,
   * like any cancelled request, never answered). A cancellation is scanned for rather than
   * indexed: it is rare, and what waits is bounded by the read-ahead.
   */
  cancel(id: RequestId): boolean {
    const waiting = this.waiting.find((w) => w.kind === 'request' && w.message.id === id && !w.dropped);
    if (waiting) waiting.dropped = true;
    // The SDK answers a cancelled request with nothing, so it is not waited for: its slot is free at once.
    else this.ended(id);
    return waiting !== undefined;
  }

  /** An answer to `id` is going out: false when it is not to be written (answerAll answered it). */
  answered(id: RequestId | undefined): boolean {
    if (this.allAnswered) return false;
    if (id !== undefined) this.ended(id);
    return true;
  }

  /** Every request owed, then every one waiting, for an error answer each; none is owed after. */
  answerAll(): RequestId[] {
    const ids = [...this.owed.keys()];
    for (const w of this.waiting) if (w.kind === 'request' && !w.dropped) ids.push(w.message.id);
    for (const release of this.owed.values()) release?.();
    this.owed.clear();
    this.waiting = [];
    this.bytes = 0;
    this.allAnswered = true;
    this.checkSettled();
    return ids;
  }

  /** Resolves once no request is owed an answer. */
  settled(): Promise<void> {
    if (this.owed.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private ended(id: RequestId): void {
    this.owed.get(id)?.();
    this.owed.delete(id);
    this.checkSettled();
  }

  private checkSettled(): void {
    if (this.owed.size > 0 || this.settledWaiters.length === 0) return;
    for (const resolve of this.settledWaiters.splice(0)) resolve();
  }
}
