/**
 * Serves the browser test's host page from a loopback node:http server: one HTML page and its
 * script (test/e2e/apps/host.ts, bundled for the browser by esbuild when the test starts).
 */
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>MCP Apps test host</title>
<style>body{margin:0;background:#888}iframe{display:block;width:100%;border:0;background:transparent}</style></head>
<body><div id="frames"></div><script src="/host.js"></script></body>
</html>
`;

export interface HostPage {
  origin: string;
  close(): Promise<void>;
}

export async function startHostPage(): Promise<HostPage> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./host.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'warning',
  });
  const script = bundle.outputFiles[0]!.text;
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://host').pathname;
    if (path === '/') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    if (path === '/host.js')
      return void response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
