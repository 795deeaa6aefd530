/**
 * The deployed catalog as a run keeps it for the next (deployed-catalog.ts; lib/kept-file.ts): the
 * endpoints, when they were read and until when its cache headers kept them fresh (epoch ms). A
 * file of another shape is no catalog.
 */
import type { DiscoveryData } from '../contract/schemas.js';
import { isRecord } from '../lib/is-record.js';

export type Endpoint = Pick<DiscoveryData['endpoints'][number], 'method' | 'path'>;

export interface KeptCatalog {
  endpoints: Endpoint[];
  at: number;
  freshUntil: number;
}

export function parseKept(text: string | undefined): KeptCatalog | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value) || typeof value.at !== 'number' || typeof value.freshUntil !== 'number') return undefined;
    const { endpoints } = value;
    if (!Array.isArray(endpoints)) return undefined;
    const ok = endpoints.every((e) => isRecord(e) && typeof e.method === 'string' && typeof e.path === 'string');
    return ok ? { endpoints: endpoints as Endpoint[], at: value.at, freshUntil: value.freshUntil } : undefined;
  } catch {
    return undefined;
  }
}
