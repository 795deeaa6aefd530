/**
 * Cache writes off the caller's path. undici's cache handler writes each storable response into a
 * Writable the store hands it, as the response arrives; MemoryCacheStore's is a full Node stream
 * per response, with nextTick callbacks for each write, its finish and its close, and all of them
 * ran before the response reached the caller: about 35 µs of every first request in the default
 * configuration, for an entry nobody reads until a later request. Here the handler writes into a
 * plain collector, and the store receives the response on the next turn of the event loop, after
 * the caller has it. A lookup or a delete that comes before that (in the same turn, from within
 * the process) first waits for the writes still pending, so nothing is missed or brought back.
 */
import { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import type { CacheKey, CacheValue, Store } from './cache.js';

/**
 * What the cache handler writes into: write, end and destroy, and on() for the events it listens
 * to ('drain', 'error', 'close'), none of which a collector needs to emit: it never pushes back.
 */
class Collector extends EventEmitter {
  private chunks: Buffer[] | undefined = [];
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly onEnd: (chunks: Buffer[]) => void,
  ) {
    super();
  }

  write(chunk: Buffer | string): boolean {
    if (!this.chunks) return true;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.bytes += bytes.length;
    // The store would refuse an entry this large; it is not held until then.
    if (this.bytes > this.maxBytes) this.chunks = undefined;
    else this.chunks.push(bytes);
    return true;
  }

  end(): this {
    const chunks = this.chunks;
    this.chunks = undefined;
    if (chunks) this.onEnd(chunks);
    return this;
  }

  destroy(): this {
    this.chunks = undefined;
    return this;
  }
}

/** `store`, with each write handed to it on the next turn of the event loop (see above). */
export function deferWrites(store: Store, maxEntryBytes: number): Store {
  const pending = new Map<() => Promise<void>, NodeJS.Immediate>();

  const write = (key: CacheKey, value: CacheValue, chunks: Buffer[]) =>
    new Promise<void>((resolve) => {
      let stream: Writable | undefined;
      try {
        stream = store.createWriteStream(key, value);
      } catch {
        return resolve(); // a value the store rejects is not kept; the response was delivered all the same
      }
      if (!stream) return resolve();
      stream.once('close', () => resolve());
      // As undici's handler does on a failed write: leave nothing half-stored behind.
      stream.on('error', () => void store.delete(key));
      for (const chunk of chunks) stream.write(chunk);
      stream.end();
    });

  const flush = (): Promise<void> => {
    const commits = [...pending.keys()];
    for (const timer of pending.values()) clearImmediate(timer);
    pending.clear();
    return Promise.all(commits.map((commit) => commit())).then(() => undefined);
  };

  return {
    get: (key: CacheKey) => (pending.size === 0 ? store.get(key) : flush().then(() => store.get(key))),
    createWriteStream(key: CacheKey, value: CacheValue) {
      return new Collector(maxEntryBytes, (chunks) => {
        const commit = () => write(key, value, chunks);
        pending.set(
          commit,
          setImmediate(() => {
            pending.delete(commit);
            void commit();
          }),
        );
      }) as unknown as Writable;
    },
    delete: (key: CacheKey) => (pending.size === 0 ? store.delete(key) : flush().then(() => store.delete(key))),
  } as Store;
}
