/**
 * Identical concurrent GETs share one upstream request. A model often fires the same call twice in
 * one turn, and over HTTP mode many clients ask the same thing at once; one request answers all of
 * them. Each caller keeps its own cancellation: aborting detaches only that caller, and the shared
 * request is aborted only once every caller has gone. Callers get the shared raw response (an
 * immutable string body), so each parses its own copy.
 */
import type { LogSink } from '../log.js';
import type { GateWaitInfo } from './http.js';

export interface SharedCallOptions {
  signal?: AbortSignal | undefined;
  onWait?: ((info: GateWaitInfo) => void) | undefined;
  logSink?: LogSink | undefined;
}

interface Entry<T> {
  promise: Promise<T>;
  controller: AbortController;
  callers: number;
  waiters: Set<(info: GateWaitInfo) => void>;
  /** The log sinks of the callers still waiting: a line about the shared request concerns each. */
  sinks: Set<LogSink>;
  /** The Retry-After wait in progress, so a caller joining mid-wait is told the seconds left. */
  waiting: { seconds: number; since: number } | undefined;
}

export class SharedRequests<T> {
  private readonly inflight = new Map<string, Entry<T>>();

  /** Requests in flight (for tests and diagnostics). */
  get size(): number {
    return this.inflight.size;
  }

  /**
   * Joins the request in flight under `key`, or starts one with `start`. `cancelled(reason)` makes
   * the error a caller gets when its own signal aborts.
   */
  run(key: string, caller: SharedCallOptions, start: (options: Required<SharedCallOptions>) => Promise<T>, cancelled: (reason: unknown) => unknown): Promise<T> {
    const { signal, onWait, logSink } = caller;
    if (signal?.aborted) return Promise.reject(cancelled(signal.reason));
    const joined = this.inflight.get(key);
    const entry = joined ?? this.create(key);
    entry.callers++;
    if (logSink) entry.sinks.add(logSink);
    if (onWait) {
      entry.waiters.add(onWait);
      const left = entry.waiting ? entry.waiting.seconds - Math.floor((Date.now() - entry.waiting.since) / 1000) : 0;
      if (left > 0) onWait({ seconds: left, reason: 'rate_limited' });
    }
    // Started only once its first caller is registered: the request may log before it first awaits.
    if (!joined) this.start(key, entry, start);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const leave = () => {
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        if (onWait) entry.waiters.delete(onWait);
        if (logSink) entry.sinks.delete(logSink);
      };
      const onAbort = () => {
        if (settled) return;
        leave();
        if (--entry.callers === 0) {
          // Nobody waits for it any more: stop it, and let the next caller start afresh.
          if (this.inflight.get(key) === entry) this.inflight.delete(key);
          entry.controller.abort(signal!.reason);
        }
        reject(cancelled(signal!.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      entry.promise.then(
        (value) => {
          if (settled) return;
          leave();
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          leave();
          reject(error);
        },
      );
    });
  }

  private create(key: string): Entry<T> {
    const entry: Entry<T> = { promise: undefined as unknown as Promise<T>, controller: new AbortController(), callers: 0, waiters: new Set(), sinks: new Set(), waiting: undefined };
    this.inflight.set(key, entry);
    return entry;
  }

  private start(key: string, entry: Entry<T>, start: (options: Required<SharedCallOptions>) => Promise<T>): void {
    const onWait = (info: GateWaitInfo) => {
      entry.waiting = { seconds: info.seconds, since: Date.now() };
      for (const waiter of entry.waiters) waiter(info);
    };
    const logSink: LogSink = (level, message, data) => {
      for (const sink of entry.sinks) sink(level, message, data);
    };
    entry.promise = start({ signal: entry.controller.signal, onWait, logSink });
    // Beside the callers' reactions rather than in front of them: a .finally() in between cost each
    // answer three more microtasks. This also takes the rejection when every caller has left.
    const forget = () => {
      if (this.inflight.get(key) === entry) this.inflight.delete(key);
    };
    entry.promise.then(forget, forget);
  }
}
