/**
 * Where a hosted list is kept beyond the bridge that read it: in Redis for the other replicas
 * (--redis-url), and in a file of the user's cache directory for the next run, so that a start need
 * not wait for the surface before its first tools/list. Either holds the raw listing, which is
 * admitted again (admit.ts) wherever it is taken up, and the time of the read it came from: its age
 * is the read's, never the file's or the key's.
 */
import type { SharedState } from '../api/redis/index.js';
import { isRecord } from '../lib/is-record.js';
import { keptFile } from '../lib/kept-file.js';
import type { Logger } from '../obs/log.js';

/** A hosted list as read: what the surface listed, when (epoch ms), and where and in which era. */
export interface Listing {
  tools: unknown[];
  at: number;
  endpoint?: string | undefined;
  era?: string | undefined;
}

/** Where the list in hand came from: this process's read, another replica's, an earlier run's, or the build's. */
export type ListSource = 'surface' | 'replica' | 'earlier_run' | 'build';

/** Where the hosted list is shared between replicas (--redis-url): JSON text until an epoch ms. */
export type SharedListStore = SharedState['hostedList'];

/** A listing from JSON text, or undefined when the text is not one (a file or key of another version). */
export function parseListing(text: string | undefined): Listing | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value) || !Array.isArray(value.tools) || typeof value.at !== 'number') return undefined;
    const string = (member: unknown) => (typeof member === 'string' ? member : undefined);
    return { tools: value.tools, at: value.at, endpoint: string(value.endpoint), era: string(value.era) };
  } catch {
    return undefined;
  }
}

/** The list file of one base URL, read once at start (the first list waits on nothing). */
export interface ListFile {
  read(): Listing | undefined;
  write(listing: Listing): void;
}

/** `dir`'s list file for `baseUrl` (lib/kept-file.ts: one per base URL, 16 at most). */
export function listFile(dir: string, baseUrl: string, logger: Logger): ListFile {
  const file = keptFile(dir, 'hosted-list', baseUrl, (message) => logger.debug(`hosted list ${message}`));
  return { read: () => parseListing(file.read()), write: (listing) => file.write(JSON.stringify(listing)) };
}
