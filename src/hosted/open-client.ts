/**
 * The SDK's client, connected to the hosted surface over the guarded fetch, in whichever era the
 * surface speaks. Loaded by the bridge at its first read or call, never at start: with --no-bridge,
 * or a list the build or an earlier run left, the client's code (its own copy of the protocol's
 * schemas) is not evaluated before it is needed.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ACCEPT_ALL } from '../lib/accept-all-validator.js';
import { PACKAGE_NAME, VERSION } from '../contract/version.js';
import { HOSTED_CAPS } from './caps.js';
import type { WebFetch } from './guarded-fetch.js';

export async function openClient(url: URL, fetch: WebFetch, probeMs: number, timeoutMs: number): Promise<Client> {
  const client = new Client(
    { name: `${PACKAGE_NAME}-bridge`, version: VERSION },
    {
      versionNegotiation: { mode: 'auto', probe: { timeoutMs: probeMs } },
      // structuredContent is checked against the admitted schema by answer.ts, not by the SDK.
      jsonSchemaValidator: ACCEPT_ALL,
      listMaxPages: HOSTED_CAPS.listPages,
    },
  );
  const transport = new StreamableHTTPClientTransport(url, {
    fetch: (target, init) => fetch(String(target), init ?? {}),
  });
  await client.connect(transport, { timeout: timeoutMs });
  return client;
}
