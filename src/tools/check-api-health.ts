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
});
