/**
 * The offline API over real HTTP, served from this test process so that it can record every
 * request the binary under test sends (URL and headers): what an upstream actually sees, which
 * mock-api's hit counts cannot show. Faults are set on `engine.faults` directly.
 */
import { createOfflineEngine, type OfflineEngine } from '../../src/offline/engine.js';
import { startOfflineServer } from '../../src/offline/server.js';

export interface SeenRequest {
  url: string;
  headers: Record<string, string>;
}

export interface RecordingApi {
  url: string;
  engine: OfflineEngine;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startRecordingApi(): Promise<RecordingApi> {
  const engine = await createOfflineEngine();
  const seen: SeenRequest[] = [];
  const recording: OfflineEngine = {
    ...engine,
    handle: (request) => {
      seen.push({ url: request.url, headers: Object.fromEntries(request.headers) });
      return engine.handle(request);
    },
  };
  const server = await startOfflineServer({ engine: recording });
  return { url: server.url, engine, seen, close: () => server.close() };
}
