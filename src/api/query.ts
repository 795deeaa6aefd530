/** A request's query string, as the API reads it. */
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
