/** The store of validated results the response cache holds fresh: bounded, frozen, gone when stale. */
import { describe, expect, it } from 'vitest';
import { FreshResults } from '../../../src/api/fresh-results.js';

describe('FreshResults', () => {
  it('hands out the same frozen value with its age until the cache says it is stale', () => {
    let now = 10_000;
    const results = new FreshResults<{ jobs: Array<{ id: string }> }>(8, () => now);
    const value = { jobs: [{ id: 'a' }] };
    results.set('/p', value, { storedAt: 9_000, freshUntil: 70_000 });
    expect(results.get('/p')).toEqual({ value, ageS: 1 });
    expect(Object.isFrozen(value.jobs[0])).toBe(true);
    now = 69_999;
    expect(results.get('/p')?.ageS).toBe(61);
    now = 70_000;
    expect(results.get('/p')).toBeUndefined();
    expect(results.size).toBe(0);
  });

  it('keeps nothing already stale, and drops the least recently used beyond its bound', () => {
    const now = 0;
    const results = new FreshResults<number>(2, () => now);
    results.set('stale', 1, { storedAt: 0, freshUntil: 0 });
    expect(results.size).toBe(0);
    results.set('a', 1, { storedAt: 0, freshUntil: 10 });
    results.set('b', 2, { storedAt: 0, freshUntil: 10 });
    results.get('a');
    results.set('c', 3, { storedAt: 0, freshUntil: 10 });
    expect(results.get('b')).toBeUndefined();
    expect(results.get('a')?.value).toBe(1);
    expect(results.get('c')?.value).toBe(3);
  });
});
