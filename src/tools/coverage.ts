/**
 * Which tool serves which endpoint of the deployed catalog, which endpoints no tool serves (what
 * else the API offers), and which tools the deployment does not support (they answer
 * not_deployed). Built from the client's reading of each endpoint's operation and the registry.
 */
import * as z from 'zod';
import type { ApiResult } from '../api/answers.js';
import { describeOperation } from '../contract/operations.js';
import type { DiscoveryData } from '../contract/schemas.js';
import type { AnyTool } from './define.js';

/** Described in docs/contract.md rather than in every tools/list. */
export const CoverageSchema = z.object({
  // Every endpoint of the deployed catalog, in its order, with the tool that serves it (null: none).
  endpoints: z.array(z.object({ method: z.string(), path: z.string(), tool: z.string().nullable() })),
  // Tools whose operation this deployment does not list: they answer not_deployed.
  tools_not_deployed: z.array(z.object({ tool: z.string(), operation: z.string() })),
});
export type Coverage = z.infer<typeof CoverageSchema>;

export function coverageOf(data: DiscoveryData, result: ApiResult<DiscoveryData>, tools: readonly AnyTool[]): Coverage {
  const operations = result.endpointOperations ?? [];
  const endpoints = data.endpoints.map((endpoint, i) => ({
    method: endpoint.method,
    path: endpoint.path,
    tool: tools.find((tool) => operations[i] !== undefined && tool.operation === operations[i])?.name ?? null,
  }));
  const listed = new Set(operations);
  return {
    endpoints,
    tools_not_deployed: tools
      .filter((tool) => !listed.has(tool.operation))
      .map((tool) => ({ tool: tool.name, operation: describeOperation(tool.operation) })),
  };
}
