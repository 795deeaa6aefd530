/**
 * The typed error for a status the API should not have answered with, read from the status first
 * and from the body only for detail (the error envelope's `error` and `message`).
 */
import { ApiError, kindForStatus } from '../contract/errors.js';
import { heldRetryAfter } from './retry-after-gate.js';
import type { RawResponse } from './fetch-like.js';
import { ErrorEnvelopeSchema } from '../contract/schemas.js';

/** The `error` and `message` of an upstream error envelope, when the body is one. */
export function upstreamEnvelope(body: string) {
  const { data } = ErrorEnvelopeSchema.safeParse(safeJson(body));
  return { upstreamError: data?.error, upstreamMessage: data?.message };
}

const BASE_URL_HINT =
  'Check the base URL: it is the origin only (no /api/public/v1 in it), and any proxy in between must pass /api/public/v1 through.';

/**
 * `notARecord` is the base URL when the request asked for no record: the API answers 404 only for
 * a job or company that is absent, so a 404 there means the address is wrong, not the data.
 */
export function statusError(
  response: RawResponse,
  path: string,
  retries: number,
  notARecord?: string,
  cause?: unknown,
  unconfirmed?: string,
): ApiError {
  const { status } = response;
  const { upstreamError, upstreamMessage } = upstreamEnvelope(response.body);
  const detail = [upstreamError, upstreamMessage].filter(Boolean).join(': ');
  const message = `HTTP ${status} from GET ${path}${detail ? ` (${detail})` : ''}${retries > 0 ? ` after ${retries + 1} attempts` : ''}`;
  const details = { status, path, upstreamError, upstreamMessage, cause };
  const retryAfterS = heldRetryAfter(response.headers.get('retry-after'));
  if (status !== 404 || notARecord === undefined)
    return new ApiError(kindForStatus(status), message, { ...details, retryAfterS });
  const why =
    unconfirmed === undefined
      ? `where the API has no record to miss: the base URL (${notARecord}) or a proxy in front of it is probably wrong`
      : `and nothing has shown that the API answers at the base URL ${notARecord} (the deployed catalog was not read: ${unconfirmed}), so this 404 does not show that the record is gone`;
  return new ApiError('upstream_contract', `upstream_contract: ${message}, ${why}`, {
    ...details,
    hint: BASE_URL_HINT,
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // an error body that is not JSON still has its status; the caller reports that
  }
}
