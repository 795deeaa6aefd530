import { describe, expect, it } from 'vitest';
import { CallerLabels, MAX_CALLERS } from '../../../src/telemetry/metrics.js';

describe('caller labels', () => {
  it('keep the first callers seen, each as itself, and count every later one as _OTHER', () => {
    const labels = new CallerLabels();
    const first = Array.from({ length: MAX_CALLERS }, (_, i) => `oauth:subject-${i}`);
    expect(first.map((caller) => labels.label(caller))).toEqual(first);
    expect(labels.label('ip:203.0.113.7')).toBe('_OTHER');
    expect(labels.label('oauth:subject-0')).toBe('oauth:subject-0');
    const distinct = new Set(Array.from({ length: 10_000 }, (_, i) => labels.label(`ip:10.0.${i >> 8}.${i & 255}`)));
    expect(distinct).toEqual(new Set(['_OTHER']));
  });
});
