/**
 * The floor's one server: the smallest MCP server the same SDK (v2) allows, with one tool that
 * makes one GET of an upstream path with undici's `request()` on a keep-alive agent and returns
 * the body as text. Nothing is validated, rendered or cached, so whatever service-mcp costs
 * beyond this is its own. undici is loaded on the first call, as service-mcp loads it, so that
 * cold start compares the servers and not who imports what first. Upstream from FLOOR_UPSTREAM.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

const upstream = process.env.FLOOR_UPSTREAM ?? 'http://127.0.0.1:4010';
let client;
/** Loads undici and makes the agent, once; the first call does it unless floor-server.mjs did at start. */
export const undici = () =>
  (client ??= import('undici').then(({ Agent, request }) => ({
    request,
    dispatcher: new Agent({ keepAliveTimeout: 30_000 }),
  })));

export function floorServer() {
  const server = new McpServer({ name: 'floor', version: '0.0.0' });
  server.registerTool(
    'fetch_path',
    { description: 'GET an upstream path', inputSchema: z.object({ path: z.string() }) },
    async ({ path }) => {
      const { request, dispatcher } = await undici();
      const { statusCode, body } = await request(upstream + path, {
        dispatcher,
        headers: { accept: 'application/json' },
      });
      return { content: [{ type: 'text', text: await body.text() }], isError: statusCode >= 400 };
    },
  );
  return server;
}
