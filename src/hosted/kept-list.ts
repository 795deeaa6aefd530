/**
 * Where a hosted list is kept beyond the bridge that read it: in Redis for the other replicas
 * (--redis-url), and in a file of the user's cache directory for the next run, so that a start need
 * not wait for the surface before its first tools/list. Either holds the raw listing, which is
 * admitted again (admit.ts) wherever it is taken up, and the time of the read it came from: its age
 * is the read's, never the file's or the key's.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SharedState } from '../api/redis/index.js';
import { isRecord } from '../lib/is-record.js';
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

/**
 * Lists kept at most, one per base URL: a developer whose mock-api takes a new port each run would
 * otherwise add a file a run for ever. The least recently written go first.
 */
export const KEPT_LISTS = 16;

/** The list file of one base URL, read once at start (synchronously: it is small, and the first list waits on nothing). */
export interface ListFile {
  read(): Listing | undefined;
  write(listing: Listing): void;
}

/**
 * `dir`'s file for `baseUrl` (named by a hash of it, so that two deployments never read each other's
 * list). A file that cannot be read is no list; one that cannot be written is logged at debug and
 * left: the next start reads the surface, as every start did before there was a file.
 */
export function listFile(dir: string, baseUrl: string, logger: Logger): ListFile {
  const name = `hosted-list-${createHash('sha256').update(baseUrl).digest('hex').slice(0, 16)}.json`;
  const path = join(dir, name);
  return {
    read: () => {
      try {
        return parseListing(readFileSync(path, 'utf8'));
      } catch {
        return undefined;
      }
    },
    write: (listing) => {
      // Synchronous (a small file, once a read): a `tools` or `call` that exits right after its
      // answer keeps it too. Written whole under another name, then renamed: no reader sees half.
      const partial = `${path}.${process.pid}.tmp`;
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        writeFileSync(partial, JSON.stringify(listing), { mode: 0o600 });
        renameSync(partial, path);
        const kept = readdirSync(dir)
          .filter((file) => /^hosted-list-[0-9a-f]{16}\.json$/.test(file))
          .map((file) => ({ file, at: statSync(join(dir, file)).mtimeMs }))
          .sort((a, b) => b.at - a.at);
        for (const { file } of kept.slice(KEPT_LISTS)) unlinkSync(join(dir, file));
      } catch (error) {
        logger.debug(`hosted list not kept in ${path}: ${(error as Error).message}`);
      }
    },
  };
}
