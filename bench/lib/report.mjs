/**
 * The results as one Markdown table. Each row's ratio is computed within each run (subjects of a
 * run share its machine state), then reported as the median over the runs with their spread
 * (lowest–highest); its target (issues 22 and 36) is judged on that median. Cells are the median over the
 * runs of each subject's median / p90.
 */
import { mb, ms, quantile, ratio } from './stats.mjs';

const mid = (values) => quantile(values.filter(Number.isFinite), 0.5);
const mark = (ok) => (ok === undefined ? '' : ok ? 'met' : '**missed**');

export function renderMarkdown(all) {
  const { runs } = all;
  const last = runs.at(-1);
  /** The cell of a summary picked from each run: median / p90, each the median over the runs. */
  const cell = (pick, unit = ms) => {
    const picked = runs.map(pick).filter(Boolean);
    return picked.length ? `${unit(mid(picked.map((s) => s.median)))} / ${unit(mid(picked.map((s) => s.p90)))}` : '';
  };
  const rate = (pick) => {
    const picked = runs.map(pick).filter(Boolean);
    return picked.length ? `${Math.round(mid(picked.map((s) => s.median)))}/s` : '';
  };
  const rows = [];
  /** `value(run)` is the row's ratio in one run; `target` [text, test] when the issue sets one. */
  const row = (metric, cells, value, against, target) => {
    const values = runs.map(value);
    const median = mid(values);
    const spread = runs.length > 1 ? ` (${ratio(Math.min(...values))}–${ratio(Math.max(...values))})` : '';
    rows.push(
      `| ${metric} | ${cells.join(' | ')} | ${ratio(median)} ${against}${spread} | ${target?.[0] ?? ''} | ${mark(target ? target[1](median) : undefined)} |`,
    );
  };
  const atMost = (limit) => [`≤ ${limit}x`, (v) => v <= limit];
  const atLeast = (limit) => [`≥ ${limit}x`, (v) => v >= limit];
  const r = (pick) => (run) => pick(run);

  for (const [era, who] of [
    ['legacy', '2025 client: initialize, then tools/list'],
    ['modern', '2026-07-28 client: tools/list at once'],
  ]) {
    row(
      `cold start, spawn → tools/list (ms), ${who}`,
      [cell((x) => x.coldStart.service[era].toolsListMs), '', cell((x) => x.coldStart.floor[era].toolsListMs), ''],
      r((x) => x.coldStart.service[era].toolsListMs.median / x.coldStart.floor[era].toolsListMs.median),
      'floor',
      atMost(0.6),
    );
  }
  row(
    'cold start with the bridge on (ms; 2026-07-28 client; the first tools/list waits for the hosted list)',
    [cell((x) => x.coldStart.bridged.modern.toolsListMs), '', cell((x) => x.coldStart.floor.modern.toolsListMs), ''],
    (x) => x.coldStart.bridged.modern.toolsListMs.median / x.coldStart.floor.modern.toolsListMs.median,
    'floor',
  );
  row(
    'CPU time to tools/list (ms, all threads; 2025 client)',
    [cell((x) => x.coldStart.service.legacy.cpuMs), '', cell((x) => x.coldStart.floor.legacy.cpuMs), ''],
    (x) => x.coldStart.service.legacy.cpuMs.median / x.coldStart.floor.legacy.cpuMs.median,
    'floor',
  );
  row(
    'RSS after tools/list (MB; 2025 client)',
    [cell((x) => x.coldStart.service.legacy.rssBytes, mb), '', cell((x) => x.coldStart.floor.legacy.rssBytes, mb), ''],
    (x) => x.coldStart.service.legacy.rssBytes.median / x.coldStart.floor.legacy.rssBytes.median,
    'floor',
  );

  const warmCells = (kind) => ['service', 'wire', 'floor', 'direct'].map((s) => cell((x) => x.warm[kind][s]));
  const warmRatio = (kind, against) => (x) => x.warm[kind].service.median / x.warm[kind][against].median;
  row('warm get_job, cache off (ms)', warmCells('get_job'), warmRatio('get_job', 'wire'), 'wire', atMost(1.5));
  row(
    'warm get_job, cache off, against the v2 floor',
    warmCells('get_job'),
    warmRatio('get_job', 'floor'),
    'floor',
    atMost(1.1),
  );
  row('warm get_job, cache off, against a direct GET', warmCells('get_job'), warmRatio('get_job', 'direct'), 'direct');
  row(
    'warm get_job, cache off, against undici fetch (the baseline before 2026-11-24)',
    [cell((x) => x.warm.get_job.service), '', '', cell((x) => x.warm.get_job.fetch)],
    warmRatio('get_job', 'fetch'),
    'fetch',
  );
  row(
    'warm get_job, cache on, each job asked once (ms, all misses)',
    [cell((x) => x.warm.cacheMiss.service), '', '', cell((x) => x.warm.cacheMiss.direct)],
    (x) => x.warm.cacheMiss.service.median / x.warm.cacheMiss.direct.median,
    'direct',
  );
  row(
    'warm search_jobs, 20 jobs, cache off (ms)',
    warmCells('search'),
    warmRatio('search', 'wire'),
    'wire',
    atMost(1.7),
  );
  row('warm search_jobs, 20 jobs, against the v2 floor', warmCells('search'), warmRatio('search', 'floor'), 'floor');
  row(
    `repeat get_job, cache hit (ms; ${last.cache.hitsReported}/${last.cache.calls} reported as hits)`,
    [cell((x) => x.cache.service), '', '', cell((x) => x.cache.direct)],
    (x) => x.cache.service.median / x.cache.direct.median,
    'direct',
  );
  row(
    "repeat get_job, cache hit, against the v2 floor's warm call (cache off rows, same run)",
    [cell((x) => x.cache.service), '', cell((x) => x.warm.get_job.floor), ''],
    (x) => x.cache.service.median / x.warm.get_job.floor.median,
    'floor',
    atMost(0.6),
  );

  for (const level of Object.keys(last.throughput)) {
    const t = (s) => (x) => x.throughput[level][s];
    row(
      `stdio throughput, ${level} in flight (get_job calls/s)`,
      [rate(t('stdio')), rate(t('wire')), rate(t('floor')), rate(t('direct'))],
      (x) => x.throughput[level].stdio.median / x.throughput[level].wire.median,
      'wire',
    );
    row(
      `stdio throughput, ${level} in flight, against the v2 floor`,
      [rate(t('stdio')), '', rate(t('floor')), ''],
      (x) => x.throughput[level].stdio.median / x.throughput[level].floor.median,
      'floor',
      level === '8' ? atLeast(0.9) : undefined,
    );
  }
  for (const level of Object.keys(last.http)) {
    const h = (s) => (x) => x.http[level][s].rate;
    const target = level === '32';
    row(
      `HTTP mode, ${level} in flight (get_job calls/s)`,
      [rate(h('service')), '', rate(h('floor')), ''],
      (x) => x.http[level].service.rate.median / x.http[level].floor.rate.median,
      'HTTP floor',
      level === '8' || level === '32' ? atLeast(1.0) : undefined,
    );
    row(
      `HTTP mode, ${level} in flight: p99 / p50 latency (ms)`,
      [
        `${ms(mid(runs.map((x) => x.http[level].service.p99Ms)))} / ${ms(mid(runs.map((x) => x.http[level].service.p50Ms)))}`,
        '',
        `${ms(mid(runs.map((x) => x.http[level].floor.p99Ms)))} / ${ms(mid(runs.map((x) => x.http[level].floor.p50Ms)))}`,
        '',
      ],
      (x) => x.http[level].service.p99Ms / x.http[level].service.p50Ms,
      'p99/p50',
      target ? atMost(4) : undefined,
    );
  }
  row(
    `RSS after ${last.rss.calls.toLocaleString('en')} calls (MB; default, cache on)`,
    [cell((x) => x.rss.service, mb), '', cell((x) => x.rss.floor, mb), ''],
    (x) => x.rss.service.median / x.rss.floor.median,
    'floor',
    atMost(1.1),
  );
  row(
    `RSS after ${last.rss.calls.toLocaleString('en')} calls (MB; --no-cache)`,
    [cell((x) => x.rss.serviceNoCache, mb), '', cell((x) => x.rss.floor, mb), ''],
    (x) => x.rss.serviceNoCache.median / x.rss.floor.median,
    'floor',
  );
  if (last.rss.heapAfterGc) {
    const heap = (name) => (x) => x.rss.heapAfterGc?.[name];
    row(
      `heap used after a forced GC, after ${last.rss.calls.toLocaleString('en')} calls (MB; default, cache on)`,
      [cell(heap('service'), mb), '', cell(heap('floor'), mb), ''],
      (x) => heap('service')(x)?.median / heap('floor')(x)?.median,
      'floor',
    );
    row(
      `heap used after a forced GC, after ${last.rss.calls.toLocaleString('en')} calls (MB; --no-cache)`,
      [cell(heap('serviceNoCache'), mb), '', cell(heap('floor'), mb), ''],
      (x) => heap('serviceNoCache')(x)?.median / heap('floor')(x)?.median,
      'floor',
    );
  }
  const growth = last.rssGrowth;
  if (growth.service[0]?.length === 3) {
    // Over the second half of the calls, when every process is long warm: a leak grows here, heap sizing does not.
    const late = (points, at) => {
      const from = points[Math.floor((points.length - 1) / 2)];
      const to = points.at(-1);
      return `${mb(from[at])} → ${mb(to[at])} (${to[at] >= from[at] ? '+' : ''}${mb(to[at] - from[at])})`;
    };
    const from = growth.service[Math.floor((growth.service.length - 1) / 2)][0].toLocaleString('en');
    const to = growth.service.at(-1)[0].toLocaleString('en');
    rows.push(
      `| RSS from call ${from} to ${to} (MB; default, cache on, 8 in flight; last run) | ${late(growth.service, 1)} | | ${late(growth.floor, 1)} | | | | |`,
    );
    rows.push(
      `| heap used after a forced GC from call ${from} to ${to} (MB; same calls) | ${late(growth.service, 2)} | | ${late(growth.floor, 2)} | | | | |`,
    );
  }
  if (last.redis) {
    row(
      'warm get_job, cache off, with --redis-url (ms; shared cool-down checked before each request)',
      [cell((x) => x.redis.shared), '', '', ''],
      (x) => x.redis.shared.median / x.redis.plain.median,
      'same replica without Redis',
    );
    row(
      'repeat get_job, cache hit, with --redis-url (ms; the hit read from Redis)',
      [cell((x) => x.redis.sharedHit), '', '', ''],
      (x) => x.redis.sharedHit.median / x.redis.plainHit.median,
      'same replica, memory cache',
    );
  } else {
    rows.push('| --redis-url rows | no redis-server on this machine: not measured | | | | | | |');
  }
  const facing = last.coldStart.service.modelFacingBytes;
  rows.push(
    `| tools/list model-facing bytes of our seven (names, titles, descriptions, input schemas; whole result ${last.coldStart.service.toolsListBytes}) | ${facing} | | ${last.coldStart.floor.modelFacingBytes} | | ${(facing / 1024).toFixed(2)} KB | ≤ 4 KB | ${mark(facing <= 4096)} |`,
  );
  const bridged = last.coldStart.bridged?.bridgedModelFacingBytes;
  if (bridged !== undefined)
    rows.push(
      `| beside them, the ${last.coldStart.bridged.bridgedTools} tools bridged from the offline hosted surface, model-facing bytes | ${bridged} | | | | ${(bridged / 1024).toFixed(2)} KB | ≤ 24 KB (the bridge's cap) | ${mark(bridged <= 24_576)} |`,
    );
  const tj = last.warm.textPerJob;
  rows.push(
    `| search_jobs text bytes per job (${tj.jobs} jobs) | ${tj.textBytesPerJob.toFixed(0)} | | | ${tj.rawJsonBytesPerJob.toFixed(0)} (raw JSON) | ${ratio(tj.textBytesPerJob / tj.rawJsonBytesPerJob)} raw | | |`,
  );

  const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
  return [
    `Benchmark of service-mcp ${all.quick ? '(QUICK smoke run: too few rounds for figures) ' : ''}on Node ${all.node}, ${all.cores} cores (${all.cpu}), ${all.date.slice(0, 10)}: ${runs.length} full run${runs.length === 1 ? '' : 's'} in ${all.seconds} s (load average before each: ${runs.map((x) => load(x.loadBefore).split(' ')[0]).join(', ')}).`,
    'Upstream: the embedded offline API over loopback (`service-mcp mock-api`). Cells: median / p90 (rates: median), each the median over the runs. Ratios: computed within each run, median over the runs (lowest–highest).',
    '',
    '| metric | service-mcp | wire limit | v2 floor | direct GET | ratio | target | |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'How cost grows (last run; `bench/*.svg`):',
    '',
    '![search_jobs latency against per_page](search-per-page.svg)',
    '![HTTP mode throughput against concurrency](http-throughput.svg)',
    '![HTTP mode p99 latency against concurrency](http-p99.svg)',
    '![RSS and the heap after a forced GC over 10,000 stdio calls](rss-over-calls.svg)',
    '',
    'How it is measured (`bench/run.mjs`, `bench/lib/`):',
    '',
    '- **direct GET**: undici `request()` on a keep-alive agent from the bench process, body read in full (the `fetch` row keeps the older baseline, `undici.fetch` on the same agent). **wire limit**: `bench/wire-limit.mjs`, a stdio JSON-RPC proxy with no SDK: it reads a line, makes one `request()` GET and writes the body back as a result line. **v2 floor**: `bench/floor-tool.mjs`, the smallest server SDK v2 allows (`McpServer`, one tool that makes the same GET with `request()` and returns the body as text), over `serveStdio` (`floor-server.mjs`) and over `createMcpHandler` on node:http (`floor-http.mjs`); like service-mcp it turns on the compile cache and loads undici on its first call.',
    '- Subjects run interleaved, their order rotated every round; the warm calls cycle through every order of their five subjects, since a call right after a direct GET measures slower than one after an MCP call. Every process is spawned from the built files under the same Node; CPU (all threads, `/proc/<pid>/task/*/schedstat`) and RSS (`VmRSS`) are read from outside, right after the answer arrives.',
    '- Cold start: spawn to the tools/list result, a fresh process each time (compile cache warm, as on any launch after the first), for a 2025 client (initialize, then tools/list) and a 2026-07-28 client (tools/list at once, with its version and capabilities in `_meta`).',
    '- Warm calls: one at a time, `get_job` on 100 jobs in turn and `search_jobs` with `per_page` 20; "cache off" runs `--no-cache`. The cache-miss row runs the default configuration in a loop of its own and asks for each job once, paired with a direct GET of that job. The cache-hit row repeats one `get_job`.',
    '- Throughput: 2,000 `get_job` calls over 100 jobs with 8 or 32 in flight (`--no-cache`), median of 5 rounds after two unmeasured rounds of each subject. HTTP mode: `serve --http --no-cache` against the HTTP floor, one JSON-RPC POST per call, 1,000 calls per round, 3 rounds, at 1, 8, 32 and 128 in flight; p50 and p99 over every call of the rounds.',
    '- Growth: `search_jobs` at `per_page` 1, 5, 20, 50 and 100 against a direct GET of the same page; RSS and the heap after a forced GC every 500 calls over 10,000 stdio calls (8 in flight, `get_job` and `search_jobs` alternating), service-mcp as configured by default against the floor.',
    '- Memory: RSS (`VmRSS`), and beside it the heap used after a forced full GC, read from outside through the inspector (every memory subject runs with `--inspect=127.0.0.1:0`, the floor too; `HeapProfiler.collectGarbage` twice, then `process.memoryUsage().heapUsed`), always after RSS, since the collection lowers it (and the collections every 500 calls keep the RSS of that chart below what a process left alone reaches: compare the 1,000-call rows, read without them). RSS rises while V8 sizes its heap and cannot tell that from a leak; the heap after GC can: flat means nothing is kept per call. Until issue 28 every upstream request kept about 1.2 KB until its 15 s timeout had passed, which these notes, reading RSS alone, had called heap sizing.',
    "- `--redis-url`: the same replica with and without a loopback `redis-server` (Debian's), interleaved: warm `get_job` with `--no-cache` (each request first asks Redis whether a cool-down holds) and a repeated `get_job` with the cache on (a hit read from Redis against one from memory).",
    '- On a 2-core machine the bench, the upstream and the subject share both cores; other load shifts absolute times, so the ratios are what the targets are about. Run it on an otherwise idle machine.',
    '',
  ].join('\n');
}
