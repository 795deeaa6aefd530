/**
 * How many calls in flight a stdio server needs: a client keeps K `search_jobs` calls (per_page
 * 100, distinct pages, --no-cache, so each is a real upstream request to mock-api) outstanding,
 * reading every answer, and we record calls per second and the server's peak RSS for each K,
 * with mock-api answering at once and with an added upstream latency (a `delay` fault).
 *
 *   npm run build && node_modules/.bin/node bench/in-flight.mjs [calls per K] [delay ms]
 *
 * The number behind --max-in-flight's default: see bench/RESULTS.md.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/service-mcp.js', import.meta.url));
const CALLS = Number(process.argv[2] ?? 600);
const DELAY_MS = Number(process.argv[3] ?? 100);
const LEVELS = [1, 4, 16, 32, 64, 128, 256];

function startMockApi() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mock-api', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve({ url: match[1], child });
    });
    child.once('exit', (code) => reject(new Error(`mock-api exited ${code}`)));
  });
}

const rssKb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

async function run(url, inFlight) {
  // --max-in-flight set high so the client, not the server, decides the concurrency here.
  const env = { ...process.env, SERVICE_MCP_MAX_IN_FLIGHT: '100000' };
  const child = spawn(process.execPath, [BIN, '--base-url', url, '--no-cache'], {
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let buffer = '';
  let answered = 0;
  let sent = 0;
  let done;
  const finished = new Promise((resolve) => (done = resolve));
  const send = () => {
    sent++;
    // 328 jobs, 100 a page: pages 1 to 4; q varies so no two calls share an upstream request.
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: sent, method: 'tools/call', params: { name: 'search_jobs', arguments: { per_page: 100, page: (sent % 4) + 1, q: sent % 2 === 0 ? 'engineer' : 'e' } } })}\n`,
    );
  };
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let at;
    while ((at = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (typeof JSON.parse(line).id !== 'number' || JSON.parse(line).id === 0) continue;
      answered++;
      if (sent < CALLS) send();
      if (answered === CALLS) done();
    }
  });
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`,
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssKb(child.pid))), 20);
  const started = performance.now();
  for (let i = 0; i < inFlight && sent < CALLS; i++) send();
  await finished;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
  return { inFlight, callsPerS: Math.round(CALLS / seconds), peakRssMb: Math.round(peak / 1024) };
}

const api = await startMockApi();
try {
  for (const delay of [0, DELAY_MS]) {
    const rules = delay === 0 ? [] : [{ path: '/api/public/v1/search/jobs', kind: 'delay', delayMs: delay }];
    await fetch(`${api.url}/__mock/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(rules),
    });
    for (const level of LEVELS) console.log(JSON.stringify({ upstreamDelayMs: delay, ...(await run(api.url, level)) }));
  }
} finally {
  api.child.kill('SIGTERM');
}
