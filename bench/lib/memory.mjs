/**
 * Memory: RSS (VmRSS, read from outside) and the heap used after a forced full GC (through the
 * inspector), for service-mcp in each variant (as users run it, and with --no-bridge), against
 * `mock-api` and offline, beside the floor. Calls are get_job and search_jobs alternating, 8 in
 * flight. RSS is always read first: the heap reading forces a collection, which would lower it.
 */
import { heapProbe, INSPECT } from './heap.mjs';
import { rssBytes } from './proc.mjs';
import { serviceSpawners, spawnFloor } from './processes.mjs';
import { drive, jobPath, rotate, SEARCH_PATH } from './scenarios.mjs';
import { summary } from './stats.mjs';

/** The same mix for every subject: our tools, or the floor's one GET of the same paths. */
const ours = {
  job: (p, id) => p.call('get_job', { job_id: id }),
  search: (p, page) => p.call('search_jobs', { per_page: 20, page }),
};
const floors = {
  job: (p, id) => p.call('fetch_path', { path: jobPath(id) }),
  search: (p, page) => p.call('fetch_path', { path: `${SEARCH_PATH}&page=${page}` }),
};

/**
 * Every memory subject, spawned under the inspector: service-mcp as configured (cache on) and with
 * --no-cache (every call goes upstream, as every floor call does) against `mock-api`, offline, and
 * the floor; `only` keeps the names it lists.
 */
function memorySubjects(upstream, only) {
  const spawners = {
    ...serviceSpawners({ upstream, offline: true, nodeArgs: [INSPECT] }),
    ...serviceSpawners({ upstream, extra: ['--no-cache'], nodeArgs: [INSPECT], tag: 'NoCache' }),
    floor: () => spawnFloor(upstream, [INSPECT]),
  };
  return Object.fromEntries(
    Object.entries(spawners)
      .filter(([name]) => !only || only.includes(name))
      .map(([name, spawn]) => [name, { spawn, ...(name === 'floor' ? floors : ours) }]),
  );
}

/** `calls` calls of the mix, the `from`-th onwards (8 in flight). */
const mix = (subject, peer, ids, from, calls) =>
  drive(calls, 8, (i) =>
    (from + i) % 2 === 0
      ? subject.job(peer, ids[((from + i) / 2) % ids.length])
      : subject.search(peer, 1 + (((from + i - 1) / 2) % 15)),
  );

/**
 * RSS, then the heap after a forced GC, every `every` calls over `calls` calls in one process per
 * subject (service-mcp as configured by default, in each variant, and the floor): points
 * [calls, rss, heap]. The collections every `every` calls keep RSS below what a process left alone
 * reaches (rssAfterCalls reads that).
 */
export async function rssOverCalls({ upstream, ids, calls, every }) {
  const out = {};
  for (const [name, subject] of Object.entries(memorySubjects(upstream, ['service', 'serviceNoBridge', 'floor']))) {
    const peer = subject.spawn();
    await peer.initialize();
    const probe = await heapProbe(peer.stderr);
    const point = async (done) => [done, rssBytes(peer.pid), await probe.heapUsedAfterGc()];
    const points = [await point(0)];
    for (let done = 0; done < calls; done += every) {
      await mix(subject, peer, ids, done, every);
      points.push(await point(done + every));
    }
    probe.close();
    await peer.close();
    out[name] = points;
  }
  return out;
}

/**
 * RSS, and the heap used after a forced GC, after tools/list and `calls` calls, in fresh processes
 * left alone until then, `rounds` of each subject interleaved; `only` keeps the subjects it names.
 */
export async function rssAfterCalls({ upstream, ids, calls, rounds, only }) {
  const subjects = memorySubjects(upstream, only);
  const samples = Object.fromEntries(Object.keys(subjects).map((name) => [name, []]));
  const heaps = Object.fromEntries(Object.keys(subjects).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of rotate(Object.keys(subjects), round)) {
      const subject = subjects[name];
      const peer = subject.spawn();
      await peer.initialize();
      const probe = await heapProbe(peer.stderr);
      await peer.request('tools/list', {});
      await mix(subject, peer, ids, 0, calls);
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
