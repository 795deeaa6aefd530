/**
 * An esbuild plugin for the CLI bundle: each dependency's files are minified (whitespace and
 * syntax, names kept) as they are loaded, our own src/ is not. What users install stays small
 * (undici and @redis/client are CommonJS, which esbuild cannot tree-shake), while a stack trace
 * through our code still shows readable lines under each module's `// src/...` marker and the
 * functions by their names.
 */
import { readFile } from 'node:fs/promises';
import { transform, type Plugin } from 'esbuild';

export const minifyDependencies: Plugin = {
  name: 'minify-dependencies',
  setup(build) {
    // The bundle's own target and feature overrides: a dependency's regular expressions are read as ours are.
    const { target, supported } = build.initialOptions;
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      // `format` is left unset: an ES module stays one, a CommonJS module keeps its require() calls.
      const { code } = await transform(source, {
        loader: 'js',
        minify: true,
        ...(target === undefined ? {} : { target }),
        ...(supported === undefined ? {} : { supported }),
        sourcefile: path,
      });
      return { contents: code, loader: 'js' };
    });
  },
};
