/** Building blocks of the engine's answers: the two envelopes, plain text, and content negotiation. */

export const JSON_TYPE = 'application/json; charset=utf-8';
const encoder = new TextEncoder();

/** A complete (non-streamed) response; Content-Length is set so keep-alive clients can reuse the socket. */
export function bytesResponse(
  status: number,
  body: string,
  contentType: string,
  headers: Record<string, string> = {},
): Response {
  const bytes = encoder.encode(body);
  return new Response(bytes, {
    status,
    headers: { 'content-type': contentType, 'content-length': String(bytes.byteLength), ...headers },
  });
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return bytesResponse(status, JSON.stringify(body), JSON_TYPE, headers);
}

export function successResponse(data: unknown, meta: Record<string, unknown>): Response {
  return jsonResponse(200, { success: true, data, meta });
}

/** Error codes of the offline API; the spec leaves them open, so these follow common practice. */
export type ErrorCode =
  | 'invalid_parameter'
  | 'missing_parameter'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_implemented'
  | 'rate_limited'
  | 'unavailable'
  | 'internal_error';

export function errorResponse(
  status: number,
  error: ErrorCode,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  return jsonResponse(status, { success: false, error, message, ...extra }, headers);
}

/** The quality value an Accept header gives a media type, with how specific the matching range was. */
function acceptance(accept: string, type: string): { q: number; specificity: number } {
  const [major] = type.split('/');
  let best = { q: 0, specificity: -1 };
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity < 0 || specificity < best.specificity) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    best = { q: Number.isFinite(q) ? q : 0, specificity };
  }
  return best;
}

/** True when the client ranks Markdown above JSON (an explicit mention wins a tie with a wildcard). */
export function prefersMarkdown(accept: string | null): boolean {
  if (!accept) return false;
  const markdown = acceptance(accept, 'text/markdown');
  const json = acceptance(accept, 'application/json');
  if (markdown.q <= 0) return false;
  return markdown.q > json.q || (markdown.q === json.q && markdown.specificity > json.specificity);
}
