#!/usr/bin/env node
// Thin launcher: enable Node's on-disk compile cache (faster cold starts under npx), then load the bundle.
import module from 'node:module';

const [major] = process.versions.node.split('.').map(Number);
if (major < 22) {
  process.stderr.write(`service-mcp needs Node.js 22 or later; this is ${process.version}.\n`);
  process.exit(2);
}
module.enableCompileCache?.();
await import('../dist/cli.js');
