import { z } from 'zod';
import { HealthResponseSchema } from '../api/schemas.js';
import { renderHealth } from '../render/health.js';
import { defineTool } from './define.js';

export const checkApiHealth = defineTool({
  name: 'check_api_health',
  title: 'Check API health',
  operation: 'getHostedMcpHealth',
  description: 'API health: ok, or degraded with failing probes. Use after upstream_unavailable errors.',
  input: z.strictObject({}),
  example: {},
  data: HealthResponseSchema,
  call: (_args, { client, ...options }) => client.getHealth(options),
  render: (data, _args, result) => renderHealth(data, result.status),
  // The generic hints send the reader here; from here they must point elsewhere.
  hints: {
    upstream_unavailable: 'The health endpoint itself did not answer; try again in a minute, and if it keeps failing the API is down.',
    upstream_contract: 'The health endpoint answered with something that is not the health response; discover_api shows what this base URL serves.',
  },
});
