#!/usr/bin/env node
/**
 * The floor: the smallest MCP server the same SDK allows (McpServer over serveStdio) with one tool
 * that does one fetch of an upstream path and returns the body as text. Nothing is validated,
 * rendered or cached, so whatever service-mcp costs beyond this is its own overhead.
 * Upstream origin from FLOOR_UPSTREAM.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const upstream = process.env.FLOOR_UPSTREAM ?? 'http://127.0.0.1:4010';
serveStdio(() => {
  const server = new McpServer({ name: 'floor', version: '0.0.0' });
  server.registerTool('fetch_path', { description: 'GET an upstream path', inputSchema: z.object({ path: z.string() }) }, async ({ path }) => {
    const response = await fetch(upstream + path);
    return { content: [{ type: 'text', text: await response.text() }], isError: !response.ok };
  });
  return server;
});
