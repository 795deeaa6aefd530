/**
 * The market map's data is free-form in the spec. Dimensions, when present as a list, get one line
 * each with their readiness; everything is also given as fenced upstream data.
 */
import type { MarketMapData } from '../api/schemas.js';
import { fencedData, oneLine } from './text.js';

const pickString = (record: Record<string, unknown>, keys: readonly string[]): string | undefined => {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
};

export function renderMarketMap(data: MarketMapData): string {
  const lines: string[] = [];
  const dimensions = Array.isArray(data.dimensions) ? data.dimensions.filter((d): d is Record<string, unknown> => typeof d === 'object' && d !== null) : [];
  if (dimensions.length > 0) {
    const counts = new Map<string, number>();
    for (const d of dimensions) {
      const readiness = pickString(d, ['readiness', 'status']) ?? 'unstated';
      counts.set(readiness, (counts.get(readiness) ?? 0) + 1);
    }
    lines.push(`Market map: ${dimensions.length} dimensions (${[...counts].map(([k, n]) => `${n} ${oneLine(k, 20)}`).join(', ')}).`);
    for (const d of dimensions) {
      const name = pickString(d, ['label', 'name', 'title', 'id', 'key']) ?? '(unnamed)';
      const layer = pickString(d, ['layer']);
      const readiness = pickString(d, ['readiness', 'status']) ?? 'unstated';
      lines.push(`- ${layer ? `[${oneLine(layer, 30)}] ` : ''}"${oneLine(name, 80)}": ${oneLine(readiness, 20)}`);
    }
  }
  const rest = Object.fromEntries(Object.entries(data).filter(([key]) => key !== 'dimensions'));
  if (Object.keys(rest).length > 0) lines.push(`Other market-map data (upstream data):\n${fencedData(rest, 2_500)}`);
  return lines.length > 0 ? lines.join('\n') : 'The market map is empty.';
}
