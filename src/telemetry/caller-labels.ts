/**
 * The caller label of the fair-share counter: a static token's name comes from the operator's
 * list, but an OAuth subject or a client address is whatever arrives. The first MAX_CALLERS seen
 * keep their own series; any later one is counted as `_OTHER`, so that a stream of new subjects
 * or addresses cannot grow `/metrics` without end.
 */
export const MAX_CALLERS = 100;

export class CallerLabels {
  private readonly seen = new Set<string>();

  constructor(private readonly max = MAX_CALLERS) {}

  label(caller: string): string {
    if (this.seen.has(caller)) return caller;
    if (this.seen.size >= this.max) return '_OTHER';
    this.seen.add(caller);
    return caller;
  }
}
