/**
 * Modules of src/ evaluated at build time: bundled by esbuild with the build's defines into build/
 * (packages stay external), then imported. A query per build: the module is evaluated afresh when
 * tsup rebuilds in watch mode.
 */
import { build } from 'esbuild';

/** Bundles `contents` (re-exports from src/, relative to the repository) as build/`name`.mjs and imports it. */
export async function evaluateAtBuild<T>(name: string, contents: string, define: Record<string, string>): Promise<T> {
  const outfile = new URL(`../build/${name}.mjs`, import.meta.url);
  await build({
    stdin: { contents, resolveDir: new URL('..', import.meta.url).pathname, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    define,
    outfile: outfile.pathname,
    logLevel: 'warning',
  });
  return (await import(`${outfile.href}?${Date.now()}`)) as T;
}
