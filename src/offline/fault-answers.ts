/**
 * What each fault kind answers in place of the engine (or does to the engine's answer): a 429 or
 * 503, a hang, a malformed, truncated, oversized or contract-breaking body, a reset mid-body.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isRecord } from '../lib/is-record.js';
import type { FaultRule, FaultSet } from './faults.js';
import { bytesResponse, errorResponse, JSON_TYPE, jsonResponse } from './responses.js';

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
