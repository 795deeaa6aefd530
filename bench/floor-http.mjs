#!/usr/bin/env node
/**
 * The floor over HTTP: floor-tool.mjs's server through the SDK's `createMcpHandler` (stateless,
 * both eras) and `toNodeHandler` on node:http, on a free loopback port it prints.
 */
import module from 'node:module';
module.enableCompileCache?.();
const { createServer } = await import('node:http');
const { createMcpHandler } = await import('@modelcontextprotocol/server');
const { toNodeHandler } = await import('@modelcontextprotocol/node');
const { floorServer } = await import('./floor-tool.mjs');

const handle = toNodeHandler(createMcpHandler(floorServer, { legacy: 'stateless' }));
const server = createServer((req, res) => void handle(req, res));
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(`floor HTTP listening on http://127.0.0.1:${server.address().port}/mcp\n`),
);
process.once('SIGTERM', () => process.exit(0));
