#!/usr/bin/env node
/**
 * The wire limit: the least a stdio MCP proxy can do, with no SDK. It reads a JSON-RPC line,
 * makes one GET with undici's `request()` on a keep-alive agent, and writes the body back as a
 * JSON-RPC result line; initialize and tools/list get the smallest valid answers. No validation,
 * no schema, no rendering: the cost of the pipe, the parse, the GET and the serialisation alone.
 */
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';

const upstream = process.env.FLOOR_UPSTREAM ?? 'http://127.0.0.1:4010';
const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
const TOOLS = [{ name: 'fetch_path', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }];
const send = (id, result) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result })}\n`);

async function answer(message) {
  if (message.id === undefined) return;
  if (message.method === 'initialize')
    return send(message.id, {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: 'wire', version: '0' },
    });
  if (message.method === 'tools/list') return send(message.id, { tools: TOOLS });
  const { statusCode, body } = await request(upstream + message.params.arguments.path, {
    dispatcher,
    headers: { accept: 'application/json' },
  });
  send(message.id, { content: [{ type: 'text', text: await body.text() }], isError: statusCode >= 400 });
}

createInterface({ input: process.stdin }).on('line', (line) => void answer(JSON.parse(line)));
