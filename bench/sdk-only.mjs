#!/usr/bin/env node
/**
 * The SDK's own share of a cold start: a process that loads what the floor loads (the SDK v2
 * server and its stdio entry, with the same compile cache) and then only answers the first line
 * it reads, with no server built. Any server built on the SDK starts no sooner and holds no less
 * memory than this, so it bounds what a cold-start or RSS target against the floor can ask.
 */
import module from 'node:module';
module.enableCompileCache?.();
await import('@modelcontextprotocol/server');
await import('@modelcontextprotocol/server/stdio');
process.stdin.once('data', (chunk) => {
  const { id } = JSON.parse(String(chunk).split('\n')[0]);
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: { tools: [] } })}\n`);
});
