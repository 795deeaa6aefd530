/**
 * Where every number comes from and how old it is: the API's source and timestamps, their age at
 * retrieval (against its stated cadence), whether the generation time names its timezone, how the
 * API was reached and whether its data is fictional (two facts: mock-api is http and fictional).
 */
import { ageSeconds, cadenceSeconds } from '../contract/age.js';
import { sourceSaysFictional, type Provenance } from '../contract/provenance.js';
import type { ApiResult } from './answers.js';
import type { CacheHit } from './cache.js';

/** How a backend reaches its API: the embedded offline API, or over HTTP. */
export type Mode = Provenance['reached'];

const TIMEZONE = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** Whether a timestamp names its timezone: legacy snapshots write `2026-11-02 06:00:00`. */
export function timezoneState(value: string | null | undefined): Provenance['generated_at_timezone'] {
  if (value === null || value === undefined || value === '') return 'absent';
  // A bare date has no time of day, so there is no timezone to miss.
  if (/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) return 'stated';
  return TIMEZONE.test(value.trim()) ? 'stated' : 'not_stated';
}

/** What a tool knows of its data's freshness beyond the meta: a stated cadence, each job's last_seen. */
export interface Freshness {
  cadence?: unknown;
  lastSeen?: ReadonlyArray<readonly [jobId: string, lastSeen: string | null]>;
}

/** Why the API's last answer stood in, and when it was fetched (its age before `at`, the retrieval). */
function lastAnswer({ ageS, lastAnswer: { kind, message } }: Required<CacheHit>, at: number) {
  return { reason: kind, message, fetched_at: new Date(at - ageS * 1000).toISOString(), age_s: ageS };
}

export function buildProvenance(result: ApiResult<unknown>, mode: Mode, freshness: Freshness = {}): Provenance {
  const meta = result.meta;
  const str = (value: unknown) => (typeof value === 'string' ? value : null);
  const at = Date.parse(result.retrievedAt);
  const ageS = ageSeconds(str(meta.generated_at), at);
  const cadence =
    typeof freshness.cadence === 'string' && freshness.cadence.trim() !== '' ? freshness.cadence : undefined;
  const cadenceS = cadenceSeconds(cadence);
  const fictional = mode === 'embedded' || result.fictional === true || sourceSaysFictional(meta.source);
  return {
    source: str(meta.source),
    generated_at: str(meta.generated_at),
    generated_at_timezone: timezoneState(str(meta.generated_at)),
    computed_at: str(meta.computed_at),
    age_s: ageS,
    computed_age_s: ageSeconds(str(meta.computed_at), at),
    ...(cadence === undefined ? {} : { cadence }),
    ...(cadenceS === undefined || ageS === null ? {} : { stale: ageS > cadenceS }),
    ...(freshness.lastSeen
      ? { last_seen_age_s: Object.fromEntries(freshness.lastSeen.map(([id, seen]) => [id, ageSeconds(seen, at)])) }
      : {}),
    reached: mode,
    fictional,
    retrieved_at: result.retrievedAt,
    http_status: result.status,
    ...(result.cache ? { cache: { hit: result.cache.hit, age_s: result.cache.ageS } } : {}),
    ...(result.cache?.lastAnswer ? { last_answer: lastAnswer(result.cache as Required<CacheHit>, at) } : {}),
    ...(result.answeredBy ? { answered_by: result.answeredBy } : {}),
    ...(result.catalog ? { catalog: result.catalog } : {}),
  };
}
