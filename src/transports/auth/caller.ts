/**
 * Who is calling, as the rest of the server sees it: a name, never a token. It rides on the
 * SDK's pass-through `authInfo` (the only per-request channel from node:http to the server
 * factory), under a key of ours in `extra`; the token itself is blanked before it goes there.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';

const CALLER_KEY = 'serviceMcpCaller';

export function withCaller(verified: AuthInfo, caller: string): AuthInfo {
  return { ...verified, token: '', extra: { ...verified.extra, [CALLER_KEY]: caller } };
}

/** A caller no token names (auth off): known by its address alone. */
export function anonymous(address: string | undefined): AuthInfo {
  const caller = `address:${address ?? 'unknown'}`;
  return { token: '', clientId: caller, scopes: [], extra: { [CALLER_KEY]: caller } };
}

export function callerOf(auth: AuthInfo | undefined): string | undefined {
  const caller = auth?.extra?.[CALLER_KEY];
  return typeof caller === 'string' ? caller : undefined;
}
