/**
 * Preloaded into the built binary by the heap-growth test (NODE_OPTIONS=--import): appends every
 * V8 flag the process sets at run time to $RECORD_FLAGS_FILE, then sets it as asked.
 */
import { appendFileSync } from 'node:fs';
import v8 from 'node:v8';

const file = process.env.RECORD_FLAGS_FILE;
const set = v8.setFlagsFromString;
if (file)
  v8.setFlagsFromString = (flags) => {
    appendFileSync(file, `${flags}\n`);
    set(flags);
  };
