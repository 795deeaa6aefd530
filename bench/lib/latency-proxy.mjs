/**
 * A network in front of `mock-api`: a reverse proxy on loopback (node:http) that holds every
 * request for half of a stated round trip before forwarding it and every answer for the other half
 * before sending it on, so each upstream request costs that round trip and nothing else (opening a
 * connection costs nothing more: a real network would charge its handshakes too, so this is the
 * kindest network with that latency). It logs each request as it arrives, for the requests a phase
 * makes to be counted. With `hang`, requests to `hang` (a path prefix) are held open without an
 * answer until the client gives up: a hosted endpoint that hangs (`hang` is a path, matched without
 * its query).
 */
import { Agent, createServer, request } from 'node:http';

/** The round trip each upstream request is given: a client tens of milliseconds from the API. */
export const ROUND_TRIP_MS = 60;

export async function startLatencyProxy({ upstream, roundTripMs = ROUND_TRIP_MS, hang }) {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set();
  const held = new Set();
  let seen = [];
  const later = (fn) => setTimeout(fn, roundTripMs / 2);
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (hang !== undefined && req.url.split('?', 1)[0] === hang) {
      held.add(res);
      res.once('close', () => held.delete(res));
      req.resume();
      return;
    }
    later(() => {
      // Host names the upstream: mock-api's MCP path admits only the address it is bound to.
      const headers = { ...req.headers, host: target.host };
      const forward = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
        (answer) => later(() => (res.writeHead(answer.statusCode, answer.headers), answer.pipe(res))),
      );
      forward.once('error', (error) => res.destroy(error));
      req.pipe(forward);
    });
  });
  server.on('connection', (socket) => (sockets.add(socket), socket.once('close', () => sockets.delete(socket))));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    /** The requests that arrived since the last take ("GET /api/public/v1/…"), in order. */
    take() {
      const taken = seen;
      seen = [];
      return taken;
    },
    async close() {
      for (const res of held) res.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
