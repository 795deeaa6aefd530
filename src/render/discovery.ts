import type { DiscoveryData } from '../contract/schemas.js';
import { datum, quote } from '../lib/text.js';

/** What the text says of the tools' coverage: which tool serves each endpoint (by index), which are not deployed. */
export interface EndpointCoverage {
  endpoints: ReadonlyArray<{ tool: string | null }>;
  tools_not_deployed: ReadonlyArray<{ tool: string; operation: string }>;
}

/**
 * The catalog, one endpoint a line. An endpoint a tool serves names the tool, whose own description
 * a model has already (the API's words for it stay in structuredContent); the others, which are
 * called over HTTP, are described in the API's words.
 */
export function renderDiscovery(data: DiscoveryData, coverage?: EndpointCoverage): string {
  const lines = [
    coverage === undefined
      ? `Endpoints (${data.endpoints.length}):`
      : `Endpoints (${data.endpoints.length}; "→ tool" names the tool that serves one, the others are called over HTTP):`,
  ];
  data.endpoints.forEach((e, i) => {
    const tool = coverage?.endpoints[i]?.tool;
    const endpoint = `- ${datum(e.method, 8)} ${datum(e.path, 120)}`;
    lines.push(tool ? `${endpoint} → ${tool}` : `${endpoint}: ${quote(e.description, 200)}`);
  });
  if (coverage && coverage.tools_not_deployed.length > 0) {
    lines.push(
      `Not deployed here (these tools answer not_deployed): ${coverage.tools_not_deployed.map((t) => `${t.tool} (${t.operation})`).join(', ')}`,
    );
  }
  const pairs = (record: Record<string, string>) =>
    Object.entries(record).map(([key, value]) => `- ${datum(key, 40)}: ${quote(value, 200)}`);
  if (Object.keys(data.auth).length > 0) lines.push('Authentication:', ...pairs(data.auth));
  if (Object.keys(data.envelopes).length > 0) lines.push('Envelopes:', ...pairs(data.envelopes));
  return lines.join('\n');
}
