/**
 * Deterministic fault injection for the offline engine: rules keyed by request path make the
 * engine answer the way a failing upstream would, so the client's handling of every failure can
 * be tested and demonstrated without a real outage. See README.md beside this file.
 * Over 250 lines: one parser and one answer per fault kind, so a new fault is added in one place.
 */
import * as z from 'zod';
import { setTimeout as sleep } from 'node:timers/promises';
import { isRecord } from '../lib/is-record.js';
import { bytesResponse, errorResponse, JSON_TYPE, jsonResponse } from './responses.js';

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
  /** For delay. */
  delayMs?: number;
  /** How many matching requests the rule applies to; unlimited when absent. */
  times?: number;
}

export interface FaultController {
  add(rule: FaultRule): void;
  /** Replaces every rule. */
  set(rules: FaultRule[]): void;
  clear(): void;
  /** The rules, with `times` showing what is left of each. */
  list(): FaultRule[];
  /** Requests seen by the engine for a path (same matching as rules), or in total. */
  hits(path?: string): number;
  /** Requests seen, per exact pathname. */
  stats(): Record<string, number>;
  resetHits(): void;
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

export class FaultSet implements FaultController {
  private rules: FaultRule[] = [];
  private readonly seen = new Map<string, number>();

  constructor(rules: FaultRule[] = []) {
    this.set(rules);
  }

  add(rule: FaultRule): void {
    this.rules.push(parseFaultRules(rule)[0]!);
  }

  set(rules: FaultRule[]): void {
    this.rules = parseFaultRules(rules);
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  hits(path?: string): number {
    let total = 0;
    for (const [pathname, count] of this.seen) if (path === undefined || pathMatches(path, pathname)) total += count;
    return total;
  }

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

type Next = (request: Request) => Promise<Response>;

/** Runs the request through the rules that match it, then (if none answered) through `next`. */
export async function applyFaults(faults: FaultSet, request: Request, next: Next): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  for (const rule of faults.take(pathname)) {
    if (rule.kind === 'delay') {
      await sleep(rule.delayMs ?? 0, undefined, { signal: request.signal });
      continue;
    }
    return answer(rule, request, next);
  }
  return next(request);
}

async function answer(rule: FaultRule, request: Request, next: Next): Promise<Response> {
  const note = `(offline fault injection: ${rule.kind} on ${rule.path})`;
  switch (rule.kind) {
    case 'delay':
      return next(request);
    case 'rate_limit': {
      const seconds = rule.retryAfter ?? 1;
      return errorResponse(
        429,
        'rate_limited',
        `rate limit exceeded; retry after ${seconds}s ${note}`,
        {},
        { 'retry-after': String(seconds) },
      );
    }
    case 'unavailable':
      return errorResponse(
        503,
        'unavailable',
        `a required read-model dependency is temporarily unavailable ${note}`,
        {},
        rule.retryAfter === undefined ? {} : { 'retry-after': String(rule.retryAfter) },
      );
    case 'hang':
      return hang(request.signal);
    case 'malformed':
      return bytesResponse(
        200,
        '{"success":true,"data":{"jobs":[{"job_id": <html><body>502 Bad Gateway</body></html>',
        JSON_TYPE,
      );
    case 'truncated': {
      const real = await next(request);
      const text = await real.text();
      return bytesResponse(
        real.status,
        text.slice(0, Math.floor(text.length / 2)),
        real.headers.get('content-type') ?? JSON_TYPE,
      );
    }
    case 'contract': {
      const real = await next(request);
      if (real.status !== 200) return real;
      const body: unknown = await real.json();
      breakContract(body);
      return jsonResponse(200, body);
    }
    case 'degraded_health': {
      const real = await next(request);
      const body: unknown = real.status === 200 ? await real.json() : undefined;
      if (!isRecord(body) || !Array.isArray(body.probes))
        return errorResponse(503, 'unavailable', `a required read-model dependency is temporarily unavailable ${note}`);
      return jsonResponse(503, degrade(body));
    }
    case 'oversized':
      return oversized(await next(request));
    case 'reset':
      return resetMidBody(await next(request));
  }
}

function hang(signal: AbortSignal): Promise<Response> {
  return new Promise((_, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * The contract fault, per body: a job list gets `data.jobs[0].title` = 12345 (or, with no jobs,
 * `data.pagination.total` = -1); a job detail gets `data.title` = 12345; a health body loses
 * `probes`; any other envelope gets `data` = "contract_fault". Each breaks a required rule.
 */
export function breakContract(body: unknown): void {
  if (!isRecord(body)) return;
  const data = body.data;
  if (isRecord(data) && Array.isArray(data.jobs)) {
    const first: unknown = data.jobs[0];
    if (isRecord(first)) first.title = 12345;
    else if (isRecord(data.pagination)) data.pagination.total = -1;
  } else if (isRecord(data) && 'job_id' in data) {
    data.title = 12345;
  } else if ('probes' in body) {
    delete body.probes;
  } else {
    body.data = 'contract_fault';
  }
}

function degrade(body: Record<string, unknown>): Record<string, unknown> {
  const probes = (body.probes as unknown[]).map((probe, index) =>
    isRecord(probe) && index === 0
      ? { ...probe, ok: false, status: 503, error: 'read model unavailable (offline fault injection)' }
      : probe,
  );
  return { ...body, status: 'degraded', probes };
}

export const OVERSIZED_BYTES = Math.round(9.5 * 1024 * 1024);

/**
 * A well-formed but huge job list (> 9 MB), streamed without Content-Length so the client has to
 * notice while reading; the repeated element is the real response's first job (or its data).
 */
async function oversized(real: Response): Promise<Response> {
  const body: unknown = await real.json().catch(() => undefined);
  const data = isRecord(body) ? body.data : undefined;
  const sample =
    isRecord(data) && Array.isArray(data.jobs) && data.jobs.length > 0
      ? data.jobs[0]
      : (data ?? { filler: 'x'.repeat(512) });
  const element = new TextEncoder().encode(`${JSON.stringify(sample)},`);
  const head = new TextEncoder().encode('{"success":true,"data":{"jobs":[');
  const tail = new TextEncoder().encode(
    `${JSON.stringify(sample)}]},"meta":${JSON.stringify(isRecord(body) ? (body.meta ?? {}) : {})}}`,
  );
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(head);
      sent += head.byteLength;
    },
    pull(controller) {
      if (sent >= OVERSIZED_BYTES) {
        controller.enqueue(tail);
        controller.close();
        return;
      }
      const count = Math.max(1, Math.floor(65_536 / element.byteLength));
      const chunk = new Uint8Array(count * element.byteLength);
      for (let i = 0; i < count; i++) chunk.set(element, i * element.byteLength);
      controller.enqueue(chunk);
      sent += chunk.byteLength;
    },
  });
  return new Response(stream, { status: 200, headers: { 'content-type': JSON_TYPE } });
}

/** The real answer's headers and first half, then a connection-reset error instead of the rest. */
async function resetMidBody(real: Response): Promise<Response> {
  const bytes = new Uint8Array(await real.arrayBuffer());
  const half = bytes.subarray(0, Math.floor(bytes.byteLength / 2));
  let sentHalf = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sentHalf) {
        sentHalf = true;
        controller.enqueue(half);
        return;
      }
      controller.error(
        Object.assign(new Error('socket hang up (offline fault injection: reset)'), { code: 'ECONNRESET' }),
      );
    },
  });
  const headers = new Headers(real.headers);
  headers.delete('content-length');
  return new Response(stream, { status: real.status, headers });
}
