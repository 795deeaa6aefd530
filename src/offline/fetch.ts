/**
 * The in-process adapter: a FetchLike that hands requests straight to the engine, for
 * `--offline` and for tests. No socket, no port; aborting the signal rejects the call, and
 * also errors a body that is still being read, as a real fetch does.
 */
import { raceAbort } from '../lib/abort.js';
import type { OfflineEngine } from './engine.js';

/** The base URL to give the ApiClient with this fetch; `.invalid` can never resolve, by RFC 6761. */
export const OFFLINE_BASE_URL = 'http://offline.invalid';

export function createOfflineFetch(
  engine: OfflineEngine | Promise<OfflineEngine>,
): (url: string, init: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    const request = new Request(url, init);
    const response = await raceAbort(
      Promise.resolve(engine).then((e) => e.handle(request)),
      signal,
    );
    return signal ? abortableBody(response, signal) : response;
  };
}

function abortableBody(response: Response, signal: AbortSignal): Response {
  if (!response.body) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await raceAbort(reader.read(), signal);
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        void reader.cancel(error).catch(() => {});
        controller.error(error);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
