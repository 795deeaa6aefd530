import * as z from 'zod';
import { DiscoveryDataSchema } from '../contract/schemas.js';
import { renderDiscovery } from '../render/discovery.js';
import { coverageOf, CoverageSchema } from './coverage.js';
import { defineTool, type AnyTool } from './define.js';

/** `registry` is read at call time: the map names every tool, this one included. */
export function discoverApiTool(registry: () => readonly AnyTool[]) {
  return defineTool({
    name: 'discover_api',
    title: 'Discover the API',
    description:
      'What this API offers: the deployed catalog (endpoints, tools), authentication (API key), freshness (how often updated).',
    operation: 'discoverPublicApi',
    input: z.strictObject({}),
    example: {},
    data: DiscoveryDataSchema,
    call: (_args, { client, ...options }) => client.discover(options),
    render: (data, _args, result) => renderDiscovery(data, coverageOf(data, result, registry())),
    extra: { key: 'coverage', schema: CoverageSchema, build: (data, result) => coverageOf(data, result, registry()) },
  });
}
