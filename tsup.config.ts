import { buildDefines } from './build-defines.js';
import { defineConfig } from 'tsup';
import { buildViews } from './scripts/build-views.js';

const define = buildDefines();

// One ESM bundle for the CLI. Dependencies stay external: npm installs them, and bundling the
// SDK would duplicate zod instances across the schema boundary. The MCP Apps views are browser
// documents, bundled whole (dependencies included) into dist/apps once the CLI is built, since
// tsup's clean would empty dist/ under a build running beside it.
export default defineConfig({
  entry: { cli: 'src/cli.ts' },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  // No source maps in the package: the snapshot's alone would double its size.
  sourcemap: false,
  splitting: true,
  dts: false,
  define,
  onSuccess: () => buildViews({ outDir: new URL('./dist/apps/', import.meta.url), define }),
});
