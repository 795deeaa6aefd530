/**
 * Preloaded into the built binary by the chunk test (NODE_OPTIONS=--import): appends the URL of
 * every module the process loads to $RECORD_LOADS_FILE. A loader hook sees each module once, as
 * Node's own loader resolves it, with no hook in the binary; written as it goes, since a stdio
 * server may end by signal, with no exit event to flush in.
 */
import { appendFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.RECORD_LOADS_FILE;
if (file)
  registerHooks({
    load(url, context, nextLoad) {
      appendFileSync(file, `${url}\n`);
      return nextLoad(url, context);
    },
  });
