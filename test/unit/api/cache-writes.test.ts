/**
 * The response cache's writes land on the next turn of the event loop (cache-writes.ts): after the
 * caller has the response, yet never so late that a lookup or a delete in between sees the wrong
 * state.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { cacheStores } from 'undici';
import { describe, expect, it, vi } from 'vitest';
import { deferWrites } from '../../../src/api/cache-writes.js';

const key = { origin: 'http://api.test', method: 'GET', path: '/api/public/v1/jobs/job_1', headers: {} };
const now = Date.now();
const value = { statusCode: 200, statusMessage: 'OK', headers: { 'content-type': 'application/json' }, cacheControlDirectives: { 'max-age': 60 }, cachedAt: now, staleAt: now + 60_000, deleteAt: now + 120_000 };

function setup(maxEntryBytes = 1024) {
  const inner = new cacheStores.MemoryCacheStore({ maxEntrySize: maxEntryBytes });
  const writes = vi.spyOn(inner, 'createWriteStream');
  return { inner, writes, store: deferWrites(inner, maxEntryBytes) };
}

/** What undici's cache handler does with a response it stores. */
function handlerWrites(store: ReturnType<typeof deferWrites>, body: string, parts = 2) {
  const stream = store.createWriteStream(key, value)!;
  stream.on('drain', () => {}).on('error', () => {}).on('close', () => {});
  const size = Math.ceil(body.length / parts);
  for (let i = 0; i < body.length; i += size) expect(stream.write(Buffer.from(body.slice(i, i + size)))).toBe(true);
  stream.end();
}

const bodyOf = (result: unknown) => Buffer.concat((result as { body: Buffer[] }).body).toString();

describe('deferred cache writes', () => {
  it('reach the store on the next turn of the event loop, not while the response is delivered', async () => {
    const { inner, writes, store } = setup();
    handlerWrites(store, '{"data":{"job_id":"job_1"}}');
    expect(writes).not.toHaveBeenCalled();
    expect(inner.get(key)).toBeUndefined();
    await nextTurn();
    await nextTurn();
    expect(writes).toHaveBeenCalledTimes(1);
    expect(bodyOf(inner.get(key))).toBe('{"data":{"job_id":"job_1"}}');
  });

  it('a lookup in the same turn waits for the write instead of missing', async () => {
    const { store } = setup();
    handlerWrites(store, '{"data":1}');
    expect(bodyOf(await store.get(key))).toBe('{"data":1}');
  });

  it('a delete in the same turn is not undone by the write that was pending', async () => {
    const { inner, store } = setup();
    handlerWrites(store, '{"data":1}');
    await store.delete(key);
    await nextTurn();
    await nextTurn();
    expect(inner.get(key)).toBeUndefined();
  });

  it('a body over the entry limit is neither held nor stored', async () => {
    const { inner, writes, store } = setup(16);
    handlerWrites(store, 'x'.repeat(40), 4);
    await nextTurn();
    await nextTurn();
    expect(writes).not.toHaveBeenCalled();
    expect(inner.get(key)).toBeUndefined();
  });

  it('a destroyed write is dropped, and a value the store rejects fails nothing', async () => {
    const { inner, writes, store } = setup();
    const stream = store.createWriteStream(key, value)!;
    stream.write(Buffer.from('partial'));
    stream.destroy(new Error('upstream reset'));
    stream.end();
    const rejected = store.createWriteStream(key, { ...value, statusCode: 'two hundred' as unknown as number })!;
    rejected.write(Buffer.from('{}'));
    rejected.end();
    await nextTurn();
    await nextTurn();
    expect(writes).toHaveBeenCalledTimes(1);
    expect(inner.get(key)).toBeUndefined();
  });
});
