/**
 * The tools/list entries, converted from the zod schemas: the zod object is the only schema. The
 * build converts them once (scripts/tool-catalog.ts runs this file) and injects the result, so a
 * start converts nothing; unbuilt (tests, the build itself) each is converted once per process.
 */
import { RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { Tool } from '@modelcontextprotocol/server';
import type { HostedTool } from '../hosted/admit.js';
import { firstSentence } from '../lib/text.js';
import { isHostedTool, TOOL_ANNOTATIONS, type AnyTool, type ExposedTool } from './define.js';
import { TOOLS } from './index.js';
import { listedInput, listedSchema } from './listed-schema.js';
import { outputSchemaOf } from './run.js';

/**
 * Our tool's entry. Its view link is written as ext-apps' registerAppTool writes it: the nested
 * `ui.resourceUri` and the flat key older hosts read. Every client gets it: a host that renders no
 * views ignores it, and the list stays the same for everyone (so its cache hint can say `public`).
 * The title is the tool's own (since 2025-06-18), not repeated in annotations: only a client of
 * 2025-03-26 reads it there, and would show the name instead, while every conversation paid for it.
 */
function describeTool(tool: AnyTool): Tool {
  const resourceUri = tool.view?.uri;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: listedSchema(tool.input, 'input'),
    outputSchema: listedSchema(outputSchemaOf(tool), 'output'),
    annotations: TOOL_ANNOTATIONS,
    ...(resourceUri ? { _meta: { ui: { resourceUri }, [RESOURCE_URI_META_KEY]: resourceUri } } : {}),
  };
}

/**
 * A bridged tool's entry: its cleaned listing (hosted/admit.ts). Its outputSchema is not relisted: a
 * listed schema obliges every answer to fit it (the spec's MUST, which the SDK enforces), and a
 * hosted answer may not; render/hosted-answer.ts passes structuredContent on only when it fits.
 * Its annotations are ours (CONTRACT.md: every tool): only a tool the deployment marks read-only is
 * bridged, and a read has no effect to repeat.
 */
function describeHosted(tool: HostedTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: listedInput(tool.inputSchema) as Tool['inputSchema'],
    annotations: TOOL_ANNOTATIONS,
  };
}

declare const __SERVICE_MCP_TOOL_CATALOG__: Tool[] | undefined;

/** The build's conversion of ours, by tool name (test/e2e/tool-catalog.test.ts holds it equal to a conversion now). */
const BUILT: ReadonlyMap<string, Tool> = new Map(
  typeof __SERVICE_MCP_TOOL_CATALOG__ === 'undefined'
    ? []
    : __SERVICE_MCP_TOOL_CATALOG__.map((tool) => [tool.name, tool]),
);

const described = new WeakMap<ExposedTool, Tool>();

/** The tools/list entry of each tool, converted once per process (a bridged tool once per hosted read). */
export function toolCatalog(tools: readonly ExposedTool[] = TOOLS): Tool[] {
  return tools.map((tool) => {
    let entry = described.get(tool);
    if (!entry)
      described.set(
        tool,
        (entry = isHostedTool(tool) ? describeHosted(tool) : (BUILT.get(tool.name) ?? describeTool(tool))),
      );
    return entry;
  });
}

/** A tool as `service-mcp tools` lists it, one line: its title and its description's first sentence. */
export const toolLine = (tool: ExposedTool): string => `${tool.title}: ${firstSentence(tool.description)}`;
