/**
 * The requests the stdio transport has handed on and still owes an answer: the one place each is
 * tracked, with its slot of --max-in-flight (slots.ts, the limiter HTTP mode uses too). The end of
 * input and shutdown wait on it; once answerAll has given each an error before exit, the SDK's own
 * late answers are not written.
 */
import type { JSONRPCRequest, RequestId } from '@modelcontextprotocol/server';
import { Slots, type Release } from '../lib/slots.js';

/**
 * `subscriptions/listen` stays open until the client cancels it, and the SDK bounds those itself
 * (maxSubscriptions): counted as a call, a few would hold every slot for good.
 */
const LONG_LIVED = new Set(['subscriptions/listen']);

export class Owed {
  /** Each request owed an answer, with its slot's release: none for a long-lived one. */
  private readonly requests = new Map<RequestId, Release | undefined>();
  /** No queue of its own: requests wait in the transport's read-ahead, in order. */
  private readonly slots: Slots;
  private settledWaiters: Array<() => void> = [];
  private allAnswered = false;

  constructor(maxInFlight: number) {
    this.slots = new Slots(maxInFlight, 0);
  }

  get size(): number {
    return this.requests.size;
  }

  /** Set by answerAll: any answer after it is to a request already answered. */
  get answeredAll(): boolean {
    return this.allAnswered;
  }

  mayStart(request: JSONRPCRequest): boolean {
    return LONG_LIVED.has(request.method) || this.slots.free;
  }

  started(request: JSONRPCRequest): void {
    // An id already running (a client's mistake) holds no second slot: its release would be lost.
    if (this.requests.has(request.id)) return;
    this.requests.set(request.id, LONG_LIVED.has(request.method) ? undefined : this.slots.tryTake());
  }

  /** Answered, or cancelled (the SDK answers a cancelled request with nothing): its slot comes free. */
  ended(id: RequestId): void {
    this.requests.get(id)?.();
    this.requests.delete(id);
    this.checkSettled();
  }

  /** Every request owed, for an error answer each; none is owed after. */
  answerAll(): RequestId[] {
    const ids = [...this.requests.keys()];
    for (const release of this.requests.values()) release?.();
    this.requests.clear();
    this.allAnswered = true;
    this.checkSettled();
    return ids;
  }

  /** Resolves once no request is owed an answer. */
  settled(): Promise<void> {
    if (this.requests.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private checkSettled(): void {
    if (this.requests.size > 0 || this.settledWaiters.length === 0) return;
    for (const resolve of this.settledWaiters.splice(0)) resolve();
  }
}
