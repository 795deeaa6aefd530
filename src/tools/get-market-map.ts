import * as z from 'zod';
import { isRecord } from '../lib/is-record.js';
import { MarketMapDataSchema } from '../contract/schemas.js';
import { VIEWS } from '../contract/views.js';
import { renderMarketMap } from '../render/market-map.js';
import { defineTool } from './define.js';
import { marketMapShape } from '../contract/params.js';

export const getMarketMap = defineTool({
  name: 'get_market_map',
  title: 'Get market map',
  operation: 'getPublicMarketMap',
  description:
    'Overview (big picture) of the AI and web3 hiring market by industry segments (categories, sectors) and layer: readiness (coverage), job and company counts, median salary, trend (growing, shrinking), top skills in demand.',
  input: z.strictObject(marketMapShape),
  example: { layer: 'models', status: 'ready' },
  data: MarketMapDataSchema,
  call: (args, { client, ...options }) => client.getMarketMap(args, options),
  render: (data, _args, result) => renderMarketMap(data, Date.parse(result.retrievedAt), result.meta.generated_at),
  freshness: { cadence: (data) => (isRecord(data.generation) ? data.generation.cadence : undefined) },
  view: VIEWS.marketMap,
});
