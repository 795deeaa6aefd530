/**
 * The JSON-RPC shape checks made before the SDK sees a message: by the stdio front (which runs
 * before zod is loaded, so no zod here) and by the stdio call lane. A request id is what the SDK's
 * RequestIdSchema accepts: a string or a safe integer.
 */
export type JsonObject = Record<string, unknown>;
export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: unknown;
}

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

export const isRequestId = (value: unknown): value is RequestId => typeof value === 'string' || Number.isSafeInteger(value);

export function isJsonRpcRequest(message: unknown): message is JsonRpcRequest {
  return isJsonObject(message) && message.jsonrpc === '2.0' && isRequestId(message.id) && typeof message.method === 'string';
}
