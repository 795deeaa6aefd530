import { z } from 'zod';
import { DiscoveryDataSchema } from '../api/schemas.js';
import { renderDiscovery } from '../render/discovery.js';
import { defineTool } from './define.js';

export const discoverApi = defineTool({
  name: 'discover_api',
  title: 'Discover the API',
  description: 'The deployed API catalog: endpoints, auth boundary, envelopes, snapshot freshness.',
  input: z.strictObject({}),
  example: {},
  data: DiscoveryDataSchema,
  call: (_args, { client, ...options }) => client.discover(options),
  render: (data) => renderDiscovery(data),
});
