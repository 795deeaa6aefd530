/**
 * Invented figures, the same on every run: a small hash of a company id and a label picks them,
 * so the offline surface's funding rounds and evidence items need no second snapshot and never
 * change between a test and a demo. They are fictional, like everything in the snapshot.
 */

/** A number in [0, 1) from a string (FNV-1a). */
export function unit(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 2 ** 32;
}

/** An ISO date `daysBefore` days before `end` (an ISO date-time). */
export function dateBefore(end: string, daysBefore: number): string {
  return new Date(Date.parse(end) - Math.round(daysBefore) * 86_400_000).toISOString().slice(0, 10);
}
