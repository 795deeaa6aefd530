/**
 * A bridged tool's call, with everything ours get: its arguments checked against the hosted
 * inputSchema and for candidate data before anything is sent, the bridge's call (deadline,
 * cancellation, the shared gate, progress), and the answer rendered by render/hosted-answer.ts.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isRecord } from '../lib/is-record.js';
import type { HostedTool } from '../hosted/admit.js';
import { hostedResult } from '../render/hosted-answer.js';
import { findCandidateData } from '../lib/candidate-data.js';
import type { CallRecord } from '../obs/call-record.js';
import type { ToolContext } from './define.js';
import { describeIssues } from './issues.js';
import { counted } from './calls-in-flight.js';
import { errorResult, LOCAL_ARGUMENT_HINT, toErrorResult } from './error-result.js';

/** The first string in `value` that holds candidate data, with its path. */
function candidateDataIn(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') {
    const found = findCandidateData(value);
    return found && `${path} must not contain ${found}: candidate data is never sent to the hosted surface`;
  }
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = candidateDataIn(item, `${path}[${i}]`);
      if (found) return found;
    }
  } else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      const found = candidateDataIn(item, path === '' ? key : `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

const propertiesOf = (tool: HostedTool): Record<string, unknown> => {
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  return isRecord(properties) ? properties : {};
};

/**
 * An integer where the hosted schema takes only a string goes as its digits, as ours does for
 * company_id: a job shows its company's id as an integer, and it must pass to a bridged tool as shown.
 */
function idsAsShown(tool: HostedTool, args: Record<string, unknown>): Record<string, unknown> {
  const properties = propertiesOf(tool);
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => {
      const schema = properties[key];
      return [key, Number.isSafeInteger(value) && isRecord(schema) && schema.type === 'string' ? String(value) : value];
    }),
  );
}

export async function runHostedTool(
  tool: HostedTool,
  rawArgs: unknown,
  context: ToolContext,
  record: CallRecord,
): Promise<CallToolResult> {
  const refuse = (message: string) => {
    record.arguments = 'invalid';
    return errorResult('invalid_argument', message, LOCAL_ARGUMENT_HINT, record);
  };
  const given = rawArgs ?? {};
  if (!isRecord(given)) return refuse('arguments must be a JSON object');
  const args = idsAsShown(tool, given);
  const parsed = tool.input.safeParse(args, { reportInput: true });
  if (!parsed.success) return refuse(describeIssues(parsed.error.issues, Object.keys(propertiesOf(tool))));
  const candidate = candidateDataIn(args, '');
  if (candidate) return refuse(candidate);
  record.arguments = 'valid';
  const { bridge, mode, signal, onWait, logSink, caller } = context;
  if (!bridge)
    return errorResult(
      'not_deployed',
      `${tool.name} is a bridged tool and the bridge is off`,
      'Call one of the tools listed.',
      record,
    );
  return counted(async () => {
    try {
      // The arguments as sent by the caller: the validator's output may have dropped members it does not know.
      // On the caller's share of upstream requests, as our own calls go (guarded-fetch.ts takes it).
      const answer = await bridge.call(tool, args, { signal, onWait, logSink, caller, log: record });
      return (record.result = hostedResult(tool, answer, mode));
    } catch (error) {
      return toErrorResult(error, undefined, record);
    }
  });
}
