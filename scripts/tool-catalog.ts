/**
 * The tools/list entries, evaluated once at build time: the registry's zod schemas converted to
 * JSON Schema by the same code (src/tools/tools-list.ts) that would otherwise run on every start.
 * The registry is evaluated at build (build-eval.ts) and its catalog returned, for tsup to inject as
 * __SERVICE_MCP_TOOL_CATALOG__.
 */
import { evaluateAtBuild } from './build-eval.js';

export async function buildToolCatalog(define: Record<string, string>): Promise<unknown[]> {
  const { toolCatalog } = await evaluateAtBuild<{ toolCatalog: () => unknown[] }>(
    'tool-catalog',
    "export { toolCatalog } from './src/tools/tools-list.ts';",
    define,
  );
  return toolCatalog();
}
