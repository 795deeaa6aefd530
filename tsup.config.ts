import { buildDefines } from './build-defines.js';
import { defineConfig } from 'tsup';

// One ESM bundle for the CLI. Dependencies stay external: npm installs them, and bundling the
// SDK would duplicate zod instances across the schema boundary.
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
  define: buildDefines(),
});
