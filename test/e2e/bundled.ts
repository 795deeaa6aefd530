/**
 * Which packages the bundle's chunks hold, from esbuild's metafile (build/metafile.json, written
 * by the build): module URLs a process loaded, turned into the packages whose code they carry.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './helpers.js';

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

/** The package an input file belongs to (the innermost node_modules), or the input itself for ours. */
const packageOf = (input: string) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? input;

/** Each dist/ file's absolute path, with the packages (and our own source files) its code comes from. */
export function chunkContents(): Map<string, Set<string>> {
  const metafile = JSON.parse(readFileSync(join(ROOT, 'build', 'metafile.json'), 'utf8')) as Metafile;
  return new Map(
    Object.entries(metafile.outputs).map(([path, output]) => [
      join(ROOT, path),
      new Set(Object.keys(output.inputs).map(packageOf)),
    ]),
  );
}

/** The packages and source files whose code the loaded modules (file: URLs or paths) carry, sorted. */
export function packagesLoaded(loaded: Iterable<string>): string[] {
  const chunks = chunkContents();
  const found = new Set<string>();
  for (const entry of loaded) {
    const path = entry.startsWith('file:') ? fileURLToPath(entry) : entry;
    for (const name of chunks.get(path) ?? []) found.add(name);
  }
  return [...found].sort();
}
