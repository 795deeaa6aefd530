/**
 * Request deadlines, watched by one timer. A timer per request cost about 4 µs of every call: with
 * one request at a time, Node creates and drops its timer list for that duration each time and
 * starts, stops, refs and unrefs the event loop's timer handle, each a call into C++. Here a
 * request is a node in a list; the timer wakes at the earliest deadline, ends what is due and
 * sleeps until the next one. It does not hold the process open: a request in flight does that
 * with its socket.
 *
 * A list rather than a Map: with a Map of requests, their bodies' buffers outlived them until a
 * full garbage collection (about 8 MB more resident memory after 1,000 calls with 8 in flight).
 */

/** A registered deadline, to hand back to delete(). */
export interface Deadline {
  readonly at: number;
}

interface Node<T> extends Deadline {
  item: T | undefined;
  prev: Node<T> | undefined;
  next: Node<T> | undefined;
}

export class Deadlines<T> {
  private head: Node<T> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private wakeAt = Infinity;

  constructor(
    private readonly expire: (item: T) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** `item` expires `ms` from now unless its deadline is deleted before. */
  add(item: T, ms: number): Deadline {
    const node: Node<T> = { at: this.now() + ms, item, prev: undefined, next: this.head };
    if (this.head) this.head.prev = node;
    this.head = node;
    if (node.at < this.wakeAt) this.wakeUpAt(node.at);
    return node;
  }

  delete(deadline: Deadline | undefined): void {
    const node = deadline as Node<T> | undefined;
    if (!node || node.item === undefined) return;
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    node.item = node.prev = node.next = undefined;
  }

  private wakeUpAt(at: number): void {
    clearTimeout(this.timer);
    this.wakeAt = at;
    this.timer = setTimeout(this.check, Math.max(0, at - this.now()));
    this.timer.unref();
  }

  private readonly check = () => {
    this.timer = undefined;
    this.wakeAt = Infinity;
    const now = this.now();
    let next = Infinity;
    const due: Array<Node<T>> = [];
    for (let node = this.head; node; node = node.next) {
      if (node.at <= now) due.push(node);
      else if (node.at < next) next = node.at;
    }
    // Expired after the walk: what an expiry does cannot cut the list short under it.
    for (const node of due) {
      const item = node.item;
      if (item === undefined) continue;
      this.delete(node);
      this.expire(item);
    }
    if (next !== Infinity) this.wakeUpAt(next);
  };
}
