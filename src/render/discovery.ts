import type { DiscoveryData } from '../api/schemas.js';
import { oneLine } from './text.js';

export function renderDiscovery(data: DiscoveryData): string {
  const lines = [`Endpoints (${data.endpoints.length}):`];
  for (const e of data.endpoints) lines.push(`- ${oneLine(e.method, 8)} ${oneLine(e.path, 120)}: ${oneLine(e.description, 200)}`);
  const pairs = (record: Record<string, string>) => Object.entries(record).map(([key, value]) => `- ${oneLine(key, 40)}: ${oneLine(value, 200)}`);
  if (Object.keys(data.auth).length > 0) lines.push('Authentication:', ...pairs(data.auth));
  if (Object.keys(data.envelopes).length > 0) lines.push('Envelopes:', ...pairs(data.envelopes));
  return lines.join('\n');
}
