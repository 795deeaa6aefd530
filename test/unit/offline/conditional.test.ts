/** The offline API's caching headers: ETag and Cache-Control on successes only, 304 for a matching If-None-Match. */
import { beforeAll, describe, expect, it } from 'vitest';
import { DATA_CACHE_CONTROL, matchesIfNoneMatch } from '../../../src/offline/conditional.js';
import { createOfflineEngine, type OfflineEngine } from '../../../src/offline/engine.js';

let engine: OfflineEngine;
beforeAll(async () => {
  engine = await createOfflineEngine();
});

const ORIGIN = 'http://offline.test';
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  engine.handle(new Request(`${ORIGIN}${path}`, { method, headers }));

describe('validators on success', () => {
  it('a 200 carries a strong ETag and public, max-age=60, and the same body gets the same ETag', async () => {
    const first = await get('/api/public/v1/search/jobs?per_page=3');
    const second = await get('/api/public/v1/search/jobs?per_page=3');
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
    expect(first.headers.get('cache-control')).toBe(DATA_CACHE_CONTROL);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect((await get('/api/public/v1/search/jobs?per_page=4')).headers.get('etag')).not.toBe(
      first.headers.get('etag'),
    );
    expect(Number(first.headers.get('content-length'))).toBe((await first.arrayBuffer()).byteLength);
  });

  it('If-None-Match with the current ETag (alone, in a list, weak, or *) is a 304 without a body', async () => {
    const etag = (await get('/api/public/v1/jobs/job_ai_0001')).headers.get('etag')!;
    for (const header of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const response = await get('/api/public/v1/jobs/job_ai_0001', { 'if-none-match': header });
      expect(response.status, header).toBe(304);
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.headers.get('cache-control')).toBe(DATA_CACHE_CONTROL);
      expect(await response.text()).toBe('');
    }
    const changed = await get('/api/public/v1/jobs/job_ai_0001', { 'if-none-match': '"stale"' });
    expect(changed.status).toBe(200);
    expect((await changed.json()) as object).toMatchObject({ success: true });
  });

  it('HEAD gets the same validators as GET', async () => {
    const head = await get('/api/public/v1/market-map', {}, 'HEAD');
    expect(head.headers.get('etag')).toBe((await get('/api/public/v1/market-map')).headers.get('etag'));
  });

  it('health is no-store: a health check answered from a cache checks nothing', async () => {
    for (const path of ['/api/public/v1/mcp/health', '/api/public/v1/mcp/health/']) {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('etag')).toBeNull();
    }
  });
});

describe('never on errors', () => {
  it('404, 400 and 405 carry neither ETag nor Cache-Control', async () => {
    for (const [path, status, method] of [
      ['/api/public/v1/jobs/no-such-job', 404, 'GET'],
      ['/api/public/v1/search/jobs?per_page=1000', 400, 'GET'],
      ['/nowhere', 404, 'GET'],
      ['/api/public/v1/jobs', 405, 'DELETE'],
    ] as const) {
      const response = await get(path, {}, method);
      expect(response.status, path).toBe(status);
      expect(response.headers.get('etag'), path).toBeNull();
      expect(response.headers.get('cache-control'), path).toBeNull();
    }
  });

  it('nor on injected faults: 429, 503, a malformed or contract-breaking 200', async () => {
    for (const kind of ['rate_limit', 'unavailable', 'malformed', 'contract'] as const) {
      engine.faults.set([{ path: '/api/public/v1/jobs', kind, times: 1 }]);
      const response = await get('/api/public/v1/jobs?per_page=2');
      expect(response.headers.get('etag'), kind).toBeNull();
      expect(response.headers.get('cache-control'), kind).toBeNull();
    }
    engine.faults.clear();
  });
});

describe('matchesIfNoneMatch', () => {
  it('compares opaque tags weakly and ignores absent headers', () => {
    expect(matchesIfNoneMatch(null, '"a"')).toBe(false);
    expect(matchesIfNoneMatch('"b"', '"a"')).toBe(false);
    expect(matchesIfNoneMatch(' "b" , W/"a"', '"a"')).toBe(true);
  });
});
