/**
 * msw adapter over the offline engine, for unit tests that exercise code using the real
 * globalThis.fetch: `setupServer(...offlineHandlers(engine, 'https://api.test'))`.
 */
import { http } from 'msw';
import type { OfflineEngine } from '../../src/offline/engine.js';

export function offlineHandlers(engine: OfflineEngine, baseUrl: string) {
  const origin = baseUrl.replace(/\/+$/, '');
  return [http.all(`${origin}/*`, ({ request }) => engine.handle(request))];
}
