import { describe, expect, it } from 'vitest';

describe('runtime', () => {
  it('runs on Node 22 or later (a silent fallback to the machine Node 20 must fail)', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(major, `tests are running on Node ${process.version}`).toBeGreaterThanOrEqual(22);
  });
});
