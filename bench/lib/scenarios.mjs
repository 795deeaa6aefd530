/**
 * The start and per-call measurements. Every scenario runs its subjects interleaved (round-robin,
 * with the order rotated each round, or for the warm calls cycled through balanced orders) so drift
 * on a shared 2-core machine hits all of them alike. service-mcp is measured in each of VARIANTS (as
 * users run it, and with --no-bridge), against `mock-api` and, where it has a meaning, offline.
 */
import { isBridged } from './bridged.mjs';
import { cpuNs, rssBytes } from './proc.mjs';
import { httpPeer, MODERN_META } from './rpc.mjs';
import { serviceSpawners, spawnFloor, spawnServiceMcp, spawnWire } from './processes.mjs';
import { quantile, summary } from './stats.mjs';

export const SEARCH_PATH = '/api/public/v1/search/jobs?per_page=20';
export const jobPath = (id) => `/api/public/v1/jobs/${encodeURIComponent(id)}`;

export const rotate = (items, by) => items.map((_, i) => items[(i + by) % items.length]);

/**
 * Orders of `items` in which each one comes right after each other one equally often (a Williams
 * design: n orders, 2n when n is odd). Rotating a fixed list does not do that: every round then has
 * the same subject after the same one. That matters for calls measured one at a time: the same
 * build measured 0.08-0.11x of a direct GET slower in the place right after a direct GET than right
 * after another MCP call.
 */
function balancedOrders(items) {
  const n = items.length;
  const first = Array.from({ length: n }, (_, j) => (j % 2 === 1 ? (j + 1) / 2 : (n - j / 2) % n));
  const rows = Array.from({ length: n }, (_, r) => first.map((k) => items[(k + r) % n]));
  return n % 2 === 0 ? rows : [...rows, ...rows.map((row) => [...row].reverse())];
}

/** Closes every peer of an object of peers. */
const closeAll = (peers) => Promise.all(Object.values(peers).map((p) => p.close()));

/** Runs `op(i)` `total` times with `inFlight` at once; returns calls per second. */
export async function drive(total, inFlight, op) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < total) await op(next++);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

async function timed(op) {
  const started = performance.now();
  await op();
  return performance.now() - started;
}

/**
 * Spawn to the tools/list result, for a 2025 client (initialize, then tools/list) and a 2026-07-28
 * client (tools/list at once, its version and capabilities in `_meta`); CPU and RSS at that point,
 * and the catalog's bytes. Every service-mcp subject offline (`npx -y service-mcp` as is) and against
 * `mock-api`, in each variant: with the bridge on, the first list waits for the hosted one, and its
 * bytes count the bridged tools.
 */
export async function coldStart({ upstream, rounds, warmup }) {
  const spawners = { floor: () => spawnFloor(upstream), ...serviceSpawners({ upstream, offline: true }) };
  const subjects = Object.keys(spawners).flatMap((s) => [`${s}:legacy`, `${s}:modern`]);
  const samples = Object.fromEntries(subjects.map((s) => [s, { init: [], list: [], cpu: [], rss: [] }]));
  const sizes = {};
  for (let round = 0; round < warmup + rounds; round++) {
    for (const subject of rotate(subjects, round)) {
      const [server, era] = subject.split(':');
      const peer = spawners[server]();
      const init = era === 'legacy' ? await peer.initialize() : undefined;
      const list = await peer.request('tools/list', era === 'modern' ? { _meta: MODERN_META } : {});
      // Read right away, before the bench's own next steps give the child more time to run.
      const cpu = cpuNs(peer.pid);
      const rss = rssBytes(peer.pid);
      await peer.close();
      if (list.message.error) throw new Error(`${subject} tools/list: ${JSON.stringify(list.message.error)}`);
      if (round < warmup) continue; // fills the compile cache and the page cache for all alike
      const s = samples[subject];
      if (init) s.init.push(init.at - peer.t0);
      s.list.push(list.at - peer.t0);
      s.cpu.push(cpu / 1e6);
      s.rss.push(rss);
      sizes[server] ??= catalogBytes(list.message.result.tools);
    }
  }
  const out = {};
  for (const [subject, s] of Object.entries(samples)) {
    const [server, era] = subject.split(':');
    out[server] ??= { ...sizes[server] };
    out[server][era] = {
      ...(s.init.length ? { initMs: summary(s.init) } : {}),
      toolsListMs: summary(s.list),
      cpuMs: summary(s.cpu),
      rssBytes: summary(s.rss),
    };
  }
  return out;
}

/**
 * tools/list bytes: the whole list, and the part a model reads (names, titles, descriptions, input
 * schemas) of our own tools and, apart, of those bridged from the hosted surface (any tool not ours).
 */
function catalogBytes(tools) {
  const modelFacing = (list) =>
    Buffer.byteLength(
      JSON.stringify(
        list.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema })),
      ),
    );
  const bridged = tools.filter(isBridged);
  return {
    toolsListBytes: Buffer.byteLength(JSON.stringify({ tools })),
    modelFacingBytes: modelFacing(tools.filter((tool) => !bridged.includes(tool))),
    bridgedTools: bridged.length,
    bridgedModelFacingBytes: modelFacing(bridged),
  };
}

/** service-mcp in each variant with the cache off (against `upstream` and offline), the floor and the wire limit, initialized. */
async function cacheOffPeers(upstream) {
  const peers = Object.fromEntries(
    Object.entries(serviceSpawners({ upstream, offline: true, extra: ['--no-cache'] })).map(([n, spawn]) => [
      n,
      spawn(),
    ]),
  );
  peers.floor = spawnFloor(upstream);
  peers.wire = spawnWire(upstream);
  await Promise.all(Object.values(peers).map((p) => p.initialize()));
  return peers;
}

/**
 * Sequential warm calls: service-mcp in each variant with the cache off, against `mock-api` and
 * offline (the embedded API answers in process: no cache, no socket), the floor, the wire limit and
 * a direct GET of the same path; then, in a loop of its own, service-mcp with the cache on (each
 * variant) asking for each job once, so every call is a cache miss and pays what the cache costs on
 * the way (warmed up on other misses first), against a direct GET of the same job. Interleaved into
 * the first loop, those calls slowed the calls that followed them, the floor's as much as
 * service-mcp's (about a tenth on search_jobs), and the warm rows compare the others alone.
 */
export async function warmLatency({ upstream, direct, directFetch, ids, allIds, iterations, warmup }) {
  const peers = await cacheOffPeers(upstream);
  const ours = (name) => name.startsWith('service') || name.startsWith('offline');
  const fetchPath = (peer, path) => peer.call('fetch_path', { path });
  const subjectsOf = (tool, args, path) => ({
    ...Object.fromEntries(
      Object.keys(peers).map((n) => [
        n,
        ours(n) ? (id) => peers[n].call(tool, args(id)) : (id) => fetchPath(peers[n], path(id)),
      ]),
    ),
    direct: (id) => direct(path(id)),
    fetch: (id) => directFetch(path(id)),
  });
  const kinds = {
    search: subjectsOf(
      'search_jobs',
      () => ({ per_page: 20 }),
      () => SEARCH_PATH,
    ),
    get_job: subjectsOf('get_job', (id) => ({ job_id: id }), jobPath),
  };
  const names = Object.keys(kinds.search);
  const samples = Object.fromEntries(
    Object.keys(kinds).map((kind) => [kind, Object.fromEntries(names.map((n) => [n, []]))]),
  );
  const orders = balancedOrders(names);
  for (let i = 0; i < warmup + iterations; i++) {
    const id = ids[i % ids.length];
    for (const kind of Object.keys(kinds)) {
      for (const subject of orders[i % orders.length]) {
        const ms = await timed(() => kinds[kind][subject](id));
        if (i >= warmup) samples[kind][subject].push(ms);
      }
    }
  }
  // What a model reads against what the API sends, for the same page of 20 jobs.
  const result = await peers.service.call('search_jobs', { per_page: 20 });
  const raw = await direct(SEARCH_PATH);
  const jobs = JSON.parse(raw).data.jobs.length;
  const text = result.content.map((c) => c.text ?? '').join('\n');
  await closeAll(peers);

  const cached = Object.fromEntries(Object.entries(serviceSpawners({ upstream })).map(([n, spawn]) => [n, spawn()]));
  await Promise.all(Object.values(cached).map((p) => p.initialize()));
  // As many calls of warm-up as the other subjects had, on URLs the measured calls never ask for
  // (the predicted-salary variants of each job), each of them a miss too.
  for (const include_predicted_salaries of [true, false]) {
    for (const id of allIds.slice(0, warmup * 7))
      for (const peer of Object.values(cached)) await peer.call('get_job', { job_id: id, include_predicted_salaries });
  }
  const misses = Object.fromEntries([...Object.keys(cached), 'direct'].map((n) => [n, []]));
  for (let i = 0; i < allIds.length; i++) {
    // Paired with a direct GET of the same job, so each asks for it for the first time.
    for (const subject of rotate(Object.keys(misses), i)) {
      misses[subject].push(
        await timed(() =>
          subject === 'direct' ? direct(jobPath(allIds[i])) : cached[subject].call('get_job', { job_id: allIds[i] }),
        ),
      );
    }
  }
  await closeAll(cached);

  const out = {};
  for (const [kind, bySubject] of Object.entries(samples))
    out[kind] = Object.fromEntries(Object.entries(bySubject).map(([s, v]) => [s, summary(v)]));
  out.cacheMiss = Object.fromEntries(Object.entries(misses).map(([s, v]) => [s, summary(v)]));
  out.textPerJob = {
    jobs,
    textBytesPerJob: Buffer.byteLength(text) / jobs,
    rawJsonBytesPerJob: Buffer.byteLength(raw) / jobs,
  };
  return out;
}

/**
 * Repeat calls with the response cache on (each variant), against a direct GET of the same path,
 * after the same warm-up as the warm rows: the bench's own HTTP client is long warm by then, and a
 * fresh server process measured from its first call would time its JIT warming up instead.
 */
export async function cacheHits({ upstream, direct, ids, iterations, warmup }) {
  const peers = Object.fromEntries(Object.entries(serviceSpawners({ upstream })).map(([n, spawn]) => [n, spawn()]));
  await Promise.all(Object.values(peers).map((p) => p.initialize()));
  const id = ids[0];
  const first = await peers.service.call('get_job', { job_id: id });
  for (const [name, peer] of Object.entries(peers)) if (name !== 'service') await peer.call('get_job', { job_id: id });
  const samples = Object.fromEntries([...Object.keys(peers), 'direct'].map((n) => [n, []]));
  let reported = 0;
  for (let i = 0; i < warmup + iterations; i++) {
    for (const subject of rotate(Object.keys(samples), i)) {
      const started = performance.now();
      const result = await (subject === 'direct'
        ? direct(jobPath(id))
        : peers[subject].call('get_job', { job_id: id }));
      if (i < warmup) continue;
      samples[subject].push(performance.now() - started);
      if (subject === 'service' && result.structuredContent?.provenance?.cache?.hit) reported++;
    }
  }
  await closeAll(peers);
  return {
    ...Object.fromEntries(Object.entries(samples).map(([n, v]) => [n, summary(v)])),
    firstCallCache: first.structuredContent?.provenance?.cache ?? null,
    hitsReported: reported,
    calls: iterations,
  };
}

/**
 * Calls per second over stdio with `inFlight` at once, for each subject (service-mcp in each
 * variant with the cache off, against `mock-api` and offline), interleaved over `rounds`.
 */
export async function throughput({ upstream, direct, ids, levels, total, rounds }) {
  const peers = await cacheOffPeers(upstream);
  const job = (i) => ids[i % ids.length];
  const subjects = { direct: (i) => direct(jobPath(job(i))) };
  for (const [name, peer] of Object.entries(peers))
    subjects[name] =
      name === 'floor' || name === 'wire'
        ? (i) => peer.call('fetch_path', { path: jobPath(job(i)) })
        : (i) => peer.call('get_job', { job_id: job(i) });
  const out = {};
  for (const level of levels) {
    const rates = Object.fromEntries(Object.keys(subjects).map((s) => [s, []]));
    // Warm sockets, JIT and heaps at this level first: each process's rate climbs for several
    // thousand calls (a fresh server, the bench's own client), and 200 calls of warm-up left the
    // medians of a run moving by a tenth or more.
    for (let warm = 0; warm < 2; warm++)
      for (const name of rotate(Object.keys(subjects), warm)) await drive(total, level, subjects[name]);
    for (let round = 0; round < rounds; round++) {
      for (const name of rotate(Object.keys(subjects), round))
        rates[name].push(await drive(total, level, subjects[name]));
    }
    out[level] = Object.fromEntries(Object.entries(rates).map(([s, v]) => [s, summary(v)]));
  }
  await closeAll(peers);
  return out;
}

/**
 * HTTP mode against the SDK v2 floor over HTTP, at each concurrency: calls per second (median of
 * `rounds`) and the latency of each call (p50 and p99 over every call of every round); and how many
 * requests each client sent again after a reset (httpPeer).
 */
export async function httpScaling({ subjects: urls, ids, dispatcher, fetch, levels, total, rounds }) {
  const peers = {};
  for (const [name, url] of Object.entries(urls)) {
    peers[name] = httpPeer(url, dispatcher, fetch);
    await peers[name].initialize();
  }
  const job = (i) => ids[i % ids.length];
  const calls = Object.fromEntries(
    Object.keys(peers).map((name) => [
      name,
      name === 'floor'
        ? (peer, i) => peer.call('fetch_path', { path: jobPath(job(i)) })
        : (peer, i) => peer.call('get_job', { job_id: job(i) }),
    ]),
  );
  const out = {};
  for (const level of levels) {
    const rates = Object.fromEntries(Object.keys(peers).map((s) => [s, []]));
    const latencies = Object.fromEntries(Object.keys(peers).map((s) => [s, []]));
    for (const name of Object.keys(peers)) await drive(total, level, (i) => calls[name](peers[name], i));
    for (let round = 0; round < rounds; round++) {
      for (const name of rotate(Object.keys(peers), round)) {
        rates[name].push(
          await drive(total, level, async (i) => {
            const started = performance.now();
            await calls[name](peers[name], i);
            latencies[name].push(performance.now() - started);
          }),
        );
      }
    }
    out[level] = Object.fromEntries(
      Object.keys(peers).map((s) => [
        s,
        { rate: summary(rates[s]), p50Ms: quantile(latencies[s], 0.5), p99Ms: quantile(latencies[s], 0.99) },
      ]),
    );
  }
  return { levels: out, resent: Object.fromEntries(Object.entries(peers).map(([name, peer]) => [name, peer.resent])) };
}

/**
 * Warm search_jobs latency against page size, service-mcp as users run it (the bridge on) with
 * --no-cache, against a direct GET of the same page, interleaved: what grows with the number of
 * jobs rendered.
 */
export async function searchByPageSize({ upstream, direct, perPages, iterations, warmup }) {
  const service = spawnServiceMcp(upstream, ['--no-cache']);
  await service.initialize();
  const out = {};
  for (const perPage of perPages) {
    const path = `/api/public/v1/search/jobs?per_page=${perPage}`;
    const samples = { service: [], direct: [] };
    for (let i = 0; i < warmup + iterations; i++) {
      for (const subject of rotate(['service', 'direct'], i)) {
        const ms = await timed(() =>
          subject === 'service' ? service.call('search_jobs', { per_page: perPage }) : direct(path),
        );
        if (i >= warmup) samples[subject].push(ms);
      }
    }
    out[perPage] = { service: summary(samples.service), direct: summary(samples.direct) };
  }
  await service.close();
  return out;
}
