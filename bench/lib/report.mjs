/**
 * The results as Markdown: the network rows, then the start, per-call and memory rows of service-mcp
 * as users run it (the bridge on) and again with --no-bridge, then the rows the bridge does not
 * touch, the charts and how it is all measured. A table or row a run did not measure is left out
 * (`npm run bench -- --only …`).
 */
import { networkTable } from './report-network.mjs';
import { ratio } from './stats.mjs';
import { mark, tableOf } from './report-table.mjs';
import { variantTable } from './report-variant.mjs';
import { VARIANTS } from './processes.mjs';

/** The rows no variant changes: --redis-url, the tools/list bytes, the text a model reads per job. */
function apartTable(runs) {
  const last = runs.at(-1);
  const t = tableOf(runs, ['service-mcp', 'v2 floor', 'direct GET']);
  if (last.redis) {
    t.row(
      'warm get_job, cache off, with --redis-url (ms; --no-bridge; shared cool-down checked before each request)',
      [t.cell((x) => x.redis.shared), '', ''],
      (x) => x.redis.shared.median / x.redis.plain.median,
      'same replica without Redis',
    );
    t.row(
      'repeat get_job, cache hit, with --redis-url (ms; --no-bridge; the hit read from Redis)',
      [t.cell((x) => x.redis.sharedHit), '', ''],
      (x) => x.redis.sharedHit.median / x.redis.plainHit.median,
      'same replica, memory cache',
    );
  } else if (runs.some((x) => 'redis' in x)) {
    t.raw(['--redis-url rows', 'no redis-server on this machine: not measured', '', '', '', '', '']);
  }
  const start = last.start;
  if (start) {
    const facing = start.serviceNoBridge.modelFacingBytes;
    t.raw([
      `tools/list model-facing bytes of our seven (names, titles, descriptions, input schemas; whole result ${start.serviceNoBridge.toolsListBytes})`,
      facing,
      start.floor.modelFacingBytes,
      '',
      `${(facing / 1024).toFixed(2)} KB`,
      '≤ 4 KB',
      mark(facing <= 4096),
    ]);
    const bridged = start.service.bridgedModelFacingBytes;
    t.raw([
      `beside them, the ${start.service.bridgedTools} tools bridged from the hosted surface of mock-api, model-facing bytes (whole result with them ${start.service.toolsListBytes})`,
      bridged,
      '',
      '',
      `${(bridged / 1024).toFixed(2)} KB`,
      "≤ 24 KB (the bridge's cap)",
      mark(bridged <= 24_576),
    ]);
  }
  const tj = last.calls?.textPerJob;
  if (tj)
    t.raw([
      `search_jobs text bytes per job (${tj.jobs} jobs)`,
      tj.textBytesPerJob.toFixed(0),
      '',
      `${tj.rawJsonBytesPerJob.toFixed(0)} (raw JSON)`,
      `${ratio(tj.textBytesPerJob / tj.rawJsonBytesPerJob)} raw`,
      '',
      '',
    ]);
  return t.render();
}

const section = (title, lines) => (lines.length ? [`### ${title}`, '', ...lines] : []);

export function renderMarkdown(all) {
  const { runs } = all;
  const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
  const full = all.only === undefined;
  return [
    `Benchmark of service-mcp ${all.quick ? '(QUICK smoke run: too few rounds for figures) ' : ''}${full ? '' : `(sections ${all.only.join(', ')} only) `}at ${all.commit} on Node ${all.node}, ${all.cores} cores (${all.cpu}), ${all.date.slice(0, 10)}: ${runs.length} run${runs.length === 1 ? '' : 's'} in ${all.seconds} s (load average before each: ${runs.map((x) => load(x.loadBefore).split(' ')[0]).join(', ')}; after the last: ${load(runs.at(-1).loadAfter)}).`,
    "Upstream: the embedded offline API over loopback (`service-mcp mock-api`), or in process (\"offline\": `npx -y service-mcp` as is). Cells: median / p90 (rates: median), each the median over the runs. Ratios: computed within each run, median over the runs (lowest–highest). Targets marked #45 are issue 45's (on the per-call rows: today's spread, which no change may leave for the worse); the others are earlier issues'.",
    '',
    ...section('The first seconds over a network', networkTable(runs)),
    ...section(`As users run it: ${VARIANTS.defaults.label}`, variantTable(runs, VARIANTS.defaults)),
    ...section(`With ${VARIANTS.noBridge.label} (like for like with the floor)`, variantTable(runs, VARIANTS.noBridge)),
    ...section('Apart from the bridge', apartTable(runs)),
    ...(full
      ? [
          'How cost grows (last run; `bench/*.svg`):',
          '',
          '![search_jobs latency against per_page](search-per-page.svg)',
          '![HTTP mode throughput against concurrency](http-throughput.svg)',
          '![HTTP mode p99 latency against concurrency](http-p99.svg)',
          '![RSS and the heap after a forced GC over 10,000 stdio calls](rss-over-calls.svg)',
          '',
        ]
      : []),
    'How it is measured (`bench/run.mjs`, `bench/lib/`):',
    '',
    '- **direct GET**: undici `request()` on a keep-alive agent from the bench process, body read in full (the `fetch` row keeps the older baseline, `undici.fetch` on the same agent). **wire limit**: `bench/wire-limit.mjs`, a stdio JSON-RPC proxy with no SDK: it reads a line, makes one `request()` GET and writes the body back as a result line. **v2 floor**: `bench/floor-tool.mjs`, the smallest server SDK v2 allows (`McpServer`, one tool that makes the same GET with `request()` and returns the body as text), over `serveStdio` (`floor-server.mjs`) and over `createMcpHandler` on node:http (`floor-http.mjs`); like service-mcp it turns on the compile cache and loads undici on its first call.',
    '- **Variants**: every service-mcp row is measured as users run it (the defaults: the bridge on, so a start reads the hosted market surface of its upstream, and the first tools/list waits for it, at most 1.5 s) and again with `--no-bridge`, like for like with the floor, which has no hosted surface to read; both in the same run, interleaved. Start rows run offline (`npx -y service-mcp` as is: the embedded API and its hosted surface in process) and against `mock-api`; per-call and memory rows against `mock-api`, with offline rows beside them (in process: no socket, no cache), against the floor over loopback.',
    '- Subjects run interleaved, their order rotated every round; the warm calls cycle through balanced orders (each subject right after each other one equally often: a Williams design), since a call right after a direct GET measures slower than one after an MCP call. Every process is spawned from the built files under the same Node; CPU (all threads, `/proc/<pid>/task/*/schedstat`) and RSS (`VmRSS`) are read from outside, right after the answer arrives.',
    "- **Network**: `bench/lib/latency-proxy.mjs`, a reverse proxy on loopback (node:http) in front of `mock-api` that holds each request for half of a 60 ms round trip before forwarding it and its answer for the other half (new connections cost nothing more: the kindest network with that latency), and logs each request as it arrives. Each start: spawn, initialize, tools/list, then `get_job`, `search_jobs` (20 jobs) and the same `get_job` again, each phase timed and its upstream requests counted; the floor makes the same GETs, loading its HTTP client at its first call as everywhere else in the bench and, as a second floor, before it serves (`FLOOR_CLIENT_AT_START=1`): issue 45's figures are that floor's, and its targets are judged against it. \"Hanging\": the proxy holds every request to the hosted MCP path (`POST /api/public/v1/mcp`) open. The proxy sends the upstream's own Host (mock-api admits its MCP path only under the address it is bound to), so health names an endpoint on another origin and the bridge reads the base URL's hosted path instead: the same path and the same requests. Every start shares one cache directory (the run's own), as a user's starts share theirs: the hosted list and the deployed catalog an earlier start kept are taken up while fresh (a start still reads discovery, which opens the connection its first call uses; on this proxy a new connection costs nothing, so that part of its worth does not show here). \"A first start\" starts from an empty cache directory each time: a user's first run, which reads the hosted list and the catalog then. 1 unmeasured round, then 3 a run, subjects rotated.",
    '- Cold start: spawn to the tools/list result, a fresh process each time (compile cache warm, as on any launch after the first), 10 rounds a run after 2 unmeasured ones, for a 2025 client (initialize, then tools/list) and a 2026-07-28 client (tools/list at once, with its version and capabilities in `_meta`).',
    '- Warm calls: one at a time, `get_job` on 100 jobs in turn and `search_jobs` with `per_page` 20; "cache off" runs `--no-cache`. The cache-miss row runs the default configuration in a loop of its own and asks for each job once, paired with a direct GET of that job. The cache-hit row repeats one `get_job`.',
    '- Throughput: 2,000 `get_job` calls over 100 jobs with 8 or 32 in flight (`--no-cache`), median of 3 rounds after two unmeasured rounds of each subject, service-mcp against `mock-api` and offline. HTTP mode: `serve --http --no-cache` (as users run it, and with `--no-bridge`) against the HTTP floor, one JSON-RPC POST per call, 1,000 calls per round, 2 rounds after an unmeasured one, at 1, 8, 32 and 128 in flight; p50 and p99 over every call of the rounds.',
    "- Growth: `search_jobs` at `per_page` 1, 5, 20, 50 and 100 against a direct GET of the same page; in the last run only, RSS and the heap after a forced GC every 500 calls over 10,000 stdio calls (8 in flight, `get_job` and `search_jobs` alternating), service-mcp as configured by default and with `--no-bridge` against the floor; and RSS after 10,000 such calls in a process left alone (no collection forced on the way), what a user's process holds after a long session.",
    '- Memory: RSS (`VmRSS`), and beside it the heap used after a forced full GC, read from outside through the inspector (every memory subject runs with `--inspect=127.0.0.1:0`, the floor too; `HeapProfiler.collectGarbage` twice, then `process.memoryUsage().heapUsed`), always after RSS, since the collection lowers it (and the collections every 500 calls keep the RSS of that chart below what a process left alone reaches: compare the 1,000-call rows, read without them). RSS rises while V8 sizes its heap and cannot tell that from a leak; the heap after GC can: flat means nothing is kept per call. Until issue 28 every upstream request kept about 1.2 KB until its 15 s timeout had passed, which these notes, reading RSS alone, had called heap sizing.',
    "- `--redis-url`: the same replica with and without a loopback `redis-server` (Debian's), interleaved: warm `get_job` with `--no-cache` (each request first asks Redis whether a cool-down holds) and a repeated `get_job` with the cache on (a hit read from Redis against one from memory).",
    '- On a 2-core machine the bench, the upstream and the subject share both cores; other load shifts absolute times, so the ratios are what the targets are about. Run it on an otherwise idle machine.',
    '',
  ].join('\n');
}
