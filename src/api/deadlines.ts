/**
 * Request deadlines, watched by one timer. A timer per request cost about 4 µs of every call: with
 * one request at a time, Node creates and drops its timer list for that duration each time and
 * starts, stops, refs and unrefs the event loop's timer handle, each a call into C++. Here a
 * request is an entry in a map; the timer wakes at the earliest deadline, ends what is due and
 * sleeps until the next one. It does not hold the process open: a request in flight does that
 * with its socket.
 */
export class Deadlines<T> {
  private readonly due = new Map<T, number>();
  private timer: NodeJS.Timeout | undefined;
  private wakeAt = Infinity;

  constructor(
    private readonly expire: (item: T) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** `item` expires `ms` from now unless deleted before. */
  add(item: T, ms: number): void {
    const at = this.now() + ms;
    this.due.set(item, at);
    if (at < this.wakeAt) this.wakeUpAt(at);
  }

  delete(item: T): void {
    this.due.delete(item);
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
    for (const [item, at] of this.due) {
      if (at <= now) {
        this.due.delete(item);
        this.expire(item);
      } else if (at < next) next = at;
    }
    if (next !== Infinity) this.wakeUpAt(next);
  };
}
