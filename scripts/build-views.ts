/**
 * Builds the MCP Apps views (src/apps/<id>/main.ts) into dist/apps/<id>.html: each one HTML
 * document with its script (bundled by esbuild for the browser, minified, tree-shaken) and the
 * shared stylesheet inlined, so a host can show it without fetching anything. Run by tsup after
 * the CLI bundle (tsup.config.ts).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { build, transform, type Metafile, type Plugin } from 'esbuild';
import { VIEW_LIST, type ViewDefinition } from '../src/contract/views.js';
import { withoutSideEffects } from './without-side-effects.js';

const ROOT = new URL('../', import.meta.url);

/**
 * The SDK's client package does not declare itself free of side effects, so esbuild keeps every
 * module of it that ext-apps' App reaches, used or not (OAuth, JSON Schema validators). It has
 * none at import time; saying so lets esbuild drop what the view never calls (about 70 KB).
 */
const SDK_CLIENT = /[\\/]node_modules[\\/]@modelcontextprotocol[\\/](?:client|core)[\\/]/;

/**
 * ext-apps imports zod as `import { z } from "zod/v4"` and reads every schema off that namespace
 * object; esbuild keeps a namespace object whole once it is passed on by name, so all of zod (its
 * 250 KB of locales too) would land in every view. Read as `import * as z`, the same members are
 * reached by name and the rest is shaken out. The day ext-apps imports zod that way itself, this
 * plugin can go; until then the build fails if the import it rewrites changes shape.
 */
const zodNamespaceImport: Plugin = {
  name: 'zod-namespace-import',
  setup(build) {
    build.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]ext-apps[\\/]dist[\\/].*\.js$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const contents = source.replace(/import\{z as ([\w$]+)\}from"zod\/v4"/g, 'import*as $1 from"zod/v4"');
      if (/import\s*\{[^}]*\bz\b[^}]*\}\s*from\s*["']zod\/v4["']/.test(contents))
        throw new Error(`${path}: its zod import changed shape; update zodNamespaceImport in scripts/build-views.ts`);
      return { contents, loader: 'js' };
    });
  },
};

/**
 * The document's own policy, as strict as the `_meta.ui.csp` it is served with (no origin at all):
 * inline script and style only, images only as data URLs. A host may add to its sandbox; it cannot
 * make this document fetch.
 */
const CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

function page(view: ViewDefinition, css: string, js: string): string {
  // Inlined code must not end its own element early; esbuild escapes these in strings, so this holds.
  if (/<\/script/i.test(js) || /<!--/.test(js) || /<\/style/i.test(css))
    throw new Error(`${view.id}: inlined code contains a closing tag`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<title>${view.title}</title>
<style>${css}</style>
</head>
<body>
<main id="app"><p class="status" role="status">Waiting for the tool result…</p></main>
<script>${js}</script>
</body>
</html>
`;
}

export interface BuildViewsOptions {
  outDir: URL;
  define: Record<string, string>;
}

/** Builds every view; returns esbuild's metafiles, whose inputs the notices and the SBOM list (scripts/third-party.ts). */
export async function buildViews({ outDir, define }: BuildViewsOptions): Promise<Metafile[]> {
  const stylesheet = await readFile(new URL('src/apps/shared/styles.css', ROOT), 'utf8');
  const { code: css } = await transform(stylesheet, { loader: 'css', minify: true });
  await mkdir(outDir, { recursive: true });
  return Promise.all(
    VIEW_LIST.map(async (view) => {
      const result = await build({
        entryPoints: [new URL(`src/apps/${view.id}/main.ts`, ROOT).pathname],
        bundle: true,
        format: 'iife',
        platform: 'browser',
        target: 'es2022',
        minify: true,
        write: false,
        metafile: true,
        define,
        plugins: [zodNamespaceImport, withoutSideEffects(SDK_CLIENT)],
        logLevel: 'warning',
      });
      const js = result.outputFiles[0]!.text.trimEnd();
      await writeFile(new URL(`${view.id}.html`, outDir), page(view, css.trimEnd(), js));
      return result.metafile;
    }),
  );
}
