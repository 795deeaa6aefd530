/**
 * An error and the causes behind it, outermost first: undici hides why a request failed in
 * `cause`, the SDK wraps our own errors in its own. Bounded and cycle-safe, since a cause chain
 * is data anyone can build.
 */
export function* causeChain(error: unknown, maxDepth = 8): Generator<unknown> {
  const seen = new Set<unknown>();
  for (let at = error, depth = 0; at !== undefined && at !== null && depth < maxDepth && !seen.has(at); depth++) {
    seen.add(at);
    yield at;
    if (!(at instanceof Error)) return;
    at = at.cause;
  }
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
