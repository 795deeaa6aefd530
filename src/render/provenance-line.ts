import { stripKind } from '../contract/errors.js';
import type { Provenance } from '../contract/provenance.js';
import { describeAge } from '../lib/age-words.js';
import { datum } from '../lib/text.js';

/** A timestamp with its age at retrieval: `2026-11-19T06:00:00Z (6 days ago)`. */
function aged(value: string, age: string, noZone: boolean): string {
  return `${datum(value, 40)} (${noZone ? `no timezone stated, read as UTC: ${age}` : age})`;
}

/**
 * The words for the two facts, the same in the text and (as `reached` and `fictional`) in
 * structuredContent: how the API was reached, and whether it says its data is fictional. Said
 * plainly once: the first line of a fictional result says what fictional means.
 */
const FICTIONAL = 'fictional: yes';
const NOT_FICTIONAL = 'fictional: no (the API does not say so)';

/**
 * The first line of a result whose data is fictional, before any figure (a reader, or a model that
 * stops early, must not take the first jobs for real), and its notice in structuredContent.
 */
export function fictionNotice(p: Provenance): string | undefined {
  return p.fictional ? "FICTIONAL sample data, by the API's own word: invented companies, jobs, salaries." : undefined;
}

/**
 * The first line of a result the API did not give this time: why it did not answer (its error,
 * fenced: it may quote the API), and how old the kept answer is, before anything else is read.
 */
export function lastAnswerNotice(p: Provenance): string | undefined {
  const kept = p.last_answer;
  if (!kept) return undefined;
  return `LAST ANSWER, NOT LIVE: the API did not answer this call (${kept.reason}: ${datum(stripKind(kept.message, kept.reason), 200)}); this is its earlier answer to the same request, from this server's response cache, fetched ${kept.fetched_at} (${describeAge(kept.age_s)}).`;
}

/** An ISO instant to the second: the milliseconds say nothing a reader uses. */
const toSecond = (iso: string) => iso.replace(/\.\d+Z$/, 'Z');

/**
 * The closing line of every result: where the data comes from and how old it is. computed_at's age
 * is said when it reads differently from generated_at's; the retrieval time when no age says it.
 */
export function renderProvenance(p: Provenance): string {
  const parts = [`source: ${p.source === null ? 'not stated' : datum(p.source, 120)}`];
  const generatedAge = describeAge(p.age_s);
  const computedAge = describeAge(p.computed_age_s);
  parts.push(
    `generated_at: ${p.generated_at === null ? 'not stated' : aged(p.generated_at, generatedAge, p.generated_at_timezone === 'not_stated')}`,
  );
  parts.push(
    `computed_at: ${p.computed_at === null ? 'not stated' : p.generated_at !== null && computedAge === generatedAge ? datum(p.computed_at, 40) : aged(p.computed_at, computedAge, false)}`,
  );
  parts.push(`reached: ${p.reached}`, p.fictional ? FICTIONAL : NOT_FICTIONAL);
  if (p.generated_at === null && p.computed_at === null) parts.push(`retrieved ${toSecond(p.retrieved_at)}`);
  if (p.cache?.hit) parts.push(`from cache, ${p.cache.age_s}s old`);
  // Said only when it was not: a checked catalog is the normal case and needs no words.
  if (p.catalog && !p.catalog.checked)
    parts.push(`deployed catalog not checked: ${p.catalog.reason ?? 'unknown reason'}`);
  return `Provenance: ${parts.join(' · ')}`;
}
