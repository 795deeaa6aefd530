/**
 * The slot an MCP request over HTTP waits for: at most --max-in-flight served at once and as many
 * waiting (lib/slots.ts, the limiter stdio uses too), so a burst of an agent's calls is served and a
 * flood is turned away with 503 and Retry-After. Only a request (by the SDK's guard) waits:
 * notifications and answers start no work.
 */
import type { ServerResponse } from 'node:http';
import { isJSONRPCRequest, type RequestId } from '@modelcontextprotocol/server';
import { sendRpcError, type Headers } from '../lib/http-server.js';
import { Slots, type Release } from '../lib/slots.js';

/** The id a refusal names: null for a batch holding a request; undefined when no request is there. */
function requestIdIn(parsed: unknown): RequestId | null | undefined {
  if (Array.isArray(parsed)) return parsed.some(isJSONRPCRequest) ? null : undefined;
  return isJSONRPCRequest(parsed) ? parsed.id : undefined;
}

export function admission(maxInFlight: number | undefined) {
  const slots = maxInFlight === undefined ? undefined : new Slots(maxInFlight, maxInFlight);
  /**
   * A slot for the request in `parsed` once one is free ('none' when it needs none); undefined
   * when it was answered here instead (503: the queue is full, or the server is shutting down) or
   * its client left while it waited.
   */
  async function slotFor(res: ServerResponse, parsed: unknown, cors: Headers): Promise<Release | 'none' | undefined> {
    if (!slots) return 'none';
    const id = requestIdIn(parsed);
    if (id === undefined) return 'none';
    const unavailable = (message: string) => sendRpcError(res, 503, message, { ...cors, 'retry-after': '1' }, id);
    const gone = new AbortController();
    const leave = () => gone.abort();
    res.once('close', leave);
    const taken = slots.take(gone.signal);
    if (!taken.ok) {
      res.off('close', leave);
      unavailable(
        `Service Unavailable: ${slots.size} requests are being served and ${slots.queueSize} are waiting, the most this server takes (--max-in-flight ${slots.size}); retry after 1 s`,
      );
      return undefined;
    }
    const release = await taken.slot;
    res.off('close', leave);
    if (res.destroyed || res.writableEnded) {
      release?.();
      return undefined;
    }
    if (!release) {
      unavailable('Service Unavailable: the server is shutting down; the request was not started');
      return undefined;
    }
    res.once('close', release);
    return release;
  }
  /** Turns away the requests waiting (503): the server is shutting down. */
  const refuseWaiting = () => slots?.clearQueue();
  return { slotFor, refuseWaiting };
}
