/**
 * Deterministic fault injection for the offline engine: rules keyed by request path make the engine
 * answer as a failing upstream would, so every failure can be tested and shown without an outage
 * (README.md beside this file). The answers each kind gives are in fault-answers.ts.
 */
import * as z from 'zod';

const FAULT_KINDS = [
  'rate_limit',
  'unavailable',
  'delay',
  'hang',
  'malformed',
  'truncated',
  'contract',
  'degraded_health',
  'oversized',
  'reset',
] as const;
type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRule {
  /** Exact pathname (no query), or a prefix ending in `*` (`*` alone matches every path). */
  path: string;
  kind: FaultKind;
  /** Seconds, for rate_limit (default 1) and unavailable (header sent only when set). */
  retryAfter?: number;
  delayMs?: number;
  /** How many matching requests the rule applies to; unlimited when absent. */
  times?: number;
}

const FaultRuleSchema = z.strictObject({
  path: z.string().refine((p) => p.startsWith('/') || p === '*', 'path must start with / (or be * for every path)'),
  kind: z.enum(FAULT_KINDS),
  retryAfter: z.number().int().min(0).optional(),
  delayMs: z.number().min(0).optional(),
  times: z.number().int().min(1).optional(),
});

/** Validates rules from JSON (an array, or a single rule); throws with the offending member named. */
export function parseFaultRules(input: unknown): FaultRule[] {
  const parsed = z.array(FaultRuleSchema).safeParse(Array.isArray(input) ? input : [input]);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`invalid fault rule at [${issue.path.join('].')}]: ${issue.message}`);
  }
  return parsed.data.map((rule) => ({ ...rule }));
}

/** Rules from SERVICE_MCP_MOCK_FAULTS (a JSON array of rules); none when unset or blank. */
export function faultsFromEnv(env: Record<string, string | undefined> = process.env): FaultRule[] {
  const text = env.SERVICE_MCP_MOCK_FAULTS;
  if (text === undefined || text.trim() === '') return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`SERVICE_MCP_MOCK_FAULTS is not valid JSON: ${(error as Error).message}`);
  }
  return parseFaultRules(json);
}

function pathMatches(pattern: string, pathname: string): boolean {
  return pattern.endsWith('*') ? pathname.startsWith(pattern.slice(0, -1)) : pattern === pathname;
}

export class FaultSet {
  private rules: FaultRule[] = [];
  private readonly seen = new Map<string, number>();

  constructor(rules: FaultRule[] = []) {
    this.set(rules);
  }

  add(rule: FaultRule): void {
    this.rules.push(parseFaultRules(rule)[0]!);
  }

  /** Replaces every rule. */
  set(rules: FaultRule[]): void {
    this.rules = parseFaultRules(rules);
  }

  clear(): void {
    this.rules = [];
  }

  /** The rules, with `times` showing what is left of each. */
  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  /** Requests seen by the engine for a path (same matching as rules), or in total. */
  hits(path?: string): number {
    let total = 0;
    for (const [pathname, count] of this.seen) if (path === undefined || pathMatches(path, pathname)) total += count;
    return total;
  }

  /** Requests seen, per exact pathname. */
  stats(): Record<string, number> {
    return Object.fromEntries(this.seen);
  }

  resetHits(): void {
    this.seen.clear();
  }

  /** Counts the request and returns the rules that apply to it, using up one of each's `times`. */
  take(pathname: string): FaultRule[] {
    this.seen.set(pathname, (this.seen.get(pathname) ?? 0) + 1);
    const applied: FaultRule[] = [];
    for (const rule of this.rules) {
      if (!pathMatches(rule.path, pathname) || rule.times === 0) continue;
      if (rule.times !== undefined) rule.times -= 1;
      applied.push(rule);
      // A delay holds the request and lets the next rule decide the answer; anything else is the answer.
      if (rule.kind !== 'delay') break;
    }
    return applied;
  }
}
