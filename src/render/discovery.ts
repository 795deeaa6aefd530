import type { DiscoveryData } from '../api/schemas.js';
import { datum, quote } from './text.js';

export function renderDiscovery(data: DiscoveryData): string {
  const lines = [`Endpoints (${data.endpoints.length}):`];
  for (const e of data.endpoints) lines.push(`- ${datum(e.method, 8)} ${datum(e.path, 120)}: ${quote(e.description, 200)}`);
  const pairs = (record: Record<string, string>) => Object.entries(record).map(([key, value]) => `- ${datum(key, 40)}: ${quote(value, 200)}`);
  if (Object.keys(data.auth).length > 0) lines.push('Authentication:', ...pairs(data.auth));
  if (Object.keys(data.envelopes).length > 0) lines.push('Envelopes:', ...pairs(data.envelopes));
  return lines.join('\n');
}
