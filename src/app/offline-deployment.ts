/**
 * The offline deployment's hosted market surface, POST /api/public/v1/mcp?surface=market: a server
 * of its own tools (the seven over its REST API, and the market tools REST lacks,
 * app/market-tools.ts), never a bridge. The engine routes the path to it in-process, so the
 * offline bridge reaches it with no socket; mock-api serves the same definitions over HTTP.
 */
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';
import type { Backend } from '../tools/backend.js';
import { createBackend } from './backend.js';
import type { Config } from '../config/config.js';
import type { Logger } from '../obs/log.js';
import { createOfflineEngine, type OfflineEngine } from '../offline/engine.js';
import { registerMarketTools } from './market-tools.js';
import { createServer } from '../mcp/server.js';

/** The offline surface's own tools, added to a server of ours. */
export const marketTools =
  (engine: OfflineEngine) =>
  (mcp: McpServer): void =>
    registerMarketTools(mcp, engine.dataset);

/** The backend the surface's seven tools call: the same engine, and no bridge. */
export const surfaceBackend = (config: Config, logger: Logger, engine: OfflineEngine): Backend =>
  createBackend(config, logger, { engine, noBridge: true });

/** An offline engine whose hosted tool endpoint is the market surface, answered in-process. */
export async function createOfflineDeployment(config: Config, logger: Logger): Promise<OfflineEngine> {
  let serve: ((request: Request) => Promise<Response>) | undefined;
  const engine = await createOfflineEngine({ hosted: (request) => serve!(request) });
  const backend = surfaceBackend(config, logger, engine);
  const handler = createMcpHandler(() => createServer({ backend, logger, extend: marketTools(engine) }), {
    legacy: 'stateless',
  });
  serve = (request) => handler.fetch(request);
  return engine;
}
