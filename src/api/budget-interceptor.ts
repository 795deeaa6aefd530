/**
 * The fair-share check as an undici interceptor, composed inside the cache (dispatcher.ts): it sees
 * only the requests that are about to leave the process (misses and revalidations), so a cache hit
 * never takes from a caller's share, and a request refused here is never sent. The caller rides on
 * the dispatch options under a symbol of ours, so it is never a header and never reaches the API.
 */
import type { Dispatcher } from 'undici';
import { takeShare, type UpstreamBudget } from './fair-share.js';

/** Where dispatcherFetch puts the caller's name on the dispatch options. */
export const CALLER = Symbol('service-mcp.caller');

type Options = Dispatcher.DispatchOptions & { [CALLER]?: string };

/** Fails a request without dispatching it, as undici's cache does for `only-if-cached`. */
function refuse(handler: Dispatcher.DispatchHandler, error: Error): void {
  const controller = {
    aborted: false,
    paused: false,
    reason: null,
    rawHeaders: [],
    rawTrailers: [],
    pause() {},
    resume() {},
    abort() {},
  };
  try {
    handler.onRequestStart?.(controller, null);
  } finally {
    handler.onResponseError?.(controller, error);
  }
}

export function budgetInterceptor(budget: UpstreamBudget): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts: Options, handler) => {
    const caller = opts[CALLER];
    // Requests of the server's own (the catalog read) and of stdio or `call` have no caller.
    if (caller === undefined) return dispatch(opts, handler);
    void takeShare(budget, caller, String(opts.path)).then((refusal) => {
      if (refusal) refuse(handler, refusal);
      else dispatch(opts, handler);
    });
    return true;
  };
}
