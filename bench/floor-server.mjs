#!/usr/bin/env node
/**
 * The floor over stdio: floor-tool.mjs's server through the SDK's `serveStdio`. With
 * FLOOR_CLIENT_AT_START=1 it loads its HTTP client (undici) before it serves, not at its first
 * call: the other way a small server may be written, slower to tools/list and faster to its first
 * answer (the network rows compare with both).
 */
import module from 'node:module';
// The same on-disk compile cache service-mcp's launcher turns on: one line any server can have.
module.enableCompileCache?.();
const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
const { floorServer, undici } = await import('./floor-tool.mjs');
if (process.env.FLOOR_CLIENT_AT_START === '1') await undici();
serveStdio(floorServer);
