/**
 * The JSON-RPC error answers this server writes itself, on both transports, when it refuses a line
 * or a request before the SDK sees it (HTTP: a limit, a guard or shutdown; stdio: a line that is
 * no message, shutdown, or no answer in time). SERVER_ERROR is JSON-RPC's implementation-defined
 * "server error" code, as the SDK's own HTTP refusals use it; the SDK exports no name for it.
 */
import { JSONRPC_VERSION, type JSONRPCErrorResponse, type RequestId } from '@modelcontextprotocol/server';

const SERVER_ERROR = -32000;

/** JSON-RPC 2.0 answers with a null id when the request's id cannot be read; the SDK's type has no null. */
export type ErrorAnswer = Omit<JSONRPCErrorResponse, 'id'> & { id: RequestId | null };

export function rpcError(message: string, id: RequestId | null = null, code = SERVER_ERROR): ErrorAnswer {
  return { jsonrpc: JSONRPC_VERSION, error: { code, message }, id };
}
