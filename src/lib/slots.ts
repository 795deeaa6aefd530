/**
 * A fixed number of slots, and a bounded first-come-first-served queue for them: the one limiter
 * that holds the calls a process runs at once to --max-in-flight. HTTP queues here and refuses a
 * request past the queue at once; stdio takes a slot only when one is free (tryTake) and keeps the
 * rest in its byte-bounded read-ahead (stdio-read-ahead.ts), reading no further.
 */
export type Release = () => void;

export type Take =
  | { ok: true; slot: Promise<Release | undefined> }
  /** Every slot taken and the queue full. */
  | { ok: false };

/** Hands a waiter its slot's release, or undefined when it is turned away. */
type Waiter = (release: Release | undefined) => void;

export class Slots {
  private used = 0;
  private readonly queue: Waiter[] = [];

  constructor(
    readonly size: number,
    readonly queueSize: number,
  ) {}

  /** True when a slot is free right now (no one waits for one). */
  get free(): boolean {
    return this.used < this.size && this.queue.length === 0;
  }

  /**
   * A slot now, or a place in the queue: the promise resolves with the slot's release, or with
   * undefined when `gone` aborts first (the client left) or the queue is cleared (shutdown).
   */
  take(gone?: AbortSignal): Take {
    const now = this.tryTake();
    if (now) return { ok: true, slot: Promise.resolve(now) };
    if (this.queue.length >= this.queueSize) return { ok: false };
    const slot = new Promise<Release | undefined>((resolve) => {
      const waiter: Waiter = (release) => {
        gone?.removeEventListener('abort', leave);
        resolve(release);
      };
      const leave = () => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        resolve(undefined);
      };
      if (gone?.aborted) return resolve(undefined);
      gone?.addEventListener('abort', leave, { once: true });
      this.queue.push(waiter);
    });
    return { ok: true, slot };
  }

  /** A slot now, or undefined when none is free: for a caller that keeps its own queue. */
  tryTake(): Release | undefined {
    if (!this.free) return undefined;
    this.used++;
    return this.releaser();
  }

  /** Turns every request in the queue away (each resolves with undefined). */
  clearQueue(): void {
    for (const waiter of this.queue.splice(0)) waiter(undefined);
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      // The slot passes straight to the next in line, so a newcomer cannot jump the queue.
      if (next) next(this.releaser());
      else this.used--;
    };
  }
}
