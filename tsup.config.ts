import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { defineConfig } from 'tsup';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

// One ESM bundle for the CLI. Dependencies stay external: npm installs them, and bundling the
// SDK would duplicate zod instances across the schema boundary.
export default defineConfig({
  entry: { cli: 'src/cli.ts', precompute: 'src/mcp/precompute.ts' },
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
  // Record the initialize and tools/list answers from the built server, so stdio can send them
  // before the SDK has loaded (src/mcp/static-answers.ts); the recorder itself is not shipped. The
  // query string defeats the module cache in watch mode.
  async onSuccess() {
    const url = pathToFileURL(`${process.cwd()}/dist/precompute.js`);
    const { precomputeStaticAnswers } = (await import(`${url.href}?t=${Date.now()}`)) as typeof import('./src/mcp/precompute.js');
    writeFileSync('dist/static-answers.json', `${JSON.stringify(await precomputeStaticAnswers())}\n`);
    rmSync('dist/precompute.js');
  },
});
