/**
 * The provenance every result carries in structuredContent: the schema clients are given, the type
 * the server fills (api/provenance-record.ts) and the views read.
 */
import * as z from 'zod';

/** The error kinds that say the API did not answer, for which its last answer may stand in. */
export const NO_ANSWER_KINDS = ['network', 'timeout', 'upstream_unavailable', 'rate_limited'] as const;
export type NoAnswerKind = (typeof NO_ANSWER_KINDS)[number];

/**
 * Field meanings are in docs/contract.md, not in `.describe()`: a description here would be listed
 * in every tool's outputSchema, paid for in every conversation.
 */
export const ProvenanceSchema = z.object({
  source: z.string().nullable(),
  generated_at: z.string().nullable(),
  generated_at_timezone: z.enum(['stated', 'not_stated', 'absent']),
  computed_at: z.string().nullable(),
  // Seconds from generated_at (computed_at) to retrieval; negative when later than this server's clock.
  age_s: z.number().int().nullable(),
  computed_age_s: z.number().int().nullable(),
  cadence: z.string().optional(),
  stale: z.boolean().optional(),
  last_seen_age_s: z.record(z.string(), z.number().int().nullable()).optional(),
  reached: z.enum(['embedded', 'http']),
  // Whether the data is invented, by the API's own word: the embedded offline API, or any API whose
  // meta.source (or discovery's) says it is an offline snapshot or sample data. "Not live" alone
  // reads as "real but stale", and a model could recommend a job that never existed.
  fictional: z.boolean(),
  retrieved_at: z.string(),
  http_status: z.number().int(),
  cache: z.object({ hit: z.boolean(), age_s: z.number() }).optional(),
  // The API did not answer this call, so this is its earlier answer to the same request.
  last_answer: z
    .object({
      reason: z.enum(NO_ANSWER_KINDS),
      message: z.string(),
      fetched_at: z.string(),
      age_s: z.number().int(),
    })
    .optional(),
  /** The origin that answered, when redirects led away from the base URL's. */
  answered_by: z.string().optional(),
  catalog: z.object({ checked: z.boolean(), reason: z.string().optional() }).optional(),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** A source that says the data is invented or a snapshot for trying things, in the API's own words. */
const FICTIONAL_SOURCE = /\b(?:offline[- ]snapshot|fictional|sample data)\b/i;

export function sourceSaysFictional(source: unknown): boolean {
  return typeof source === 'string' && FICTIONAL_SOURCE.test(source);
}
