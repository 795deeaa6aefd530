/**
 * The start, per-call and memory rows of one variant of service-mcp (VARIANTS: as users run it, or
 * with --no-bridge), each beside its baselines. Subjects are named `service` (against `mock-api`),
 * `offline` (the embedded API in process) and `serviceNoCache`, each with the variant's suffix.
 */
import { atLeast, atMost, ISSUE, mid, tableOf } from './report-table.mjs';
import { mb, ms } from './stats.mjs';

const ERAS = [
  ['legacy', '2025 client: initialize, then tools/list'],
  ['modern', '2026-07-28 client: tools/list at once'],
];
const WHERE = [
  ['offline', 'offline'],
  ['service', 'against mock-api'],
];

export function variantTable(runs, { suffix }) {
  const defaults = suffix === '';
  const name = (where, tag = '') => `${where}${tag}${suffix}`;
  const t = tableOf(runs, ['service-mcp', 'wire limit', 'v2 floor', 'direct GET']);
  const { cell, rate, row } = t;
  const last = runs.at(-1);

  if (last.start) {
    const start = (where, era, what) => (x) => x.start[name(where)]?.[era]?.[what];
    const floor = (era, what) => (x) => x.start.floor[era][what];
    const against = (where, era, what) => (x) => start(where, era, what)(x)?.median / floor(era, what)(x).median;
    for (const [where, said] of WHERE)
      for (const [era, who] of ERAS)
        row(
          `cold start, spawn → tools/list (ms), ${said}, ${who}`,
          [cell(start(where, era, 'toolsListMs')), '', cell(floor(era, 'toolsListMs')), ''],
          against(where, era, 'toolsListMs'),
          'floor',
          defaults && where === 'offline' ? [atMost(1.0, ISSUE)] : [],
        );
    for (const [where, said] of WHERE)
      row(
        `CPU time to tools/list (ms, all threads; ${said}, 2025 client)`,
        [cell(start(where, 'legacy', 'cpuMs')), '', cell(floor('legacy', 'cpuMs')), ''],
        against(where, 'legacy', 'cpuMs'),
        'floor',
      );
    for (const [where, said] of WHERE)
      row(
        `RSS after tools/list (MB; ${said}, 2025 client)`,
        [cell(start(where, 'legacy', 'rssBytes'), mb), '', cell(floor('legacy', 'rssBytes'), mb), ''],
        against(where, 'legacy', 'rssBytes'),
        'floor',
        defaults && where === 'offline' ? [atMost(1.0, ISSUE)] : [],
      );
  }

  if (last.calls) {
    const warm = (kind, s) => (x) => x.calls[kind][s];
    const cells = (kind, where = 'service') => [
      cell(warm(kind, name(where))),
      cell(warm(kind, 'wire')),
      cell(warm(kind, 'floor')),
      cell(warm(kind, 'direct')),
    ];
    const against =
      (kind, base, where = 'service') =>
      (x) =>
        x.calls[kind][name(where)].median / x.calls[kind][base].median;
    row('warm get_job, cache off (ms)', cells('get_job'), against('get_job', 'wire'), 'wire', [atMost(1.5)]);
    row('warm get_job, cache off, against the v2 floor', cells('get_job'), against('get_job', 'floor'), 'floor', [
      atMost(1.1),
      atMost(1.44, ISSUE),
    ]);
    row('warm get_job, cache off, against a direct GET', cells('get_job'), against('get_job', 'direct'), 'direct');
    row(
      'warm get_job, cache off, against undici fetch (the baseline before 2026-11-24)',
      [cell(warm('get_job', name('service'))), '', '', cell(warm('get_job', 'fetch'))],
      against('get_job', 'fetch'),
      'fetch',
    );
    row(
      'warm get_job offline (the embedded API in process), against the floor over loopback',
      cells('get_job', 'offline'),
      against('get_job', 'floor', 'offline'),
      'floor',
    );
    row(
      'warm get_job, cache on, each job asked once (ms, all misses)',
      [cell((x) => x.calls.cacheMiss[name('service')]), '', '', cell((x) => x.calls.cacheMiss.direct)],
      (x) => x.calls.cacheMiss[name('service')].median / x.calls.cacheMiss.direct.median,
      'direct',
    );
    row('warm search_jobs, 20 jobs, cache off (ms)', cells('search'), against('search', 'wire'), 'wire', [atMost(1.7)]);
    row('warm search_jobs, 20 jobs, against the v2 floor', cells('search'), against('search', 'floor'), 'floor');
    row(
      'warm search_jobs, 20 jobs, offline, against the floor over loopback',
      cells('search', 'offline'),
      against('search', 'floor', 'offline'),
      'floor',
    );
  }

  if (last.cache) {
    const hit = (x) => x.cache[name('service')];
    row(
      `repeat get_job, cache hit (ms; ${defaults ? `${last.cache.hitsReported}/${last.cache.calls} reported as hits` : 'cache on'})`,
      [cell(hit), '', '', cell((x) => x.cache.direct)],
      (x) => hit(x).median / x.cache.direct.median,
      'direct',
    );
    if (last.calls)
      row(
        "repeat get_job, cache hit, against the v2 floor's warm call (cache off rows, same run)",
        [cell(hit), '', cell((x) => x.calls.get_job.floor), ''],
        (x) => hit(x).median / x.calls.get_job.floor.median,
        'floor',
        [atMost(0.6), atMost(0.71, ISSUE)],
      );
  }

  for (const level of Object.keys(last.throughput ?? {})) {
    const tp = (s) => (x) => x.throughput[level][s];
    const against = (s, base) => (x) => tp(s)(x).median / tp(base)(x).median;
    const service = name('service');
    row(
      `stdio throughput, ${level} in flight (get_job calls/s)`,
      [rate(tp(service)), rate(tp('wire')), rate(tp('floor')), rate(tp('direct'))],
      against(service, 'wire'),
      'wire',
    );
    row(
      `stdio throughput, ${level} in flight, against the v2 floor`,
      [rate(tp(service)), '', rate(tp('floor')), ''],
      against(service, 'floor'),
      'floor',
      level === '8' ? [atLeast(0.9), atLeast(0.51, ISSUE)] : [],
    );
    row(
      `stdio throughput, ${level} in flight, offline, against the floor over loopback`,
      [rate(tp(name('offline'))), '', rate(tp('floor')), ''],
      against(name('offline'), 'floor'),
      'floor',
    );
  }

  const levels = Object.keys(last.http?.levels ?? {});
  for (const level of levels) {
    const h = (s) => (x) => x.http.levels[level][s];
    const service = name('service');
    // Said once, on the first level: the clients are the same at every level.
    const resent = level === levels[0] ? runs.reduce((n, x) => n + x.http.resent[service], 0) : 0;
    const resentFloor = level === levels[0] ? runs.reduce((n, x) => n + x.http.resent.floor, 0) : 0;
    row(
      `HTTP mode, ${level} in flight (get_job calls/s${resent + resentFloor ? `; over every level and run, requests sent again after a connection reset: ${resent} of service-mcp's, ${resentFloor} of the floor's` : ''})`,
      [rate((x) => h(service)(x).rate), '', rate((x) => h('floor')(x).rate), ''],
      (x) => h(service)(x).rate.median / h('floor')(x).rate.median,
      'HTTP floor',
      level === '8' || level === '32' ? [atLeast(1.0)] : [],
    );
    const latency = (s) => `${ms(mid(runs.map((x) => h(s)(x).p99Ms)))} / ${ms(mid(runs.map((x) => h(s)(x).p50Ms)))}`;
    row(
      `HTTP mode, ${level} in flight: p99 / p50 latency (ms)`,
      [latency(service), '', latency('floor'), ''],
      (x) => h(service)(x).p99Ms / h(service)(x).p50Ms,
      'p99/p50',
      level === '32' ? [atMost(4)] : [],
    );
  }

  if (last.memory) {
    const calls = last.memory.calls.toLocaleString('en');
    const rss = (s) => (x) => x.memory[s];
    const heap = (s) => (x) => x.memory.heapAfterGc[s];
    for (const [subject, said, targets] of [
      [name('service'), 'cache on', [atMost(1.1)]],
      [name('service', 'NoCache'), '--no-cache', []],
      [name('offline'), 'offline', []],
    ]) {
      row(
        `RSS after ${calls} calls (MB; ${said})`,
        [cell(rss(subject), mb), '', cell(rss('floor'), mb), ''],
        (x) => rss(subject)(x).median / rss('floor')(x).median,
        'floor',
        targets,
      );
      row(
        `heap used after a forced GC, after ${calls} calls (MB; ${said})`,
        [cell(heap(subject), mb), '', cell(heap('floor'), mb), ''],
        (x) => heap(subject)(x).median / heap('floor')(x).median,
        'floor',
      );
    }
  }
  const soakRuns = runs.filter((x) => x.soak);
  if (soakRuns.length) soakRows(t, soakRuns.at(-1).soak, name('service'), defaults);
  return t.render();
}

/** RSS after 10,000 calls left alone, and the growth over the second half of the soak (last run). */
function soakRows(t, soak, service, defaults) {
  const alone = soak.leftAlone;
  const calls = alone.calls.toLocaleString('en');
  const rss = alone[service].median;
  const floor = alone.floor.median;
  t.raw([
    `RSS after ${calls} live calls, left alone (MB; cache on, 8 in flight; last run)`,
    mb(rss),
    '',
    mb(floor),
    '',
    `${(rss / floor).toFixed(2)}x floor`,
    defaults ? '≤ 150 MB (#45)' : '',
    defaults ? (rss <= 150 * 1024 * 1024 ? 'met' : '**missed**') : '',
  ]);
  const points = soak.growth[service];
  if (!points) return;
  // Over the second half of the calls, when every process is long warm: a leak grows here, heap sizing does not.
  const late = (series, at) => {
    const from = series[Math.floor((series.length - 1) / 2)];
    const to = series.at(-1);
    return `${mb(from[at])} → ${mb(to[at])} (${to[at] >= from[at] ? '+' : ''}${mb(to[at] - from[at])})`;
  };
  const from = points[Math.floor((points.length - 1) / 2)][0].toLocaleString('en');
  const to = points.at(-1)[0].toLocaleString('en');
  t.raw([
    `RSS from call ${from} to ${to} (MB; cache on, 8 in flight, a forced GC every ${(points[1][0] - points[0][0]).toLocaleString('en')}; last run)`,
    late(points, 1),
    '',
    late(soak.growth.floor, 1),
    '',
    '',
    '',
    '',
  ]);
  t.raw([
    `heap used after a forced GC from call ${from} to ${to} (MB; same calls)`,
    late(points, 2),
    '',
    late(soak.growth.floor, 2),
    '',
    '',
    '',
    '',
  ]);
}
