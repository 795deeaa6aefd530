/**
 * `mock-api`: the embedded offline API over HTTP with the hosted tool endpoint beside it, the spec's
 * one service of two surfaces: the MCP endpoint `serve --http` mounts, over a backend that calls the
 * same engine in-process, so its tools (ours and the offline deployment's market tools) see the
 * snapshot and every injected fault the REST routes do, and count in the same hit statistics.
 */
import type { Config } from '../config/config.js';
import type { Logger } from '../obs/log.js';
import { createOfflineEngine } from '../offline/engine.js';
import { faultsFromEnv } from '../offline/faults.js';
import { marketTools, surfaceBackend } from './offline-deployment.js';
import { startOfflineServer, type OfflineServer } from '../offline/server.js';
import { buildPolicy, type AccessPolicy } from '../transports/http-guard.js';
import { sendRpcError } from '../lib/http-server.js';
import { createMcpEndpoint, DEFAULT_LIMITS, HOSTED_MCP_PATH } from '../transports/mcp-endpoint.js';

export async function startMockApi(options: {
  config: Config;
  logger: Logger;
  host?: string;
  port?: number;
}): Promise<OfflineServer> {
  const { config, logger, host = '127.0.0.1' } = options;
  // The hosted path is mounted beside the engine, so the engine itself serves no hosted surface: the
  // surface over HTTP, behind the same guards as serve --http, a server of its own tools, never a bridge.
  const engine = await createOfflineEngine({ faults: faultsFromEnv() });
  const endpoint = createMcpEndpoint({
    backend: surfaceBackend(config, logger, engine),
    logger,
    limits: DEFAULT_LIMITS,
    extend: marketTools(engine),
  });
  let access: AccessPolicy | undefined;
  const server = await startOfflineServer({
    host,
    port: options.port ?? 0,
    engine,
    mounts: {
      [HOSTED_MCP_PATH]: async (req, res) => {
        if (access) return endpoint.serve(req, res, access);
        req.resume();
        sendRpcError(res, 503, 'Service Unavailable: the server is starting', { 'retry-after': '1' });
      },
    },
  });
  // Host and Origin are checked against the address actually bound (--port 0 included).
  access = buildPolicy({ host, port: server.port });
  return {
    ...server,
    close: async () => {
      await server.close();
      await endpoint.close().catch(() => {});
    },
  };
}
