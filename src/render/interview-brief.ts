/**
 * The interview package is free-form upstream text, so it is shown as data in a fence: a brief
 * could contain anything, and the model must read it as material, not as instructions.
 */
import { ageSeconds } from '../contract/age.js';
import type { InterviewBriefData } from '../contract/schemas.js';
import { isRecord } from '../lib/is-record.js';
import { describeAge } from '../lib/age-words.js';
import { fencedData } from '../lib/fence.js';
import { datum, oneLine, quote } from '../lib/text.js';

/**
 * The brief's own freshness metadata, aged: `Freshness: generated 2026-11-16T00:55:00Z, 9 days ago,
 * which the API labels "fresh"; observation window 2026-10-17 to 2026-11-16.`
 */
function renderFreshness(freshness: unknown, at: number | undefined): string | undefined {
  if (!isRecord(freshness) || at === undefined) return undefined;
  const parts: string[] = [];
  // "fresh" is the API's word, by its own rule: quoted as its label, beside the age, for the reader to judge.
  const label = typeof freshness.status === 'string' ? quote(freshness.status, 30) : undefined;
  if (typeof freshness.generated_at === 'string') {
    const generated = `generated ${datum(freshness.generated_at, 40)}, ${describeAge(ageSeconds(freshness.generated_at, at))}`;
    parts.push(label ? `${generated}, which the API labels ${label}` : generated);
  } else if (label) parts.push(`the API labels it ${label} (generation time not stated)`);
  const window = freshness.observation_window;
  if (isRecord(window) && typeof window.from === 'string' && typeof window.to === 'string')
    parts.push(`observation window ${datum(window.from, 30)} to ${datum(window.to, 30)}`);
  return parts.length > 0 ? `Freshness: ${parts.join('; ')}.` : undefined;
}

/** The brief as fenced upstream data, after its freshness; `at`, when it was retrieved, ages it. */
export function renderInterviewBrief(data: InterviewBriefData, at?: number): string {
  const company =
    typeof data.company === 'object' && data.company !== null ? (data.company as Record<string, unknown>) : data;
  const name = typeof company.name === 'string' && oneLine(company.name) !== '' ? quote(company.name, 100) : undefined;
  const heading = name
    ? `Interview brief for ${name} (upstream data below):`
    : 'Interview brief (upstream data below):';
  const freshness = renderFreshness(data.freshness, at);
  return `${freshness ? `${freshness}\n` : ''}${heading}\n${fencedData(data, 6_000)}`;
}
