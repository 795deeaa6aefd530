/**
 * A hosted tool's answer as we pass it on: its text fenced as upstream data, its other content
 * blocks kept (up to a cap), its structuredContent only when declared and valid, and our provenance
 * line: endpoint and tool, retrieval, the age of each timestamp it states, fiction by its own word.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ageSeconds } from '../contract/age.js';
import type { Mode } from '../api/provenance-record.js';
import { sourceSaysFictional } from '../contract/provenance.js';
import { isRecord } from '../lib/is-record.js';
import { describeAge } from '../lib/age-words.js';
import { shownEndpoint } from './health.js';
import { fencedText } from '../lib/fence.js';
import { datum } from '../lib/text.js';
import type { HostedTool } from '../hosted/admit.js';
import type { HostedAnswer } from '../hosted/bridge.js';
import { HOSTED_CAPS } from '../hosted/caps.js';

/** Where the provenance travels as data, in the result's _meta. */
const PROVENANCE_META_KEY = 'io.github.service-mcp/provenance';

interface HostedProvenance {
  endpoint: string;
  tool: string;
  retrieved_at: string;
  /** The two facts our own provenance keeps apart, in its words (api/provenance-record.ts). */
  reached: Mode;
  fictional: boolean;
  /** Timestamps the answer states (its meta's, else the first ISO ones in its text), with their age at retrieval. */
  stated: Array<{ name: string; value: string; age_s: number | null }>;
}

const ISO = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g;
const STATED_KEYS = ['generated_at', 'computed_at', 'as_of', 'updated_at'];

function statedTimestamps(structured: unknown, text: string, at: number): HostedProvenance['stated'] {
  const meta =
    isRecord(structured) && isRecord(structured.meta) ? structured.meta : isRecord(structured) ? structured : {};
  const named = STATED_KEYS.flatMap((name) =>
    typeof meta[name] === 'string' ? [{ name, value: meta[name] as string }] : [],
  );
  const found =
    named.length > 0
      ? named
      : [...new Set(text.match(ISO) ?? [])].slice(0, 2).map((value) => ({ name: 'stated', value }));
  return found.map(({ name, value }) => ({ name, value, age_s: ageSeconds(value, at) }));
}

function saysFictional(structured: unknown, text: string): boolean {
  const meta = isRecord(structured) && isRecord(structured.meta) ? structured.meta : {};
  return sourceSaysFictional(meta.source) || /\bfictional\b/i.test(text);
}

/** structuredContent, if it may pass: declared and valid; else why it is dropped. */
function checkedStructure(
  tool: HostedTool,
  result: CallToolResult,
): { keep: unknown } | { dropped: string } | undefined {
  if (result.structuredContent === undefined) return undefined;
  if (!tool.output) return { dropped: 'the tool declares no outputSchema this server could read' };
  const parsed = tool.output.safeParse(result.structuredContent);
  if (parsed.success) return { keep: result.structuredContent };
  const issue = parsed.error.issues[0];
  return {
    dropped: `it does not match the tool's outputSchema (${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'})`,
  };
}

/** Where the rest of a text cut at its cap is, when structuredContent passes. */
const CUT_KEPT = 'the rest of the text is not passed on; structuredContent is passed on whole';

/** The next step after a hosted tool's own error, in the words our own hints use. */
const HOSTED_ERROR_HINT =
  'Hint: The hosted tool refused or failed on its own terms: read its words above, change what they name and call again, or use another tool.';

/** The closing line, in our own provenance line's words (render/provenance-line.ts), naming the endpoint and tool. */
function renderProvenanceLine(p: HostedProvenance): string {
  const parts = [`hosted tool ${datum(p.tool, 128)} at ${shownEndpoint(p.endpoint)}`];
  for (const { name, value, age_s } of p.stated) parts.push(`${name}: ${datum(value, 40)} (${describeAge(age_s)})`);
  if (p.stated.length === 0) parts.push('no timestamp stated');
  parts.push(`reached: ${p.reached}`, `fictional: ${p.fictional ? 'yes' : 'no'}`);
  // The ages say when it was retrieved; with none, the time does.
  if (p.stated.length === 0) parts.push(`retrieved ${p.retrieved_at.replace(/\.\d+Z$/, 'Z')}`);
  return `Provenance: ${parts.join(' · ')}`;
}

export function hostedResult(tool: HostedTool, answer: HostedAnswer, mode: Mode): CallToolResult {
  const { result } = answer;
  const blocks = Array.isArray(result.content) ? result.content.slice(0, HOSTED_CAPS.contentBlocks) : [];
  const text = blocks
    .flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
    .join('\n');
  const others = blocks.filter((block) => block.type !== 'text');
  const structure = checkedStructure(tool, result);
  const at = Date.parse(answer.retrievedAt);
  const fictional = mode === 'embedded' || saysFictional(result.structuredContent, text);
  const provenance: HostedProvenance = {
    endpoint: answer.endpoint,
    tool: tool.name,
    retrieved_at: answer.retrievedAt,
    reached: mode,
    fictional,
    stated: statedTimestamps(result.structuredContent, text, at),
  };
  // Fiction is said first, before any figure, as our own results say it (render/provenance-line.ts).
  const fiction =
    fictional && !result.isError ? ["FICTIONAL sample data, by the deployment's own word: invented, not real."] : [];
  const lines = [
    ...fiction,
    result.isError
      ? `The hosted tool ${datum(tool.name, 128)} answered with an error of its own (the deployment's words, quoted as data):`
      : `Answer of the hosted tool ${datum(tool.name, 128)} (the deployment's words, quoted as data):`,
    text === ''
      ? '(no text)'
      : fencedText(text, HOSTED_CAPS.textChars, structure && 'keep' in structure ? CUT_KEPT : undefined),
  ];
  if (others.length > 0)
    lines.push(`${others.length} other content block(s) passed on as sent: ${others.map((b) => b.type).join(', ')}.`);
  if (Array.isArray(result.content) && result.content.length > blocks.length)
    lines.push(
      `${result.content.length - blocks.length} more content block(s) left out (cap ${HOSTED_CAPS.contentBlocks}).`,
    );
  if (structure && 'dropped' in structure) lines.push(`structuredContent dropped: ${structure.dropped}.`);
  if (result.isError) lines.push(HOSTED_ERROR_HINT);
  lines.push(renderProvenanceLine(provenance));
  const body = lines.join('\n');
  return {
    content: [{ type: 'text', text: result.isError ? `upstream_tool_error: ${body}` : body }, ...others],
    ...(structure && 'keep' in structure ? { structuredContent: structure.keep as Record<string, unknown> } : {}),
    ...(result.isError ? { isError: true } : {}),
    _meta: { [PROVENANCE_META_KEY]: provenance },
  };
}
