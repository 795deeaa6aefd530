/**
 * An esbuild plugin that treats the packages `pattern` matches as free of side effects at import
 * (as if their package.json said `"sideEffects": false`), so that esbuild drops the modules and
 * top-level statements of theirs nothing uses. Only for packages checked to have none: a module
 * kept for what it does when imported would be lost.
 */
import type { Plugin } from 'esbuild';

export function withoutSideEffects(pattern: RegExp): Plugin {
  return {
    name: 'without-side-effects',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async ({ path, kind, resolveDir, importer, pluginData }) => {
        if ((pluginData as { inner?: boolean } | undefined)?.inner) return undefined;
        const resolved = await build.resolve(path, { kind, resolveDir, importer, pluginData: { inner: true } });
        // Unresolvable (an optional require in a try block): esbuild decides, as without this plugin.
        if (resolved.errors.length > 0) return undefined;
        if (!pattern.test(resolved.path)) return resolved;
        return { ...resolved, sideEffects: false };
      });
    },
  };
}
