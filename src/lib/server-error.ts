/**
 * JSON-RPC's implementation-defined "server error" code, which both transports answer with when
 * they refuse a request themselves (HTTP: a limit or shutdown; stdio: shutdown or no answer in
 * time), as the SDK's own transport does for its HTTP-level refusals. The SDK exports no name for it.
 */
export const SERVER_ERROR = -32000;
