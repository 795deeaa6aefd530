/**
 * The offline API over real HTTP, served from this test process so that it can record every
 * request the binary under test sends (URL and headers): what an upstream actually sees, which
 * mock-api's hit counts cannot show. Faults are set on `engine.faults` directly.
 */
import { createOfflineEngine, type OfflineEngine } from '../../src/offline/engine.js';
import { startOfflineServer } from '../../src/offline/server.js';

interface SeenRequest {
  url: string;
  headers: Record<string, string>;
  /** performance.now() when the request reached the API. */
  at: number;
}

export interface RecordingApi {
  url: string;
  engine: OfflineEngine;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export interface RecordingOptions {
  /** Rewrites the endpoint catalog discovery answers with: a deployment that lacks (or adds) endpoints. */
  endpoints?: (endpoints: Array<Record<string, unknown>>) => Array<Record<string, unknown>>;
  /**
   * Answers without Cache-Control or ETag, as the spec's API (which states none) may: a client cache
   * never serves them as fresh, so every repeat reaches the API (mock-api's say a minute).
   */
  noFreshness?: boolean;
}

function withoutFreshness(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.delete('cache-control');
  headers.delete('etag');
  return new Response(response.body, { status: response.status, headers });
}

export async function startRecordingApi(options: RecordingOptions = {}): Promise<RecordingApi> {
  const engine = await createOfflineEngine();
  const seen: SeenRequest[] = [];
  const recording: OfflineEngine = {
    ...engine,
    handle: async (request) => {
      seen.push({ url: request.url, headers: Object.fromEntries(request.headers), at: performance.now() });
      const answered = await engine.handle(request);
      const response = options.noFreshness ? withoutFreshness(answered) : answered;
      if (
        !options.endpoints ||
        new URL(request.url).pathname.replace(/\/$/, '') !== '/api/public/v1' ||
        response.status !== 200
      )
        return response;
      const body = (await response.json()) as { data: { endpoints: Array<Record<string, unknown>> } };
      body.data.endpoints = options.endpoints(body.data.endpoints);
      const headers = new Headers(response.headers);
      headers.delete('content-length');
      headers.delete('etag');
      return new Response(JSON.stringify(body), { status: 200, headers });
    },
  };
  const server = await startOfflineServer({ engine: recording });
  return { url: server.url, engine, seen, close: () => server.close() };
}
