/**
 * The tools/list entries, converted from the zod schemas: the zod object is the only schema. The
 * build converts them once (scripts/tool-catalog.ts runs this file) and injects the result, so a
 * start converts nothing; unbuilt (tests, the build itself) each is converted once per process.
 */
import { RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/server';
import type { Tool } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { HostedTool } from '../hosted/admit.js';
import { isHostedTool, TOOL_ANNOTATIONS, type AnyTool, type ExposedTool } from './define.js';
import { TOOLS } from './index.js';
import { outputSchemaOf } from './run.js';

/** The keywords that constrain one JSON type only: they go into that type's branch. */
const KEYWORDS_OF: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
};

/**
 * zod writes a nullable field as `type: ["string", "null"]` and a loose object's other members as
 * `additionalProperties: {}`: legal JSON Schema, but clients that map schemas onto a one-`type`
 * dialect (Gemini's function declarations) reject the first, and MCP Inspector's `--strict` check
 * flags both. The same contract, portably: one `anyOf` branch per type, and `true`.
 */
function portable(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(portable);
  if (typeof node !== 'object' || node === null) return;
  for (const child of Object.values(node)) portable(child);
  rewrite(node as Record<string, unknown>);
}

function rewrite(node: Record<string, unknown>): void {
  if (Array.isArray(node.type)) {
    const types = node.type as string[];
    delete node.type;
    node.anyOf = types.map((type) => {
      const branch: Record<string, unknown> = { type };
      for (const keyword of KEYWORDS_OF[type] ?? []) if (keyword in node) branch[keyword] = node[keyword];
      return branch;
    });
    for (const type of types) for (const keyword of KEYWORDS_OF[type] ?? []) delete node[keyword];
  }
  const extra = node.additionalProperties;
  if (typeof extra === 'object' && extra !== null && Object.keys(extra).length === 0) node.additionalProperties = true;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ jsonSchema }) => {
      // zod bounds every int by the safe-integer range; that says nothing to a client and costs bytes.
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    },
  }) as Record<string, unknown>;
  // After conversion: zod joins a nullable's types once its override has run.
  portable(rest);
  return rest as Tool['inputSchema'];
}

/**
 * Our tool's entry. Its view link is written as ext-apps' registerAppTool writes it: the nested
 * `ui.resourceUri` and the flat key older hosts read. Every client gets it: a host that renders no
 * views ignores it, and the list stays the same for everyone (so its cache hint can say `public`).
 */
function describeTool(tool: AnyTool): Tool {
  const resourceUri = tool.view?.uri;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input'),
    outputSchema: jsonSchema(outputSchemaOf(tool), 'output') as Tool['outputSchema'],
    annotations: { title: tool.title, ...TOOL_ANNOTATIONS },
    ...(resourceUri ? { _meta: { ui: { resourceUri }, [RESOURCE_URI_META_KEY]: resourceUri } } : {}),
  };
}

/**
 * A bridged tool's entry: its cleaned listing (hosted/admit.ts). Its outputSchema is not relisted: a
 * listed schema obliges every answer to fit it (the spec's MUST, which the SDK enforces), and a
 * hosted answer may not; render/hosted-answer.ts passes structuredContent on only when it fits.
 */
function describeHosted(tool: HostedTool): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, openWorldHint: true },
    // Says where it comes from, for clients and tooling (the bench counts ours apart); no model reads _meta.
    _meta: { [BRIDGED_META_KEY]: true },
  };
}

declare const __SERVICE_MCP_TOOL_CATALOG__: Tool[] | undefined;

/** The build's conversion of ours, by tool name (test/e2e/tool-catalog.test.ts holds it equal to a conversion now). */
const BUILT: ReadonlyMap<string, Tool> = new Map(
  typeof __SERVICE_MCP_TOOL_CATALOG__ === 'undefined'
    ? []
    : __SERVICE_MCP_TOOL_CATALOG__.map((tool) => [tool.name, tool]),
);

const BRIDGED_META_KEY = 'io.github.service-mcp/bridged';

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
