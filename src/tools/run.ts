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
import { fictionNotice, lastAnswerNotice, renderProvenance } from '../render/provenance-line.js';
import { counted } from './calls-in-flight.js';
import { isHostedTool, type AnyTool, type ExposedTool, type ToolContext } from './define.js';
import { errorResult, LOCAL_ARGUMENT_HINT, toErrorResult } from './error-result.js';
import { describeIssues } from './issues.js';
import { runHostedTool } from './run-hosted.js';

/**
 * The provenance members a tool's answers can carry: a cadence and staleness only where its data
 * states a cadence, last_seen ages only where it holds jobs. Each is listed in every conversation,
 * for every tool.
 */
function provenanceOf(tool: AnyTool) {
  const { cadence, lastSeen } = tool.freshness ?? {};
  return ProvenanceSchema.omit({
    ...(cadence ? {} : { cadence: true, stale: true }),
    ...(lastSeen ? {} : { last_seen_age_s: true }),
  } as const);
}

/** The schema of every tool's structuredContent. */
export function outputSchemaOf(tool: AnyTool) {
  return z.object({
    data: tool.data,
    meta: ResponseMetaSchema,
    provenance: provenanceOf(tool),
    ...(tool.extra ? { [tool.extra.key]: tool.extra.schema } : {}),
    notices: z.array(z.string()).optional(),
  });
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
  // Input schemas are strict objects without transforms or defaults: valid arguments are their own parse result.
  const raw = rawArgs ?? {};
  const parsed = passes(tool.input, raw)
    ? { success: true as const, data: raw }
    : tool.input.safeParse(raw, { reportInput: true });
  record.arguments = parsed.success ? 'valid' : 'invalid';
  if (!parsed.success) {
    const accepted = Object.keys(tool.input.shape as Record<string, unknown>);
    return errorResult('invalid_argument', describeIssues(parsed.error.issues, accepted), LOCAL_ARGUMENT_HINT, record);
  }
  const args = parsed.data;
  return counted(async () => {
    try {
      const result = await tool.call(args, { ...context, log: record });
      const { cadence, lastSeen } = tool.freshness ?? {};
      const provenance = buildProvenance(result, context.mode, {
        cadence: cadence?.(result.data),
        lastSeen: lastSeen?.(result.data),
      });
      // A last answer (not live) and fiction are said first, before any figure, and in the same
      // words in structuredContent.notices.
      const notices = [lastAnswerNotice(provenance), fictionNotice(provenance)].filter((n) => n !== undefined);
      const body = `${tool.render(result.data, args, result)}\n${renderProvenance(provenance)}`;
      const text = [...notices, body].join('\n');
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
  });
}
