/**
 * Where every number comes from: the API's own source and timestamps, whether the generation time
 * states a timezone, whether this is live or the embedded snapshot, and when it was retrieved.
 */
import { z } from 'zod';
import type { ApiResult } from './client.js';

export const ProvenanceSchema = z.object({
  source: z.string().nullable(),
  generated_at: z.string().nullable(),
  generated_at_timezone: z.enum(['stated', 'not_stated', 'absent']),
  computed_at: z.string().nullable(),
  mode: z.enum(['live', 'offline']),
  // Present only for the embedded offline API, whose companies, jobs and salaries are invented:
  // "not live" alone reads as "real but stale", and a model could recommend a job that never existed.
  fictional: z.literal(true).optional().describe('The data is fictional sample data (invented companies, jobs and salaries), not real.'),
  retrieved_at: z.string(),
  http_status: z.number().int(),
  cache: z.object({ hit: z.boolean(), age_s: z.number() }).optional(),
  /** The origin that answered, when redirects led away from the base URL's. */
  answered_by: z.string().optional(),
  catalog: z
    .object({ checked: z.boolean(), reason: z.string().optional() })
    .optional()
    .describe("Whether the deployed catalog (discovery) was read and lists this tool's operation; when not, why it was not checked."),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

export type Mode = Provenance['mode'];

const TIMEZONE = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** Whether a timestamp names its timezone: legacy snapshots write `2026-11-02 06:00:00`. */
export function timezoneState(value: string | null | undefined): Provenance['generated_at_timezone'] {
  if (value === null || value === undefined || value === '') return 'absent';
  // A bare date has no time of day, so there is no timezone to miss.
  if (/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) return 'stated';
  return TIMEZONE.test(value.trim()) ? 'stated' : 'not_stated';
}

export function buildProvenance(result: ApiResult<unknown>, mode: Mode): Provenance {
  const meta = result.meta;
  const str = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    source: str(meta.source),
    generated_at: str(meta.generated_at),
    generated_at_timezone: timezoneState(str(meta.generated_at)),
    computed_at: str(meta.computed_at),
    mode,
    ...(mode === 'offline' ? { fictional: true as const } : {}),
    retrieved_at: result.retrievedAt,
    http_status: result.status,
    ...(result.cache ? { cache: { hit: result.cache.hit, age_s: result.cache.ageS } } : {}),
    ...(result.answeredBy ? { answered_by: result.answeredBy } : {}),
    ...(result.catalog ? { catalog: result.catalog } : {}),
  };
}
