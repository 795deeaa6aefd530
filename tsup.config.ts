import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDefines } from './build-defines.js';
import { defineConfig } from 'tsup';
import { buildViews } from './scripts/build-views.js';
import { lazyCommanderBuiltins } from './scripts/lazy-builtins.js';
import { minifyDependencies } from './scripts/minify-dependencies.js';
import { writeThirdParty } from './scripts/third-party.js';
import { buildOfflineList } from './scripts/offline-list.js';
import { buildToolCatalog } from './scripts/tool-catalog.js';
import { withoutSideEffects } from './scripts/without-side-effects.js';

const defines = buildDefines();
// What tools/list answers is the same on every start: converted from the zod schemas here, once; and
// offline, so is the hosted surface's list the bridge offers beside ours.
const define = {
  ...defines,
  __SERVICE_MCP_TOOL_CATALOG__: JSON.stringify(await buildToolCatalog(defines)),
  __SERVICE_MCP_OFFLINE_LIST__: JSON.stringify(await buildOfflineList(defines)),
};
const root = fileURLToPath(new URL('./', import.meta.url));
/**
 * The SDK's server side declares no `sideEffects`, so esbuild would keep, and every start would run,
 * each of its top-level zod schemas and its default JSON Schema validator (Ajv), used or not. It has
 * no side effects at import; saying so lets esbuild drop what we never reach.
 */
const SDK_SERVER = /[\\/]node_modules[\\/]@modelcontextprotocol[\\/](?:server|core|node|ext-apps)[\\/]/;

// The CLI with every dependency bundled: the package has no runtime dependencies, so users run
// exactly what CI tested. Code splitting keeps each dynamic import() a chunk of its own, loaded
// only when used (undici at the first live request, @redis/client with --redis-url, OpenTelemetry
// when telemetry is on). The MCP Apps views are browser documents, bundled whole into dist/apps
// once the CLI is built, since tsup's clean would empty dist/ under a build running beside it.
export default defineConfig({
  entry: { cli: 'src/app/cli.ts' },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  outDir: 'dist',
  clean: true,
  sourcemap: false,
  splitting: true,
  noExternal: [/.*/],
  // A package's ES build where it has one (most OpenTelemetry packages): esbuild can shake it, and
  // import() of it gives its named exports, which import() of CommonJS does not (Node's rule).
  // Node 22 has every Unicode property escape; esbuild, unsure of the target's Unicode tables, would
  // rewrite such a literal as `new RegExp(…)` in place, which builds a RegExp each time the code
  // runs (job_id's lone-surrogate check on every get_job, among others).
  esbuildOptions: (options) => {
    options.mainFields = ['module', 'main'];
    options.supported = { ...options.supported, 'regexp-unicode-property-escapes': true };
  },
  // Imports of built-ins keep their node: prefix (every Node that engines admits reads it), and so
  // reach esbuildPlugins, which tsup's own removal of it would resolve first.
  removeNodeProtocol: false,
  esbuildPlugins: [lazyCommanderBuiltins, withoutSideEffects(SDK_SERVER), minifyDependencies],
  // Bundled CommonJS (undici, @redis/client) calls require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  // Which package went into which chunk: the notices, the SBOM and the tests read it (build/metafile.json).
  metafile: true,
  dts: false,
  define,
  onSuccess: async () => {
    mkdirSync(`${root}build`, { recursive: true });
    renameSync(`${root}dist/metafile-esm.json`, `${root}build/metafile.json`);
    const views = await buildViews({ outDir: new URL('./dist/apps/', import.meta.url), define: defines });
    const inputs = Object.assign({}, ...views.map((metafile) => metafile.inputs)) as Record<string, unknown>;
    writeFileSync(`${root}build/metafile-views.json`, JSON.stringify({ inputs }));
    const cli = JSON.parse(readFileSync(`${root}build/metafile.json`, 'utf8')) as { inputs: Record<string, unknown> };
    writeThirdParty({ metafiles: [cli, { inputs }], root, outDir: `${root}dist` });
  },
});
