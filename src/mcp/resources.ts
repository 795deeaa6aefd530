/** The API's own descriptions as resources: OpenAPI, llms.txt and the discovery document. */
import { ProtocolError, ProtocolErrorCode, type CacheHint, type McpServer } from '@modelcontextprotocol/server';
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../contract/errors.js';
import type { Mode } from '../api/provenance-record.js';
import { CATALOG_CACHE_HINT } from './cache-hints.js';

interface ResourceDefinition {
  name: string;
  uri: string;
  title: string;
  description: string;
  mimeType: string;
  /** How long a client may keep what the live API answered; offline documents are fixed for a build. */
  liveTtlMs: number;
  read(client: ApiClient, signal?: AbortSignal): Promise<string>;
}

const MINUTE_MS = 60_000;

const RESOURCES: readonly ResourceDefinition[] = [
  {
    name: 'openapi',
    uri: 'service-mcp://api/openapi.json',
    title: 'OpenAPI description',
    description: 'OpenAPI 3.1 description of the public read API',
    mimeType: 'application/json',
    // Changes only when the API is deployed anew.
    liveTtlMs: 60 * MINUTE_MS,
    read: async (client, signal) => JSON.stringify(await client.getOpenApi({ signal })),
  },
  {
    name: 'llms.txt',
    uri: 'service-mcp://api/llms.txt',
    title: 'Agent index (llms.txt)',
    description: "The API's agent index",
    mimeType: 'text/plain',
    liveTtlMs: 60 * MINUTE_MS,
    read: (client, signal) => client.getLlmsTxt({ signal }),
  },
  {
    name: 'discovery',
    uri: 'service-mcp://api/discovery',
    title: 'API discovery document',
    description: 'Deployed endpoints, authentication boundary and envelopes, with meta',
    mimeType: 'application/json',
    // The deployed catalog with its snapshot-freshness meta: the spec says to read it before
    // assuming an endpoint exists, so a client should not hold it long.
    liveTtlMs: 5 * MINUTE_MS,
    read: async (client, signal) => {
      const result = await client.discover({ signal });
      return JSON.stringify({ data: result.data, meta: result.meta });
    },
  },
];

/**
 * Registers the resources on `server`. A URI that is not one of them is the SDK's
 * resource-not-found error; an API failure while reading one is a protocol error carrying the
 * stable kind (the resource callbacks have no isError channel).
 */
export function registerResources(server: McpServer, client: ApiClient, mode: Mode): void {
  for (const definition of RESOURCES) {
    const { name, uri, title, description, mimeType } = definition;
    const cacheHint: CacheHint =
      mode === 'embedded' ? CATALOG_CACHE_HINT : { ttlMs: definition.liveTtlMs, cacheScope: 'public' };
    server.registerResource(name, uri, { title, description, mimeType, cacheHint }, async (_url, ctx) => {
      try {
        return { contents: [{ uri, mimeType, text: await definition.read(client, ctx.mcpReq.signal) }] };
      } catch (error) {
        if (error instanceof ApiError)
          throw new ProtocolError(ProtocolErrorCode.InternalError, error.message, {
            kind: error.kind,
            status: error.status,
          });
        throw error;
      }
    });
  }
}
