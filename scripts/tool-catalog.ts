/**
 * The tools/list entries, evaluated once at build time: the registry's zod schemas converted to
 * JSON Schema by the same code (src/tools/tools-list.ts) that would otherwise run on every start.
 * The registry is bundled by esbuild with the build's defines into build/, imported, and its
 * catalog returned, for tsup to inject as __SERVICE_MCP_TOOL_CATALOG__.
 */
import { build } from 'esbuild';

export async function buildToolCatalog(define: Record<string, string>): Promise<unknown[]> {
  const outfile = new URL('../build/tool-catalog.mjs', import.meta.url);
  await build({
    stdin: {
      contents: "export { toolCatalog } from './src/tools/tools-list.ts';",
      resolveDir: new URL('..', import.meta.url).pathname,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    define,
    outfile: outfile.pathname,
    logLevel: 'warning',
  });
  // A query per build: the module is evaluated afresh when tsup rebuilds in watch mode.
  const { toolCatalog } = (await import(`${outfile.href}?${Date.now()}`)) as { toolCatalog: () => unknown[] };
  return toolCatalog();
}
