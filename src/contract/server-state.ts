/**
 * What check_api_health says of this server besides the API's answer (structuredContent's `server`;
 * times in ISO 8601, never a secret): the schema clients are given, which the tool fills, the
 * bridge's status takes its shape from and the renderer reads.
 */
import * as z from 'zod';
import { ERROR_KINDS } from './errors.js';

export const ServerStateSchema = z.object({
  version: z.string(),
  node: z.string(),
  calls_in_flight: z.number().int(),
  rate_limit: z.object({
    cool_down_until: z.string().optional(),
    last_429_at: z.string().optional(),
    last_retry_after_s: z.number().optional(),
  }),
  // from: who read the catalog in hand, this process or an earlier run (kept in the user's cache directory).
  catalog: z
    .object({
      checked: z.boolean(),
      at: z.string().optional(),
      from: z.enum(['api', 'earlier_run']).optional(),
      failure: z.string().optional(),
    })
    .optional(),
  cache: z.object({ answers: z.number().int(), hits: z.number().int(), hit_ratio: z.number().optional() }),
  redis: z.object({ connected: z.boolean() }).optional(),
  // The tools bridged from the deployment's hosted market surface, and those skipped with the reason.
  bridge: z.object({
    state: z.enum(['off', 'not_read', 'reading', 'ready', 'failed']),
    endpoint: z.string().optional(),
    // Why the endpoint is not the one health named, when it is not.
    endpoint_note: z.string().optional(),
    era: z.string().optional(),
    // The list offered: read by this process, by another replica (Redis), by an earlier run (the
    // user's cache directory), or by the build (the offline surface's); read_at is that read's.
    list_from: z.enum(['surface', 'replica', 'earlier_run', 'build']).optional(),
    read_at: z.string().optional(),
    failure: z.string().optional(),
    // The last read failed: when, how long before this answer, its error kind; then whether a new
    // read runs now, or when one is due (started by the first tools/list or health check from then).
    failed_at: z.string().optional(),
    failed_age_s: z.number().int().optional(),
    failure_kind: z.enum(ERROR_KINDS).optional(),
    retrying: z.boolean().optional(),
    next_read_at: z.string().optional(),
    bridged: z.array(z.string()),
    skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
  }),
  /** The calling client's own share (HTTP mode with --per-client-rate): counts, never a token or another caller. */
  fair_share: z
    .object({
      per_minute: z.number(),
      burst: z.number().int(),
      left: z.number().int(),
      sent: z.number().int(),
      refused: z.number().int(),
      shared: z.boolean(),
    })
    .optional(),
});
export type ServerState = z.infer<typeof ServerStateSchema>;
