/**
 * The first seconds as users live them: service-mcp against `mock-api` behind a proxy that gives
 * every upstream request a round trip of ROUND_TRIP_MS (latency-proxy.mjs), each phase timed and its
 * upstream requests counted by the proxy, beside the floor in the same rounds: spawn to the
 * tools/list answer (a 2025 client: initialize, initialized, tools/list), the first call (get_job),
 * a second, different call (search_jobs, 20 jobs) and the first call repeated. service-mcp runs with
 * its defaults (the bridge on, the cache on) and with --no-bridge; another subject starts with the
 * defaults while the hosted MCP path hangs (the proxy holds its requests open), to tools/list only,
 * and another with the defaults from an empty cache directory: a user's first start, with no hosted
 * list or deployed catalog kept by an earlier one.
 * The floor runs twice: loading its HTTP client at its first call, as everywhere else in the bench,
 * and before it serves, which moves undici's load (100-300 ms on the bench machine) from the first
 * call to the start.
 */
import { ROUND_TRIP_MS, startLatencyProxy } from './latency-proxy.mjs';
import { emptyCacheDir, spawnFloor, spawnServiceMcp } from './processes.mjs';
import { jobPath, rotate, SEARCH_PATH } from './scenarios.mjs';

/** The spec's hosted tool endpoint (src/transports/mcp-endpoint.ts), which the bridge reads. */
const HOSTED_MCP_PATH = '/api/public/v1/mcp';

export const PHASES = ['list', 'first', 'second', 'repeat'];

const ours = {
  first: (peer, id) => peer.call('get_job', { job_id: id }),
  second: (peer) => peer.call('search_jobs', { per_page: 20 }),
};
const floors = {
  first: (peer, id) => peer.call('fetch_path', { path: jobPath(id) }),
  second: (peer) => peer.call('fetch_path', { path: SEARCH_PATH }),
};

/** One start of one subject: each phase's ms and the requests the proxy saw during it. */
async function firstSeconds({ spawn, calls, proxy, phases }, id) {
  proxy.take();
  const peer = spawn(proxy.url);
  const out = { ms: {}, requests: {} };
  try {
    await peer.initialize();
    const list = await peer.request('tools/list', {});
    if (list.message.error) throw new Error(`tools/list: ${JSON.stringify(list.message.error)}`);
    out.ms.list = list.at - peer.t0;
    out.tools = list.message.result.tools.length;
    out.requests.list = proxy.take();
    const steps = {
      first: () => calls.first(peer, id),
      second: () => calls.second(peer),
      repeat: () => calls.first(peer, id),
    };
    for (const phase of phases.slice(1)) {
      const started = performance.now();
      await steps[phase]();
      out.ms[phase] = performance.now() - started;
      out.requests[phase] = proxy.take();
    }
  } finally {
    await peer.close();
  }
  return out;
}

/** `rounds` rounds (after `warmup`), the subjects' order rotated each round: a list of {subject: start}. */
export async function networkFirstSeconds({ upstream, ids, rounds, warmup }) {
  const proxy = await startLatencyProxy({ upstream });
  const hanging = await startLatencyProxy({ upstream, hang: HOSTED_MCP_PATH });
  const subjects = {
    service: { spawn: (url) => spawnServiceMcp(url), calls: ours, proxy, phases: PHASES },
    serviceNoBridge: { spawn: (url) => spawnServiceMcp(url, ['--no-bridge']), calls: ours, proxy, phases: PHASES },
    floor: { spawn: (url) => spawnFloor(url), calls: floors, proxy, phases: PHASES },
    floorClientAtStart: {
      spawn: (url) => spawnFloor(url, [], { clientAtStart: true }),
      calls: floors,
      proxy,
      phases: PHASES,
    },
    serviceHanging: { spawn: (url) => spawnServiceMcp(url), calls: ours, proxy: hanging, phases: ['list'] },
    // A user's first start: nothing kept, so the hosted list and the deployed catalog are read then.
    serviceFirstRun: {
      spawn: (url) => spawnServiceMcp(url, [], [], { XDG_CACHE_HOME: emptyCacheDir() }),
      calls: ours,
      proxy,
      phases: PHASES,
    },
  };
  const out = [];
  try {
    for (let round = 0; round < warmup + rounds; round++) {
      const starts = {};
      for (const name of rotate(Object.keys(subjects), round))
        starts[name] = await firstSeconds(subjects[name], ids[0]);
      if (round >= warmup) out.push(starts);
    }
  } finally {
    await Promise.all([proxy.close(), hanging.close()]);
  }
  return { roundTripMs: ROUND_TRIP_MS, rounds: out };
}
