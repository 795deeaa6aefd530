import type { Provenance } from '../api/provenance-record.js';
import { describeAge } from './age.js';
import { datum } from './text.js';

/** A timestamp with its age at retrieval: `2026-11-19T06:00:00Z (6 days ago)`. */
function aged(value: string, ageS: number | null, noZone: boolean): string {
  const age = describeAge(ageS);
  return `${datum(value, 40)} (${noZone ? `no timezone stated; legacy snapshot, read as UTC: ${age}` : age})`;
}

/** The closing line of every result: where the data comes from and how old it is. */
export function renderProvenance(p: Provenance): string {
  const parts = [`source: ${p.source === null ? 'not stated' : datum(p.source, 120)}`];
  parts.push(
    `generated_at: ${p.generated_at === null ? 'not stated' : aged(p.generated_at, p.age_s, p.generated_at_timezone === 'not_stated')}`,
  );
  parts.push(`computed_at: ${p.computed_at === null ? 'not stated' : aged(p.computed_at, p.computed_age_s, false)}`);
  if (p.fictional) parts.push('OFFLINE: FICTIONAL sample data (companies, jobs and salaries are invented), not live');
  else parts.push(p.mode === 'offline' ? 'OFFLINE snapshot data, not live' : 'live API');
  parts.push(`retrieved ${p.retrieved_at}`);
  if (p.cache?.hit) parts.push(`from cache, ${p.cache.age_s}s old`);
  // Said only when it was not: a checked catalog is the normal case and needs no words.
  if (p.catalog && !p.catalog.checked)
    parts.push(`deployed catalog not checked: ${p.catalog.reason ?? 'unknown reason'}`);
  return `Provenance: ${parts.join(' · ')}`;
}
