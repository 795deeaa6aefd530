/**
 * A small file kept in the user's cache directory between runs, one per key (a base URL) and kind,
 * so that a start need not wait for what an earlier run already read. Reads and writes are
 * synchronous (a few KB, once a read): a `tools` or `call` that exits right after its answer keeps
 * it too, and a start reads it before anything waits on it. A file that cannot be read is no file;
 * one that cannot be written is reported and left: the next start reads the API, as it would have.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeCrypto } from './builtins.js';

/**
 * Files of one kind kept at most, one per key: a developer whose mock-api takes a new port each run
 * would otherwise add a file a run for ever. The least recently written go first.
 */
export const KEPT_FILES = 16;

export interface KeptFile {
  read(): string | undefined;
  write(text: string): void;
}

/** `dir`'s `kind` file for `key`, named by a hash of the key, so that two deployments never read each other's. */
export function keptFile(dir: string, kind: string, key: string, onWriteError: (message: string) => void): KeptFile {
  const named = new RegExp(`^${kind}-[0-9a-f]{16}\\.json$`);
  const path = join(dir, `${kind}-${nodeCrypto().createHash('sha256').update(key).digest('hex').slice(0, 16)}.json`);
  return {
    read: () => {
      try {
        return readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
    },
    write: (text) => {
      // Written whole under another name, then renamed: no reader sees half.
      const partial = `${path}.${process.pid}.tmp`;
      try {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        writeFileSync(partial, text, { mode: 0o600 });
        renameSync(partial, path);
        const kept = readdirSync(dir)
          .filter((file) => named.test(file))
          .map((file) => ({ file, at: statSync(join(dir, file)).mtimeMs }))
          .sort((a, b) => b.at - a.at);
        for (const { file } of kept.slice(KEPT_FILES)) unlinkSync(join(dir, file));
      } catch (error) {
        onWriteError(`not kept in ${path}: ${(error as Error).message}`);
      }
    },
  };
}
