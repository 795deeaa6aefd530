/** A request's query string, as the API reads it. */
import type { JobListParams } from '../contract/params.js';

type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

/** Serializes a query: undefined omitted, arrays comma-joined, booleans as true/false. */
export function buildQuery(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      params.append(key, value.join(','));
    } else {
      params.append(key, String(value));
    }
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** The job list's own parameters: the client never sends it the search-only ones. */
export const LIST_KEYS = [
  'q',
  'domain',
  'skills',
  'seniority_level',
  'remote_only',
  'location_country',
  'page',
  'per_page',
  'include_predicted_salaries',
] as const satisfies ReadonlyArray<keyof JobListParams>;
// Fails to compile when the list's parameters gain one that LIST_KEYS does not name.
const LIST_KEYS_COMPLETE: Exclude<keyof JobListParams, (typeof LIST_KEYS)[number]> extends never ? true : never = true;
void LIST_KEYS_COMPLETE;
