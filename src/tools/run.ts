/**
 * The one boundary between a tool call and its result: validates arguments (nothing is sent when
 * they are bad), makes the call, renders text, attaches structuredContent, and turns every thrown
 * error into an `isError` result whose text starts with its stable kind and a recovery hint.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { buildProvenance } from '../api/provenance-record.js';
import { ProvenanceSchema } from '../contract/provenance.js';
import { ResponseMetaSchema } from '../contract/schemas.js';
import { passes } from '../lib/compiled.js';
import { newCallRecord, type CallRecord } from '../obs/call-record.js';
import { fictionNotice, renderProvenance } from '../render/provenance-line.js';
import { counted } from './calls-in-flight.js';
import { isHostedTool, type AnyTool, type ExposedTool, type ToolContext } from './define.js';
import { errorResult, LOCAL_ARGUMENT_HINT, toErrorResult } from './error-result.js';
import { describeIssues } from './issues.js';
import { runHostedTool } from './run-hosted.js';

/** The schema of every tool's structuredContent. */
export function outputSchemaOf(tool: AnyTool) {
  return z.object({
    data: tool.data,
    meta: ResponseMetaSchema,
    provenance: ProvenanceSchema,
    ...(tool.extra ? { [tool.extra.key]: tool.extra.schema } : {}),
    notices: z.array(z.string()).optional(),
  });
}

function acceptedArguments(tool: AnyTool): string[] {
  return Object.keys(tool.input.shape as Record<string, unknown>);
}

/** Validates the raw arguments; on failure, the error result (and no request). */
function parseArguments(
  tool: AnyTool,
  raw: unknown,
  record: CallRecord,
): { ok: true; args: unknown } | { ok: false; result: CallToolResult } {
  // Input schemas are strict objects without transforms or defaults: valid arguments are their own parse result.
  const args = raw ?? {};
  if (passes(tool.input, args)) return { ok: true, args };
  const parsed = tool.input.safeParse(args, { reportInput: true });
  if (parsed.success) return { ok: true, args: parsed.data };
  return {
    ok: false,
    result: errorResult(
      'invalid_argument',
      describeIssues(parsed.error.issues, acceptedArguments(tool)),
      LOCAL_ARGUMENT_HINT,
      record,
    ),
  };
}

/**
 * Runs one call, of ours or of a bridged tool (run-hosted.ts), filling in `record` as it goes (the
 * caller's, to read once the call is done): the boundary every surface calls.
 */
export function runTool(
  tool: ExposedTool,
  rawArgs: unknown,
  context: ToolContext,
  record: CallRecord = newCallRecord(tool.name),
): Promise<CallToolResult> {
  return isHostedTool(tool)
    ? runHostedTool(tool, rawArgs, context, record)
    : runOwnTool(tool, rawArgs, context, record);
}

async function runOwnTool(
  tool: AnyTool,
  rawArgs: unknown,
  context: ToolContext,
  record: CallRecord,
): Promise<CallToolResult> {
  const parsed = parseArguments(tool, rawArgs, record);
  record.arguments = parsed.ok ? 'valid' : 'invalid';
  if (!parsed.ok) return parsed.result;
  return counted(() => callOwnTool(tool, parsed.args, context, record));
}

async function callOwnTool(
  tool: AnyTool,
  args: unknown,
  context: ToolContext,
  record: CallRecord,
): Promise<CallToolResult> {
  try {
    const result = await tool.call(args, { ...context, log: record });
    const provenance = buildProvenance(result, context.mode, tool.freshness?.(result.data));
    // Fiction is said first, before any figure, and in the same words in structuredContent.notices.
    const fiction = fictionNotice(provenance);
    const notices = fiction ? [fiction] : [];
    const body = `${tool.render(result.data, args, result)}\n${renderProvenance(provenance)}`;
    const text = fiction ? `${fiction}\n${body}` : body;
    return (record.result = {
      content: [{ type: 'text', text }],
      structuredContent: {
        data: result.data,
        meta: result.meta,
        provenance,
        ...(tool.extra ? { [tool.extra.key]: tool.extra.build(result.data, result) } : {}),
        ...(notices.length > 0 ? { notices } : {}),
      },
    });
  } catch (error) {
    return toErrorResult(error, tool, record, context);
  }
}
