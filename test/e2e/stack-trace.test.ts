/**
 * A stack trace from the bundle still says where in our code it came from. We ship no source
 * maps: our own code is bundled unminified (only dependencies are minified), so a frame names our
 * function and a line of the chunk, and the `// src/<file>.ts` marker esbuild writes above each
 * module's code names the source file. Here an error thrown by our code inside the built chunk.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chunkContents } from './bundled.js';
import { ROOT } from './helpers.js';

/** The source file whose code holds `line` of `chunk`: the last `// src/…` marker above it. */
function sourceAt(chunk: string, line: number): string | undefined {
  const lines = readFileSync(chunk, 'utf8').split('\n').slice(0, line);
  return lines.findLast((text) => /^\/\/ src\/\S+\.ts$/.test(text))?.slice(3);
}

describe('stack traces from the bundle', () => {
  it('name our function and a line of its chunk, under the marker of its source file', () => {
    const [chunk] = [...chunkContents()].find(([, contents]) => contents.has('src/tools/index.ts'))!;
    const script = `const { toolSet } = await import(${JSON.stringify(pathToFileURL(chunk).href)});
try { toolSet(['no_such_tool']); } catch (error) { process.stdout.write(error.stack); }`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const frame = /^\s+at toolSet \((file:\/\/\S+):(\d+):\d+\)$/m.exec(run.stdout);
    expect(frame, run.stdout).not.toBeNull();
    expect(frame![1]).toBe(pathToFileURL(chunk).href);
    expect(sourceAt(chunk, Number(frame![2]))).toBe('src/tools/index.ts');
    expect(join(ROOT, 'dist')).toBe(join(chunk, '..'));
  });
});
