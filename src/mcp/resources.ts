/** The API's own descriptions as resources: OpenAPI, llms.txt and the discovery document. */
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import type { ApiClient } from '../api/client.js';

interface ResourceDefinition {
  resource: Resource;
  read(client: ApiClient, signal?: AbortSignal): Promise<string>;
}

export const RESOURCES: readonly ResourceDefinition[] = [
  {
    resource: { uri: 'service-mcp://api/openapi.json', name: 'openapi', title: 'OpenAPI description', description: 'OpenAPI 3.1 description of the public read API', mimeType: 'application/json' },
    read: async (client, signal) => JSON.stringify(await client.getOpenApi({ signal })),
  },
  {
    resource: { uri: 'service-mcp://api/llms.txt', name: 'llms.txt', title: 'Agent index (llms.txt)', description: "The API's agent index", mimeType: 'text/plain' },
    read: (client, signal) => client.getLlmsTxt({ signal }),
  },
  {
    resource: { uri: 'service-mcp://api/discovery', name: 'discovery', title: 'API discovery document', description: 'Deployed endpoints, authentication boundary and envelopes, with meta', mimeType: 'application/json' },
    read: async (client, signal) => {
      const result = await client.discover({ signal });
      return JSON.stringify({ data: result.data, meta: result.meta });
    },
  },
];

export async function readResource(client: ApiClient, uri: string, signal?: AbortSignal): Promise<ReadResourceResult | undefined> {
  const definition = RESOURCES.find((r) => r.resource.uri === uri);
  if (!definition) return undefined;
  const text = await definition.read(client, signal);
  return { contents: [{ uri, mimeType: definition.resource.mimeType, text }] };
}
