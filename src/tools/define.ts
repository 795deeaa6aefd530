/**
 * A tool is defined once: name, title, description, input schema, the schema of its `data`, the
 * one client call it makes and its renderer. Every surface (stdio, HTTP, `tools`, `call`) reads
 * these definitions through the registry in index.ts.
 */
import type * as z from 'zod';
import type { ApiClient } from '../api/client.js';
import type { ApiResult } from '../api/answers.js';
import type { CallOptions } from '../api/send-loop.js';
import type { ErrorKind } from '../contract/errors.js';
import type { OperationId } from '../contract/operations.js';
import type { ToolName } from '../contract/tool-names.js';
import type { ViewDefinition } from '../contract/views.js';
import type { Freshness, Mode } from '../api/provenance-record.js';
import type { HostedTool } from '../hosted/admit.js';
import type { HostedBridge } from '../hosted/bridge.js';

export interface ToolContext extends CallOptions {
  client: ApiClient;
  mode: Mode;
  /** The bridge to the deployment's hosted tools, unless --no-bridge. */
  bridge?: HostedBridge | undefined;
}

export interface FailureNote {
  side: string;
  more: string;
}

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject, Data = unknown> {
  name: ToolName;
  title: string;
  /** Written for a model choosing a tool: when to use it, key arguments, what comes back. */
  description: string;
  /** The REST operation it calls (the spec's id), matched against the deployed catalog. */
  operation: OperationId;
  input: Input;
  /** Example arguments for the README and `--help`; a test checks they satisfy `input`. */
  example: z.input<Input>;
  /** Schema of `structuredContent.data`: what the API returned, unknown members kept. */
  data: z.ZodType<Data>;
  call(args: z.output<Input>, context: ToolContext): Promise<ApiResult<Data>>;
  /** Recovery hints that say more than the generic one for an error kind, for this tool. */
  hints?: Partial<Record<ErrorKind, string>>;
  render(data: Data, args: z.output<Input>, result: ApiResult<Data>): string;
  /**
   * What the data says of its own freshness beyond the meta (a stated cadence, each job's last_seen),
   * for the provenance; a tool's outputSchema lists the provenance members it says (run.ts).
   */
  freshness?: { cadence?(data: Data): unknown; lastSeen?(data: Data): Freshness['lastSeen'] };
  /** A member of structuredContent besides data, meta and provenance: its key, schema and making. */
  extra?: { key: string; schema: z.ZodType; build(data: Data, result: ApiResult<Data>): unknown };
  /**
   * What the tool can still say when its call fails: `side` leads the error's first line (whose
   * problem it is), `more` follows the hint (check_api_health: this server's state).
   */
  failed?(kind: ErrorKind, context: ToolContext): FailureNote | undefined;
  /** The MCP Apps view that shows this tool's structuredContent to hosts that render views. */
  view?: ViewDefinition;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry holds tools of many input types
export type AnyTool = ToolDefinition<any, any>;

/** A tool as every surface offers it: ours, or one bridged from the deployment's hosted surface. */
export type ExposedTool = AnyTool | HostedTool;

export const isHostedTool = (tool: ExposedTool): tool is HostedTool => !('call' in tool);

export const TOOL_ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

export function defineTool<Input extends z.ZodObject, Data>(
  definition: ToolDefinition<Input, Data>,
): ToolDefinition<Input, Data> {
  return definition;
}
