/** The results as one Markdown table, with each ratio against its target from issue 6. */
import { mb, ms, ratio } from './stats.mjs';

const both = (s, unit = ms) => (s ? `${unit(s.median)} / ${unit(s.p90)}` : 'n/a');
const rate = (s) => (s ? `${Math.round(s.median)} / ${Math.round(s.p90)}` : 'n/a');
const mark = (ok) => (ok === undefined ? '' : ok ? 'met' : '**missed**');

export function renderMarkdown(r) {
  const rows = [];
  const row = (metric, service, floor, direct, value, target, ok) => rows.push(`| ${metric} | ${service} | ${floor} | ${direct} | ${value} | ${target} | ${mark(ok)} |`);
  const c = r.coldStart;
  const listRatio = c.service.toolsListMs.median / c.floor.toolsListMs.median;
  row('cold start: spawn → initialize result (ms)', both(c.service.initMs), both(c.floor.initMs), '', ratio(c.service.initMs.median / c.floor.initMs.median) + ' floor', '', undefined);
  row('cold start: spawn → tools/list result (ms)', both(c.service.toolsListMs), both(c.floor.toolsListMs), '', ratio(listRatio) + ' floor', '≤ 0.6x floor', listRatio <= 0.6);
  row('CPU time to tools/list (ms, all threads)', both(c.service.cpuMs), both(c.floor.cpuMs), '', ratio(c.service.cpuMs.median / c.floor.cpuMs.median) + ' floor', '', undefined);
  row('RSS after tools/list (MB)', both(c.service.rssBytes, mb), both(c.floor.rssBytes, mb), '', ratio(c.service.rssBytes.median / c.floor.rssBytes.median) + ' floor', '', undefined);
  const rssRatio = r.rss.service.median / r.rss.floor.median;
  row(`RSS after ${r.rss.calls.toLocaleString('en')} calls (MB; default, cache on)`, both(r.rss.service, mb), both(r.rss.floor, mb), '', ratio(rssRatio) + ' floor', '≤ 1.0x floor', rssRatio <= 1);
  row(`RSS after ${r.rss.calls.toLocaleString('en')} calls (MB; --no-cache)`, both(r.rss.serviceNoCache, mb), both(r.rss.floor, mb), '', ratio(r.rss.serviceNoCache.median / r.rss.floor.median) + ' floor', '', undefined);
  row('tools/list size (bytes, whole result)', String(c.service.toolsListBytes), String(c.floor.toolsListBytes), '', '', '', undefined);
  row('tools/list model-facing (names, titles, descriptions, input schemas)', String(c.service.modelFacingBytes), String(c.floor.modelFacingBytes), '', `${(c.service.modelFacingBytes / 1024).toFixed(2)} KB`, '≤ 4 KB', c.service.modelFacingBytes <= 4096);
  const w = r.warm;
  const jobRatio = w.get_job.service.median / w.get_job.direct.median;
  const searchRatio = w.search.service.median / w.search.direct.median;
  row('warm tools/call get_job (ms, cache off)', both(w.get_job.service), both(w.get_job.floor), both(w.get_job.direct), ratio(jobRatio) + ' direct', '≤ 1.3x direct', jobRatio <= 1.3);
  const missRatio = w.cacheMiss.service.median / w.cacheMiss.direct.median;
  row('warm get_job, cache on, each job asked once (ms, all misses)', both(w.cacheMiss.service), '', both(w.cacheMiss.direct), ratio(missRatio) + ' direct', '', undefined);
  row('warm tools/call search_jobs, 20 jobs (ms, cache off)', both(w.search.service), both(w.search.floor), both(w.search.direct), ratio(searchRatio) + ' direct', '≤ 1.5x direct', searchRatio <= 1.5);
  const hitRatio = r.cache.service.median / r.cache.direct.median;
  row(`repeat get_job, cache hit (ms; ${r.cache.hitsReported}/${r.cache.calls} reported as hits)`, both(r.cache.service), '', both(r.cache.direct), ratio(hitRatio) + ' direct', '≤ 0.5x direct', hitRatio <= 0.5);
  for (const [level, t] of Object.entries(r.throughput)) {
    const stdioRatio = t.stdio.median / t.direct.median;
    row(`throughput, ${level} in flight, stdio (get_job calls/s)`, rate(t.stdio), rate(t.floor), rate(t.direct), ratio(stdioRatio) + ' direct', level === '8' ? '≥ 0.8x direct' : '', level === '8' ? stdioRatio >= 0.8 : undefined);
    if (t.http) row(`throughput, ${level} in flight, HTTP mode (calls/s)`, rate(t.http), '', rate(t.direct), ratio(t.http.median / t.direct.median) + ' direct', '', undefined);
  }
  const tj = w.textPerJob;
  const textRatio = tj.textBytesPerJob / tj.rawJsonBytesPerJob;
  row(`search_jobs text bytes per job (${tj.jobs} jobs)`, tj.textBytesPerJob.toFixed(0), '', `${tj.rawJsonBytesPerJob.toFixed(0)} (raw JSON)`, ratio(textRatio) + ' raw', '≤ 0.25x raw', textRatio <= 0.25);

  const load = (l) => l.map((x) => x.toFixed(2)).join(' ');
  return [
    `Benchmark of service-mcp ${r.quick ? '(QUICK smoke run: too few rounds for figures) ' : ''}on Node ${r.node}, ${r.cores} cores (${r.cpu}), ${r.date.slice(0, 10)}; run took ${r.seconds} s (load average ${load(r.loadBefore)} before, ${load(r.loadAfter)} after).`,
    'Upstream: the embedded offline API over loopback (`service-mcp mock-api`). Cells are median / p90; ratios compare medians from the same run.',
    '',
    '| metric | service-mcp | floor server | direct GET | ratio | target | |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'How it is measured (`bench/run.mjs`, `bench/lib/`):',
    '',
    '- **floor server**: `bench/floor-server.mjs`, the smallest MCP server the same SDK (v2) allows (McpServer over `serveStdio`, one tool that fetches an upstream path with global `fetch` and returns the body as text). **direct GET**: `undici.fetch` on a keep-alive agent from the bench process, body read in full.',
    '- Subjects run interleaved, their order rotated every round, except the warm calls (below). Every process is spawned from the built files under the same Node; CPU (all threads, `/proc/<pid>/task/*/schedstat`) and RSS (`VmRSS`) are read from outside, right after the answer arrives.',
    '- Cold start: spawn to the initialize result and to the tools/list result, each spawn a fresh process (compile cache warm, as on any launch after the first). Both are 2025-era clients (initialize, then tools/list), answered by the SDK like every other message; the 1,000-call rows show memory after the API client has been used.',
    '- Warm calls: one at a time, `get_job` on 100 jobs in turn and `search_jobs` with `per_page` 20, against a direct GET of the same REST path. "cache off" runs `--no-cache`; the cache-miss row runs the default configuration in a loop of its own afterwards and asks for each job once, each paired with a direct GET of that job, after warming that server up on as many other misses (each job with `include_predicted_salaries` true, then false) as the other subjects had calls. Until 2026-11-21 those calls ran inside the warm loop, where they slowed the calls after them, the floor’s as much as service-mcp’s (search_jobs by about 0.1x, get_job by about 0.04x). Each round of warm calls takes the next of the six orders of service-mcp, the floor and the direct GET, so that each follows each other one equally often; until 2026-11-22 the order was rotated, which put service-mcp right after the direct GET and the floor right after service-mcp in every round, and a call right after a direct GET is slower (the same build measured 0.08–0.11x apart in the two places). Five runs of each order on the same build: get_job 1.31–1.35x rotated, 1.26–1.34x in all orders; the floor 1.42–1.49x and 1.45–1.53x; search_jobs the same for both. The cache-hit row repeats one `get_job`, after the same warm-up (50 calls of each subject in a full run).',
    '- Throughput: 2,000 `get_job` calls over 100 jobs with 8 or 32 in flight (`--no-cache`), calls per second, median of 7 rounds after two unmeasured rounds of each subject at that level (with 200 calls of warm-up and 3 rounds, the medians moved by a tenth or more between runs); HTTP mode is `serve --http --no-cache`, one JSON-RPC POST per call.',
    '- tools/list model-facing size: JSON of name, title, description and inputSchema of every tool. Text bytes per job: the text of a 20-job `search_jobs` result against the raw JSON body of the same request, both divided by 20.',
    '- On a 2-core machine the bench, the upstream and the subject share both cores, and other load shifts absolute times; the ratios are what the targets are about. Run it on an otherwise idle machine.',
    '',
  ].join('\n');
}
