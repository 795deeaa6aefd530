/**
 * The provenance every result carries in structuredContent: the schema clients are given, the type
 * the server fills (api/provenance-record.ts) and the views read.
 */
import * as z from 'zod';

/** The error kinds that say the API did not answer, for which its last answer may stand in. */
export const NO_ANSWER_KINDS = ['network', 'timeout', 'upstream_unavailable', 'rate_limited'] as const;
export type NoAnswerKind = (typeof NO_ANSWER_KINDS)[number];

export const ProvenanceSchema = z.object({
  source: z.string().nullable(),
  generated_at: z.string().nullable(),
  generated_at_timezone: z.enum(['stated', 'not_stated', 'absent']),
  computed_at: z.string().nullable(),
  age_s: z
    .number()
    .int()
    .nullable()
    .describe(
      "Seconds from generated_at to retrieval (a timestamp with no timezone read as UTC); negative when it is later than this server's clock; null when there is none",
    ),
  computed_age_s: z.number().int().nullable().describe('Seconds from computed_at to retrieval, likewise'),
  cadence: z.string().optional().describe('The refresh cadence the API states for this data'),
  stale: z.boolean().optional().describe('Older than its stated cadence: treat as stale'),
  last_seen_age_s: z
    .record(z.string(), z.number().int().nullable())
    .optional()
    .describe(
      "Each job's last_seen age at retrieval in seconds, by job_id (a date alone counts from the start of its day, UTC)",
    ),
  reached: z
    .enum(['embedded', 'http'])
    .describe(
      'How the answer was reached: embedded (the offline API inside service-mcp, no network) or http (over HTTP from the base URL: a deployment, or mock-api)',
    ),
  // Whether the data is invented, by the API's own word: the embedded offline API, or any API whose
  // meta.source (or discovery's) says it is an offline snapshot or sample data. "Not live" alone
  // reads as "real but stale", and a model could recommend a job that never existed.
  fictional: z
    .boolean()
    .describe(
      "Whether the API says its data is fictional sample data (invented companies, jobs and salaries): its meta.source, or discovery's, says so",
    ),
  retrieved_at: z.string(),
  http_status: z.number().int(),
  cache: z.object({ hit: z.boolean(), age_s: z.number() }).optional(),
  last_answer: z
    .object({
      reason: z.enum(NO_ANSWER_KINDS),
      message: z.string(),
      fetched_at: z.string(),
      age_s: z.number().int(),
    })
    .optional()
    .describe(
      'The API did not answer this call (reason: its error kind, message), so this is its earlier answer to the same request, kept by this server up to a day: fetched_at and age_s say how old. Not live',
    ),
  /** The origin that answered, when redirects led away from the base URL's. */
  answered_by: z.string().optional(),
  catalog: z
    .object({ checked: z.boolean(), reason: z.string().optional() })
    .optional()
    .describe(
      "Whether the deployed catalog (discovery) was read and lists this tool's operation; when not, why it was not checked.",
    ),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** A source that says the data is invented or a snapshot for trying things, in the API's own words. */
const FICTIONAL_SOURCE = /\b(?:offline[- ]snapshot|fictional|sample data)\b/i;

export function sourceSaysFictional(source: unknown): boolean {
  return typeof source === 'string' && FICTIONAL_SOURCE.test(source);
}
