/**
 * Validated results of responses that the response cache holds fresh. Once the cache has answered
 * a path and said until when its copy may be reused without asking the API (cache.ts), the same
 * bytes need neither a trip through the HTTP stack nor parsing and contract validation again: the
 * result validated the first time is handed out until that moment. Freshness is the cache's own
 * decision (undici's RFC 9111 rules); this only remembers it. Results are frozen, since every
 * caller gets the same objects, and large bodies are not kept, since parsed objects cost several
 * times their bytes.
 */
import type { CacheFreshness } from './cache.js';

interface Entry<T> {
  value: T;
  freshness: CacheFreshness;
}

export const MAX_FRESH_RESULTS = 32;
/** Bodies above this are parsed per call rather than kept as objects. */
export const MAX_FRESH_BODY_CHARS = 64 * 1024;
/** Bodies up to this also keep their JSON text (a job's detail does; a 20-job page does not). */
export const MAX_FRESH_TEXT_CHARS = 8 * 1024;

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}

export class FreshResults<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly max: number = MAX_FRESH_RESULTS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The result under `key` and its age in whole seconds (as the cache's Age header counts), while fresh. */
  get(key: string): { value: T; ageS: number } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.now();
    if (now >= entry.freshness.freshUntil) {
      this.entries.delete(key);
      return undefined;
    }
    // Least recently used goes first: re-inserting moves this one to the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { value: entry.value, ageS: Math.max(0, Math.round((now - entry.freshness.storedAt) / 1000)) };
  }

  set(key: string, value: T, freshness: CacheFreshness): void {
    if (this.now() >= freshness.freshUntil) return;
    this.entries.delete(key);
    this.entries.set(key, { value: deepFreeze(value), freshness });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  get size(): number {
    return this.entries.size;
  }
}
