/**
 * The tools/list entries, converted from the zod schemas once per process: the zod object is the
 * only schema, and tools/list is answered from this cache rather than re-converted per request.
 */
import { RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TOOL_ANNOTATIONS, type AnyTool } from './define.js';
import { TOOLS } from './index.js';
import { outputSchemaOf } from './run.js';

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    // zod bounds every int by the safe-integer range; that says nothing to a client and costs bytes.
    override: ({ jsonSchema }) => {
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  }) as Record<string, unknown>;
  return rest as Tool['inputSchema'];
}

export interface CatalogOptions {
  /** The client renders MCP Apps views: link each tool that has one. */
  views?: boolean;
}

/**
 * The view link is written as ext-apps' registerAppTool writes it (which we cannot call: see
 * server.ts), the nested `ui.resourceUri` and the flat key older hosts read, so hosts see the
 * same `_meta` as from any server built on the helper.
 */
function viewMeta(tool: AnyTool): Tool['_meta'] {
  const resourceUri = tool.view!.uri;
  return { ui: { resourceUri }, [RESOURCE_URI_META_KEY]: resourceUri };
}

export function describeTool(tool: AnyTool, { views = false }: CatalogOptions = {}): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input'),
    outputSchema: jsonSchema(outputSchemaOf(tool), 'output') as Tool['outputSchema'],
    annotations: { title: tool.title, ...TOOL_ANNOTATIONS },
    ...(views && tool.view ? { _meta: viewMeta(tool) } : {}),
  };
}

const cached = new Map<boolean, Tool[]>();

export function toolCatalog({ views = false }: CatalogOptions = {}): Tool[] {
  let catalog = cached.get(views);
  if (!catalog) cached.set(views, (catalog = TOOLS.map((tool) => describeTool(tool, { views }))));
  return catalog;
}
