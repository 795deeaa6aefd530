import type { Provenance } from '../api/provenance.js';
import { datum } from './text.js';

/** The closing line of every result: where the data comes from and how old it is. */
export function renderProvenance(p: Provenance): string {
  const parts = [`source: ${p.source === null ? 'not stated' : datum(p.source, 120)}`];
  if (p.generated_at === null) parts.push('generated_at: not stated');
  else parts.push(`generated_at: ${datum(p.generated_at, 40)}${p.generated_at_timezone === 'not_stated' ? ' (no timezone stated; legacy snapshot)' : ''}`);
  parts.push(`computed_at: ${p.computed_at === null ? 'not stated' : datum(p.computed_at, 40)}`);
  if (p.fictional) parts.push('OFFLINE: FICTIONAL sample data (companies, jobs and salaries are invented), not live');
  else parts.push(p.mode === 'offline' ? 'OFFLINE snapshot data, not live' : 'live API');
  parts.push(`retrieved ${p.retrieved_at}`);
  if (p.cache?.hit) parts.push(`from cache, ${p.cache.age_s}s old`);
  // Said only when it was not: a checked catalog is the normal case and needs no words.
  if (p.catalog && !p.catalog.checked) parts.push(`deployed catalog not checked: ${p.catalog.reason ?? 'unknown reason'}`);
  return `Provenance: ${parts.join(' · ')}`;
}
