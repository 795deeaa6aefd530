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
    deadlines.add('dropped', 1000);
    deadlines.delete('dropped');
    vi.advanceTimersByTime(999);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['quick']);
    vi.advanceTimersByTime(1499);
    expect(expired).toEqual(['quick']);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['quick', 'slow']);
  });

  it('arms one timer for requests that come one after another, and it holds no process open', () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const deadlines = new Deadlines<number>(() => {
      throw new Error('nothing should expire');
    });
    for (let i = 0; i < 100; i++) {
      deadlines.add(i, 15_000);
      vi.advanceTimersByTime(1);
      deadlines.delete(i);
    }
    expect(setTimer).toHaveBeenCalledTimes(1);
    const timer = setTimer.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    vi.advanceTimersByTime(20_000);
    expect(vi.getTimerCount()).toBe(0);
  });
});
