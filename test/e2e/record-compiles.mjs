/**
 * Preloaded into the built binary by the zod-jit test (NODE_OPTIONS=--import): appends a line to
 * $RECORD_COMPILES_FILE for each function the process compiles from source text at run time
 * (`new Function`, as zod makes its parsers), with the size of the body.
 */
import { appendFileSync } from 'node:fs';

const file = process.env.RECORD_COMPILES_FILE;
if (file)
  globalThis.Function = new Proxy(Function, {
    construct(target, args, newTarget) {
      appendFileSync(file, `${String(args.at(-1) ?? '').length}\n`);
      return Reflect.construct(target, args, newTarget);
    },
  });
