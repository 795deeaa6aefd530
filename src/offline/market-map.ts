/** The market-map read: dimensions filtered by layer and readiness, with counts and generation metadata. */
import { MARKET_MAP_STATUSES } from '../contract/schemas.js';
import type { Dataset } from './dataset.js';
import { errorResponse, successResponse } from './responses.js';
import type { ParamValues } from './validate-params.js';

export function marketMapResponse({ dataset }: { dataset: Dataset }, values: ParamValues): Response {
  const map = dataset.market_map;
  const status = typeof values.status === 'string' ? values.status : 'all';
  const layer = typeof values.layer === 'string' ? values.layer : 'all';
  if (layer !== 'all' && !map.layers.includes(layer)) {
    return errorResponse(
      400,
      'invalid_parameter',
      `layer must be all or one of the advertised layers: ${map.layers.join(', ')} (got ${JSON.stringify(layer)})`,
      { parameter: 'layer' },
    );
  }
  const inLayer = map.dimensions.filter((d) => layer === 'all' || d.layer === layer);
  const readiness: Record<string, number> = {};
  for (const state of MARKET_MAP_STATUSES)
    if (state !== 'all') readiness[state] = inLayer.filter((d) => d.readiness === state).length;
  const data = {
    layers: map.layers,
    statuses: MARKET_MAP_STATUSES,
    filters: { status, layer },
    // Counted over the selected layer before the status filter, so a reader sees what is missing.
    readiness: { ...readiness, total: inLayer.length },
    dimensions: inLayer.filter((d) => status === 'all' || d.readiness === status),
    generation: map.generation,
  };
  return successResponse(data, { ...map.meta });
}
