#!/usr/bin/env node
// Thin launcher: check the Node version, enable Node's on-disk compile cache (faster cold starts
// under npx), then load the bundle. Plain JavaScript that older Node versions can still run.
import module from 'node:module';

// The lowest Node that every dependency runs on (undici 8 needs 22.19); package.json's `engines`
// says the same (a test holds the two together).
const NEEDED = '22.19.0';
const older = (found, needed) => {
  const [a, b] = [found, needed].map((version) => version.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i];
  return false;
};
if (older(process.versions.node, NEEDED)) {
  const message = `service-mcp needs Node.js ${NEEDED} or later; this is ${process.version}. Install Node.js ${NEEDED}+ (or point your MCP client's "command" at a newer node) and start it again.`;
  process.stderr.write(`${message}\n`);
  const COMMANDS = ['tools', 'call', 'mock-api', 'serve', 'help', '-h', '--help', '-v', '--version'];
  const stdioMode = !process.argv.slice(2).some((arg) => COMMANDS.includes(arg));
  if (!stdioMode) process.exit(2);
  // An MCP client often hides stderr: answer its first request, so it shows why, not "connection closed".
  let buffered = '';
  const answer = (line) => {
    let id = null;
    try {
      const request = JSON.parse(line);
      if (request && (typeof request.id === 'string' || typeof request.id === 'number')) id = request.id;
    } catch {
      // not JSON: answered with id null
    }
    const error = { code: -32603, message, data: { node: process.version, needed: `>=${NEEDED}` } };
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`, () => process.exit(1));
  };
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buffered += chunk;
    const newline = buffered.indexOf('\n');
    if (newline >= 0) answer(buffered.slice(0, newline));
  });
  process.stdin.on('end', () => (buffered.trim() ? answer(buffered) : process.exit(1)));
} else {
  module.enableCompileCache?.();
  await import('../dist/cli.js');
}
