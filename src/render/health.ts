import type { HealthResponse } from '../api/schemas.js';
import { datum } from './text.js';

/** ok or degraded first, then the failing probes (a 503 health is a result, not an error). */
export function renderHealth(health: HealthResponse, httpStatus: number): string {
  const failing = health.probes.filter((probe) => !probe.ok);
  const lines = [`API health: ${health.status.toUpperCase()} (HTTP ${httpStatus}); ${health.probes.length - failing.length} of ${health.probes.length} probes passing.`];
  for (const probe of health.probes) {
    const details = [probe.status === undefined ? '' : `HTTP ${probe.status}`, probe.path ? datum(probe.path, 80) : '', probe.ms === undefined ? '' : `${probe.ms} ms`].filter(Boolean).join(', ');
    lines.push(`- ${probe.ok ? 'ok' : 'FAILING'}: ${datum(probe.name, 60)}${details ? ` (${details})` : ''}`);
  }
  if (health.mcp_endpoint) lines.push(placeholder(health.mcp_endpoint) ? 'Hosted MCP endpoint: none here (the embedded offline API answers in-process; `service-mcp mock-api` serves one over HTTP at POST /api/public/v1/mcp)' : `Hosted MCP endpoint: ${datum(health.mcp_endpoint, 200)}`);
  return lines.join('\n');
}

/** An address under `.invalid` (RFC 6761), which the embedded offline API answers at: no one can reach it. */
function placeholder(url: string): boolean {
  return URL.canParse(url) && new URL(url).hostname.endsWith('.invalid');
}
