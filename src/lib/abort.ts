/**
 * Ending requests: the client's own reason, a deadline that lets go when the work ends, and a race
 * that owns its promise.
 */

/**
 * The reason the client aborts a request of its own with (its caller's cancellation or its
 * deadline). A request that fails with one the client did not send was shared with another call
 * and ended by it: undici's deduplicate interceptor aborts a shared request when the call that
 * started it leaves, not only once every call has left (the upstream change that would retire this).
 */
export class RequestEnded extends Error {
  constructor() {
    super('the request was ended by its caller');
    this.name = 'RequestEnded';
  }
}

/**
 * Runs `work` with a signal that aborts after `ms` (with a TimeoutError, as AbortSignal.timeout's
 * does), and drops its timer the moment the work settles. Not AbortSignal.timeout: Node 22's
 * AbortSignal.any keeps a timeout signal and its composite in a strong set until the timer fires
 * (nodejs/node#57867), so every request's signals, listeners and timer (about 1.2 KB) outlived it
 * by the whole timeout: 20 MB at a thousand calls a second with the default 15 s. Upstream,
 * releasing a timeout source with its composite would let this go back to AbortSignal.timeout.
 */
export async function withDeadline<T>(ms: number, work: (deadline: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  // Unref'd, as AbortSignal.timeout's is: a deadline alone never keeps the process alive.
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    ms,
  ).unref();
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Races a promise against a signal, without cancelling the promise itself. The race owns the
 * promise whichever side wins, so its rejection is never unhandled: returning early on a signal
 * already aborted once left undici's `request()` promise without a listener, and the process died
 * when a call was cancelled just before its request was dispatched.
 */
export function raceAbort<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * `promise`'s value, or `fallback` once `ms` have passed, whichever comes first; the timer goes
 * when the race ends. `unref`: the wait alone does not keep the process alive.
 */
export async function orAfter<T, F>(promise: Promise<T>, ms: number, fallback: F, unref = false): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<F>((resolve) => {
    timer = setTimeout(resolve, ms, fallback);
    if (unref) timer.unref();
  });
  try {
    return await Promise.race([promise, elapsed]);
  } finally {
    clearTimeout(timer);
  }
}
