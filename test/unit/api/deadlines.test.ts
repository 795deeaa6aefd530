/**
 * Request deadlines share one timer (deadlines.ts): each item expires at its own deadline and not
 * before, a deleted one never does, and requests one after another arm no new timer.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines } from '../../../src/api/deadlines.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Deadlines', () => {
  it('expires each item at its own deadline, earlier ones first, and never a deleted one', () => {
    const expired: string[] = [];
    const deadlines = new Deadlines<string>((item) => expired.push(item));
    deadlines.add('slow', 3000);
    vi.advanceTimersByTime(500);
    deadlines.add('quick', 1000); // due before the timer armed for 'slow'
    deadlines.delete(deadlines.add('dropped', 1000));
    vi.advanceTimersByTime(999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['quick']);
    vi.advanceTimersByTime(1499);
    expect(expired).toEqual(['quick']);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['quick', 'slow']);
  });

  it('keeps the others when one in the middle goes, and survives an expiry that deletes another', () => {
    const expired: string[] = [];
    const handles = new Map<string, ReturnType<Deadlines<string>['add']>>();
    const deadlines = new Deadlines<string>((item) => {
      expired.push(item);
      // 'a' and 'b' share a fate: whichever expires first ends the other, whose deadline goes with it.
      if (item === 'a') deadlines.delete(handles.get('b'));
      if (item === 'b') deadlines.delete(handles.get('a'));
    });
    for (const [name, ms] of [['a', 100], ['b', 100], ['c', 100], ['d', 200], ['e', 300]] as const) handles.set(name, deadlines.add(name, ms));
    deadlines.delete(handles.get('c'));
    deadlines.delete(handles.get('c')); // twice is harmless
    vi.advanceTimersByTime(100);
    expect(expired).toHaveLength(1);
    expect(['a', 'b']).toContain(expired[0]);
    vi.advanceTimersByTime(100);
    expect(expired.slice(1)).toEqual(['d']);
    vi.advanceTimersByTime(100);
    expect(expired.slice(1)).toEqual(['d', 'e']);
  });

  it('arms one timer for requests that come one after another, and it holds no process open', () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const deadlines = new Deadlines<number>(() => {
      throw new Error('nothing should expire');
    });
    for (let i = 0; i < 100; i++) {
      const deadline = deadlines.add(i, 15_000);
      vi.advanceTimersByTime(1);
      deadlines.delete(deadline);
    }
    expect(setTimer).toHaveBeenCalledTimes(1);
    const timer = setTimer.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    vi.advanceTimersByTime(20_000);
    expect(vi.getTimerCount()).toBe(0);
  });
});
