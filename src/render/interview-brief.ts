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
function renderFreshness(freshness: unknown, at: number | undefined, stated?: string | null): string | undefined {
  if (!isRecord(freshness) || at === undefined) return undefined;
  const parts: string[] = [];
  // "fresh" is the API's word, by its own rule: quoted as its label, beside the age, for the reader to judge.
  const label = typeof freshness.status === 'string' ? quote(freshness.status, 30) : undefined;
  if (typeof freshness.generated_at === 'string') {
    // A timestamp the provenance line states is said there; here its age, beside the API's label.
    const age = describeAge(ageSeconds(freshness.generated_at, at));
    const generated =
      freshness.generated_at === stated ? `generated ${age}` : `generated ${datum(freshness.generated_at, 40)}, ${age}`;
    parts.push(label ? `${generated}, which the API labels ${label}` : generated);
  } else if (label) parts.push(`the API labels it ${label} (generation time not stated)`);
  const window = freshness.observation_window;
  if (isRecord(window) && typeof window.from === 'string' && typeof window.to === 'string')
    parts.push(`observation window ${datum(window.from, 30)} to ${datum(window.to, 30)}`);
  return parts.length > 0 ? `Freshness: ${parts.join('; ')}.` : undefined;
}

/** The brief's freshness members its freshness line says, so that the fence does not say them again. */
function freshnessUnsaid(freshness: Record<string, unknown>): Record<string, unknown> {
  const { generated_at: generated, status, observation_window: window, ...rest } = freshness;
  const windowSaid =
    isRecord(window) &&
    Object.keys(window).length === 2 &&
    typeof window.from === 'string' &&
    typeof window.to === 'string';
  return {
    ...(typeof generated === 'string' ? {} : { generated_at: generated }),
    ...(typeof status === 'string' ? {} : { status }),
    ...(windowSaid || window === undefined ? {} : { observation_window: window }),
    ...rest,
  };
}

/**
 * The brief as fenced upstream data, after its freshness; `at`, when it was retrieved, ages it, and
 * `generatedAt` is the answer's own generated_at (on the provenance line).
 */
export function renderInterviewBrief(data: InterviewBriefData, at?: number, generatedAt?: string | null): string {
  const company =
    typeof data.company === 'object' && data.company !== null ? (data.company as Record<string, unknown>) : data;
  const name = typeof company.name === 'string' && oneLine(company.name) !== '' ? quote(company.name, 100) : undefined;
  const heading = name
    ? `Interview brief for ${name} (upstream data below):`
    : 'Interview brief (upstream data below):';
  const freshness = renderFreshness(data.freshness, at, generatedAt);
  // What the freshness line said is not fenced again; the rest of the freshness member is.
  let fenced: Record<string, unknown> = data;
  if (freshness && isRecord(data.freshness)) {
    const unsaid = freshnessUnsaid(data.freshness);
    fenced = Object.fromEntries(
      Object.entries(data).flatMap(([key, value]) =>
        key !== 'freshness' ? [[key, value]] : Object.keys(unsaid).length > 0 ? [[key, unsaid]] : [],
      ),
    );
  }
  return `${freshness ? `${freshness}\n` : ''}${heading}\n${fencedData(fenced, 6_000)}`;
}
