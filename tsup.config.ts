import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

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
  define: { __SERVICE_MCP_VERSION__: JSON.stringify(pkg.version) },
});
