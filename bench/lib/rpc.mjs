/**
 * Minimal MCP clients for measuring: newline-delimited JSON-RPC over a spawned process's stdio,
 * and JSON-RPC POSTs to a Streamable HTTP endpoint. Hand-written rather than the SDK's Client so
 * the client side adds almost nothing to what is measured, and the same for every server.
 */
import { spawn } from 'node:child_process';

const PROTOCOL_VERSION = '2025-06-18';
const CLIENT_INFO = { name: 'service-mcp-bench', version: '0.0.0' };
const INIT_PARAMS = { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: CLIENT_INFO };
/** What a 2026-07-28 client sends with every request instead of an initialize handshake. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Spawns `args` under this Node and returns a JSON-RPC peer on its stdio. `t0` is the spawn time. */
export function spawnStdio(args, env) {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const pending = new Map();
  let nextId = 1;
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim() === '') continue;
      const message = JSON.parse(line);
      const waiter = message.id !== undefined ? pending.get(message.id) : undefined;
      if (!waiter) continue; // notifications (logging, progress) are not measured
      pending.delete(message.id);
      waiter({ message, at: performance.now(), bytes: Buffer.byteLength(line) });
    }
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.once('exit', (code) => {
    for (const waiter of pending.values())
      waiter({
        message: { error: { message: `server exited (${code}): ${stderr.slice(-500)}` } },
        at: performance.now(),
        bytes: 0,
      });
    pending.clear();
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  return {
    t0,
    pid: child.pid,
    stderr: () => stderr,
    request,
    notify: (method, params) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`),
    /** initialize + initialized, as every client does first. */
    async initialize() {
      const reply = await request('initialize', INIT_PARAMS);
      if (reply.message.error) throw new Error(`initialize failed: ${JSON.stringify(reply.message.error)}`);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      return reply;
    },
    async call(name, args) {
      const reply = await request('tools/call', { name, arguments: args });
      if (reply.message.error) throw new Error(`${name} failed: ${JSON.stringify(reply.message.error)}`);
      if (reply.message.result.isError)
        throw new Error(`${name} returned a tool error: ${reply.message.result.content?.[0]?.text}`);
      return reply.message.result;
    },
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * A stateless Streamable HTTP MCP client; answers may come as JSON or as one SSE event. A request
 * whose kept-alive connection the server closed as it was sent (a reset before any answer) is sent
 * once more on a new one, as browsers do, and counted in `resent`: on a loaded machine the server's
 * keep-alive timeout can run out between two calls faster than the client's clock sees it.
 */
export function httpPeer(url, dispatcher, fetch) {
  let nextId = 1;
  const send = async (init) => {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (error?.cause?.code !== 'ECONNRESET' && error?.cause?.code !== 'UND_ERR_SOCKET') throw error;
      peer.resent++;
      return fetch(url, init);
    }
  };
  const post = async (method, params) => {
    const response = await send({
      method: 'POST',
      dispatcher,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': PROTOCOL_VERSION,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 300)}`);
    const json = (response.headers.get('content-type') ?? '').includes('text/event-stream')
      ? text
          .split('\n')
          .filter((l) => l.startsWith('data: '))
          .map((l) => JSON.parse(l.slice(6)))
          .find((m) => m.id !== undefined)
      : JSON.parse(text);
    if (json.error) throw new Error(`${method} failed: ${JSON.stringify(json.error)}`);
    return json.result;
  };
  const peer = {
    resent: 0,
    initialize: () => post('initialize', INIT_PARAMS),
    async call(name, args) {
      const result = await post('tools/call', { name, arguments: args });
      if (result.isError) throw new Error(`${name} returned a tool error: ${result.content?.[0]?.text}`);
      return result;
    },
  };
  return peer;
}
