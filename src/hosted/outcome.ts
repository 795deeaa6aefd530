/**
 * What a failed exchange with the hosted surface was, as one of our error kinds: the guarded fetch's
 * own ApiErrors reach here as the cause of the SDK's error; the SDK's own errors are its protocol's.
 */
import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { ApiError, cancelledError, internalError, type ApiErrorDetails, type ErrorKind } from '../contract/errors.js';
import { causeChain } from '../lib/cause-chain.js';
import { escapeInvisible, oneLine } from '../lib/text.js';

/** Our own error (the guarded fetch's), where the SDK passed it up as the cause of its own. */
const ownError = (error: unknown) => [...causeChain(error)].find((at): at is ApiError => at instanceof ApiError);

/** The surface's words, cleaned: they are upstream text. */
const said = (text: string) => oneLine(escapeInvisible(text), 300);

export function failureOf(error: unknown, what: string, signal?: AbortSignal): ApiError {
  const own = ownError(error);
  if (own) return own;
  if (signal?.aborted) return cancelledError(what, signal.reason);
  const fail = (kind: ErrorKind, message: string, details: ApiErrorDetails = {}) =>
    new ApiError(kind, message, { cause: error, ...details });
  if (error instanceof ProtocolError) {
    if (error.code === ProtocolErrorCode.InvalidParams)
      return fail('invalid_argument', `the hosted surface refused the arguments of ${what}: ${said(error.message)}`, {
        status: 400,
        hint: "The hosted tool's own check refused them; fix the argument it names and call again.",
      });
    if (error.code === ProtocolErrorCode.MethodNotFound || /unknown tool|not found/i.test(error.message))
      return fail('not_deployed', `the hosted surface does not offer ${what} now: ${said(error.message)}`, {
        hint: 'The hosted surface changed; list the tools again (the bridged list is being read again).',
      });
    return fail(
      'upstream_contract',
      `the hosted surface answered ${what} with error ${error.code}: ${said(error.message)}`,
    );
  }
  if (error instanceof SdkHttpError)
    return fail(kindOfStatus(error.status), `HTTP ${error.status} from the hosted surface for ${what}`, {
      status: error.status,
    });
  if (error instanceof SdkError)
    return error.code === SdkErrorCode.RequestTimeout
      ? fail('timeout', `timeout: the hosted surface did not answer ${what} in time`)
      : fail('upstream_contract', `the hosted surface's answer to ${what} could not be read: ${said(error.message)}`);
  return internalError(what, error);
}

/** An HTTP status of the hosted endpoint: no address there is "not deployed", never a record that is gone. */
function kindOfStatus(status: number): ErrorKind {
  if (status === 404 || status === 405) return 'not_deployed';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'upstream_unavailable';
  return 'upstream_contract';
}
