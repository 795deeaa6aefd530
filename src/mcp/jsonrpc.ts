/**
 * The JSON-RPC shape checks made before the SDK sees a message: by the stdio front (which runs
 * before zod is loaded, so no zod here) and by the stdio call lane. A request id is what the SDK's
 * RequestIdSchema accepts: a string or a safe integer.
 */
import { isRecord } from '../is-record.js';

export type JsonObject = Record<string, unknown>;
export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: unknown;
}

export const isRequestId = (value: unknown): value is RequestId => typeof value === 'string' || Number.isSafeInteger(value);

export function isJsonRpcRequest(message: unknown): message is JsonRpcRequest {
  return isRecord(message) && message.jsonrpc === '2.0' && isRequestId(message.id) && typeof message.method === 'string';
}
