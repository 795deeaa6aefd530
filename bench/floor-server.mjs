#!/usr/bin/env node
/** The floor over stdio: floor-tool.mjs's server through the SDK's `serveStdio`. */
import module from 'node:module';
// The same on-disk compile cache service-mcp's launcher turns on: one line any server can have.
module.enableCompileCache?.();
const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
const { floorServer } = await import('./floor-tool.mjs');
serveStdio(floorServer);
