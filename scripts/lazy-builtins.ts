/**
 * An esbuild plugin that gives commander the two Node built-ins it imports for what this CLI never
 * or seldom does, loaded at their first use instead of as every start begins: node:child_process
 * (for executable subcommands, of which there are none) and node:util (stripVTControlCharacters, for
 * help text). A static import loads a built-in before the first line runs, and an ESM import of
 * node:util reads every export it has, each loading more: with node:crypto (src/lib/builtins.ts),
 * 39 built-in modules and bindings and about 5 ms of every start (docs/benchmarks.md). Should commander import anything
 * else from them, the build fails on the missing export.
 */
import type { Plugin } from 'esbuild';

const COMMANDER = /[\\/]node_modules[\\/]commander[\\/]/;

const SHIMS: Record<string, string> = {
  'node:child_process':
    "export default new Proxy({}, { get: (_, key) => process.getBuiltinModule('node:child_process')[key] });",
  'node:util':
    "export const stripVTControlCharacters = (text) => process.getBuiltinModule('node:util').stripVTControlCharacters(text);",
};

export const lazyCommanderBuiltins: Plugin = {
  name: 'lazy-commander-builtins',
  setup(build) {
    build.onResolve({ filter: /^node:(child_process|util)$/ }, ({ path, importer }) =>
      COMMANDER.test(importer) ? { path, namespace: 'lazy-builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, ({ path }) => ({ contents: SHIMS[path], loader: 'js' }));
  },
};
