/**
 * The tools/list entries, converted from the zod schemas once per process: the zod object is the
 * only schema, and tools/list is answered from this cache rather than re-converted per request.
 */
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

export function describeTool(tool: AnyTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input'),
    outputSchema: jsonSchema(outputSchemaOf(tool), 'output') as Tool['outputSchema'],
    annotations: { title: tool.title, ...TOOL_ANNOTATIONS },
  };
}

let cached: Tool[] | undefined;

export function toolCatalog(): Tool[] {
  cached ??= TOOLS.map(describeTool);
  return cached;
}
