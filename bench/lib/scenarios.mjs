/**
 * The measurements. Every scenario runs its subjects interleaved (round-robin, with the order
 * rotated each round, or for the warm calls cycled through every order) so drift on a shared
 * 2-core machine hits all of them alike.
 */
import { heapProbe, INSPECT } from './heap.mjs';
import { cpuNs, rssBytes } from './proc.mjs';
import { httpPeer, MODERN_META } from './rpc.mjs';
import { spawnBridged, spawnFloor, spawnServiceMcp, spawnWire } from './processes.mjs';
import { quantile, summary } from './stats.mjs';

const SEARCH_PATH = '/api/public/v1/search/jobs?per_page=20';
const jobPath = (id) => `/api/public/v1/jobs/${encodeURIComponent(id)}`;

const rotate = (items, by) => items.map((_, i) => items[(i + by) % items.length]);

/**
 * Every order of `items`. Cycling through them, each subject follows each other one equally often;
 * rotating a fixed list does not: every round then has the same subject after the same one. That
 * matters for calls measured one at a time: the same build measured 0.08-0.11x of a direct GET
 * slower in the place right after a direct GET than right after another MCP call.
 */
const permutations = (items) =>
  items.length <= 1
    ? [items]
    : items.flatMap((item, i) =>
        permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
      );

/** Runs `op(i)` `total` times with `inFlight` at once; returns calls per second. */
async function drive(total, inFlight, op) {
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
 * Spawn to the tools/list result, for a 2025 client (initialize, then tools/list) and a
 * 2026-07-28 client (tools/list at once, its version and capabilities in `_meta`); CPU and RSS
 * at that point, and the catalog's bytes. `bridged` is service-mcp with the bridge on (2026 client
 * only): its first list waits for the hosted one, and its bytes count the bridged tools.
 */
export async function coldStart({ upstream, rounds, warmup }) {
  const spawners = {
    service: () => spawnServiceMcp(upstream),
    floor: () => spawnFloor(upstream),
    bridged: () => spawnBridged(upstream),
  };
  const subjects = ['service:legacy', 'service:modern', 'floor:legacy', 'floor:modern', 'bridged:modern'];
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
 * schemas) of our own tools and, apart, of those bridged from the hosted surface (marked in _meta).
 */
function catalogBytes(tools) {
  const modelFacing = (list) =>
    Buffer.byteLength(
      JSON.stringify(
        list.map(({ name, title, description, inputSchema }) => ({ name, title, description, inputSchema })),
      ),
    );
  const bridged = tools.filter((tool) => tool._meta?.['io.github.service-mcp/bridged'] === true);
  return {
    toolsListBytes: Buffer.byteLength(JSON.stringify({ tools })),
    modelFacingBytes: modelFacing(tools.filter((tool) => !bridged.includes(tool))),
    bridgedTools: bridged.length,
    bridgedModelFacingBytes: modelFacing(bridged),
  };
}

/**
 * Sequential warm calls: service-mcp with the cache off, the floor and a direct GET of the same
 * path; then, in a loop of its own, service-mcp as configured by default (cache on) asking for each
 * job once, so every call is a cache miss and pays what the cache costs on the way (warmed up on
 * other misses first), against a direct GET of the same job. Interleaved into the first loop, those
 * calls slowed the calls that followed them, the floor's as much as service-mcp's (about a tenth on
 * search_jobs), and the warm rows compare service-mcp, the floor and direct GETs alone.
 */
export async function warmLatency({ upstream, direct, directFetch, ids, allIds, iterations, warmup }) {
  const service = spawnServiceMcp(upstream, ['--no-cache']);
  const floor = spawnFloor(upstream);
  const wire = spawnWire(upstream);
  await Promise.all([service.initialize(), floor.initialize(), wire.initialize()]);
  const fetchPath = (peer, path) => peer.call('fetch_path', { path });
  const kinds = {
    search: {
      service: () => service.call('search_jobs', { per_page: 20 }),
      floor: () => fetchPath(floor, SEARCH_PATH),
      wire: () => fetchPath(wire, SEARCH_PATH),
      direct: () => direct(SEARCH_PATH),
      fetch: () => directFetch(SEARCH_PATH),
    },
    get_job: {
      service: (id) => service.call('get_job', { job_id: id }),
      floor: (id) => fetchPath(floor, jobPath(id)),
      wire: (id) => fetchPath(wire, jobPath(id)),
      direct: (id) => direct(jobPath(id)),
      fetch: (id) => directFetch(jobPath(id)),
    },
  };
  const names = Object.keys(kinds.search);
  const samples = Object.fromEntries(
    Object.keys(kinds).map((kind) => [kind, Object.fromEntries(names.map((n) => [n, []]))]),
  );
  const orders = permutations(names);
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
  const result = await service.call('search_jobs', { per_page: 20 });
  const raw = await direct(SEARCH_PATH);
  const jobs = JSON.parse(raw).data.jobs.length;
  const text = result.content.map((c) => c.text ?? '').join('\n');
  await Promise.all([service.close(), floor.close(), wire.close()]);

  const cached = spawnServiceMcp(upstream);
  await cached.initialize();
  // As many calls of warm-up as the other subjects had, on URLs the measured calls never ask for
  // (the predicted-salary variants of each job), each of them a miss too.
  for (const include_predicted_salaries of [true, false]) {
    for (const id of allIds.slice(0, warmup * 7))
      await cached.call('get_job', { job_id: id, include_predicted_salaries });
  }
  const misses = { service: [], direct: [] };
  for (let i = 0; i < allIds.length; i++) {
    // Paired with a direct GET of the same job, so both ask for it for the first time.
    for (const subject of rotate(['service', 'direct'], i)) {
      misses[subject].push(
        await timed(() =>
          subject === 'service' ? cached.call('get_job', { job_id: allIds[i] }) : direct(jobPath(allIds[i])),
        ),
      );
    }
  }
  await cached.close();

  const out = {};
  for (const [kind, bySubject] of Object.entries(samples))
    out[kind] = Object.fromEntries(Object.entries(bySubject).map(([s, v]) => [s, summary(v)]));
  out.cacheMiss = { service: summary(misses.service), direct: summary(misses.direct) };
  out.textPerJob = {
    jobs,
    textBytesPerJob: Buffer.byteLength(text) / jobs,
    rawJsonBytesPerJob: Buffer.byteLength(raw) / jobs,
  };
  return out;
}

/**
 * Repeat calls with the response cache on, against a direct GET of the same path, after the same
 * warm-up as the warm rows: the bench's own HTTP client is long warm by then, and a fresh server
 * process measured from its first call would time its JIT warming up instead.
 */
export async function cacheHits({ upstream, direct, ids, iterations, warmup }) {
  const service = spawnServiceMcp(upstream);
  await service.initialize();
  const id = ids[0];
  const first = await service.call('get_job', { job_id: id });
  const samples = { service: [], direct: [] };
  let reported = 0;
  for (let i = 0; i < warmup + iterations; i++) {
    for (const subject of rotate(['service', 'direct'], i)) {
      if (subject === 'direct') {
        const ms = await timed(() => direct(jobPath(id)));
        if (i >= warmup) samples.direct.push(ms);
      } else {
        const started = performance.now();
        const result = await service.call('get_job', { job_id: id });
        if (i < warmup) continue;
        samples.service.push(performance.now() - started);
        if (result.structuredContent?.provenance?.cache?.hit) reported++;
      }
    }
  }
  await service.close();
  return {
    service: summary(samples.service),
    direct: summary(samples.direct),
    firstCallCache: first.structuredContent?.provenance?.cache ?? null,
    hitsReported: reported,
    calls: iterations,
  };
}

/** Calls per second over stdio with `inFlight` at once, for each subject, interleaved over `rounds`. */
export async function throughput({ upstream, direct, ids, levels, total, rounds }) {
  const service = spawnServiceMcp(upstream, ['--no-cache']);
  const floor = spawnFloor(upstream);
  const wire = spawnWire(upstream);
  await Promise.all([service.initialize(), floor.initialize(), wire.initialize()]);
  const job = (i) => ids[i % ids.length];
  const subjects = {
    direct: (i) => direct(jobPath(job(i))),
    stdio: (i) => service.call('get_job', { job_id: job(i) }),
    floor: (i) => floor.call('fetch_path', { path: jobPath(job(i)) }),
    wire: (i) => wire.call('fetch_path', { path: jobPath(job(i)) }),
  };
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
  await Promise.all([service.close(), floor.close(), wire.close()]);
  return out;
}

/**
 * HTTP mode against the SDK v2 floor over HTTP, at each concurrency: calls per second (median of
 * `rounds`) and the latency of each call (p50 and p99 over every call of every round).
 */
export async function httpScaling({ subjects: urls, ids, dispatcher, fetch, levels, total, rounds }) {
  const peers = {};
  for (const [name, url] of Object.entries(urls)) {
    peers[name] = httpPeer(url, dispatcher, fetch);
    await peers[name].initialize();
  }
  const job = (i) => ids[i % ids.length];
  const calls = {
    service: (peer, i) => peer.call('get_job', { job_id: job(i) }),
    floor: (peer, i) => peer.call('fetch_path', { path: jobPath(job(i)) }),
  };
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
  return out;
}

/**
 * Warm search_jobs latency against page size, service-mcp (--no-cache) against a direct GET of
 * the same page, interleaved: what grows with the number of jobs rendered.
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

/**
 * RSS, then the heap used after a forced full GC (through the inspector), every `every` calls over
 * `calls` stdio calls (8 in flight, get_job and search_jobs alternating): points [calls, rss, heap].
 * RSS is read first, before the collection that the heap reading forces.
 */
export async function rssOverCalls({ upstream, ids, calls, every }) {
  const subjects = {
    service: {
      peer: spawnServiceMcp(upstream, [], [INSPECT]),
      job: (p, id) => p.call('get_job', { job_id: id }),
      search: (p, page) => p.call('search_jobs', { per_page: 20, page }),
    },
    floor: {
      peer: spawnFloor(upstream, [INSPECT]),
      job: (p, id) => p.call('fetch_path', { path: jobPath(id) }),
      search: (p, page) => p.call('fetch_path', { path: `${SEARCH_PATH}&page=${page}` }),
    },
  };
  const out = {};
  for (const [name, subject] of Object.entries(subjects)) {
    const { peer } = subject;
    await peer.initialize();
    const probe = await heapProbe(peer.stderr);
    const point = async (done) => {
      const rss = rssBytes(peer.pid);
      return [done, rss, await probe.heapUsedAfterGc()];
    };
    const points = [await point(0)];
    for (let done = 0; done < calls; done += every) {
      await drive(every, 8, (i) =>
        i % 2 === 0
          ? subject.job(peer, ids[((done + i) / 2) % ids.length])
          : subject.search(peer, 1 + (((done + i - 1) / 2) % 15)),
      );
      points.push(await point(done + every));
    }
    probe.close();
    await peer.close();
    out[name] = points;
  }
  return out;
}

/**
 * RSS, and the heap used after a forced full GC, after tools/list and 1,000 calls (get_job over
 * 100 jobs and 15 search_jobs pages alternating, 8 in flight), in fresh processes: service-mcp as
 * configured by default (most of these calls are then cache hits) and with --no-cache (every call
 * goes upstream, as every floor call does).
 */
export async function rssAfterCalls({ upstream, ids, calls, rounds }) {
  const serviceJob = (p, id) => p.call('get_job', { job_id: id });
  const serviceSearch = (p, page) => p.call('search_jobs', { per_page: 20, page });
  const subjects = {
    service: { spawn: () => spawnServiceMcp(upstream, [], [INSPECT]), job: serviceJob, search: serviceSearch },
    serviceNoCache: {
      spawn: () => spawnServiceMcp(upstream, ['--no-cache'], [INSPECT]),
      job: serviceJob,
      search: serviceSearch,
    },
    floor: {
      spawn: () => spawnFloor(upstream, [INSPECT]),
      job: (p, id) => p.call('fetch_path', { path: jobPath(id) }),
      search: (p, page) => p.call('fetch_path', { path: `${SEARCH_PATH}&page=${page}` }),
    },
  };
  const samples = Object.fromEntries(Object.keys(subjects).map((name) => [name, []]));
  const heaps = Object.fromEntries(Object.keys(subjects).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of rotate(Object.keys(subjects), round)) {
      const subject = subjects[name];
      const peer = subject.spawn();
      await peer.initialize();
      const probe = await heapProbe(peer.stderr);
      await peer.request('tools/list', {});
      await drive(calls, 8, (i) =>
        i % 2 === 0 ? subject.job(peer, ids[(i / 2) % ids.length]) : subject.search(peer, 1 + (((i - 1) / 2) % 15)),
      );
      // RSS first: the heap reading forces a collection, which would lower it.
      samples[name].push(rssBytes(peer.pid));
      heaps[name].push(await probe.heapUsedAfterGc());
      probe.close();
      await peer.close();
    }
  }
  return {
    ...Object.fromEntries(Object.entries(samples).map(([name, v]) => [name, summary(v)])),
    heapAfterGc: Object.fromEntries(Object.entries(heaps).map(([name, v]) => [name, summary(v)])),
    calls,
  };
}
