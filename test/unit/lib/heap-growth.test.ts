import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEAP_GROWTH_DELAY_MS, limitHeapGrowth } from '../../../src/lib/heap-growth.js';

const BOTH = ['--heap-growing-percent=100', '--semi-space-growth-factor=1'];

describe('limitHeapGrowth', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sets both flags after the start, not during it', () => {
    const set = vi.fn();
    expect(limitHeapGrowth([], '', set)).toEqual(BOTH);
    vi.advanceTimersByTime(HEAP_GROWTH_DELAY_MS - 1);
    expect(set).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(set.mock.calls).toEqual(BOTH.map((flag) => [flag]));
  });

  it.each([
    [['--heap-growing-percent=30'], '', [BOTH[1]]],
    [['--heap_growing_percent', '0'], '', [BOTH[1]]],
    [[], '--max-semi-space-size=64', [BOTH[0]]],
    [['--inspect', '--semi_space_growth_factor=4'], '--max-old-space-size=64', [BOTH[0]]],
    [['--min-semi-space-size=2', '--heap-growing-percent=80'], '', []],
  ])('gives way to what the user gave node: %j, NODE_OPTIONS %j', (execArgv, nodeOptions, expected) => {
    const set = vi.fn();
    expect(limitHeapGrowth(execArgv, nodeOptions, set)).toEqual(expected);
    vi.runAllTimers();
    expect(set.mock.calls).toEqual(expected.map((flag) => [flag]));
  });
});
