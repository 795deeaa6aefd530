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
  const missRatio = w.get_job.serviceCacheMiss.median / w.get_job.direct.median;
  row('warm get_job, cache on, each job asked once (ms, all misses)', both(w.get_job.serviceCacheMiss), '', both(w.get_job.direct), ratio(missRatio) + ' direct', '', undefined);
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

  return [
    `Benchmark of service-mcp ${r.quick ? '(QUICK smoke run: too few rounds for figures) ' : ''}on Node ${r.node}, ${r.cores} cores (${r.cpu}), ${r.date.slice(0, 10)}; run took ${r.seconds} s.`,
    'Upstream: the embedded offline API over loopback (`service-mcp mock-api`). Cells are median / p90; ratios compare medians from the same run.',
    '',
    '| metric | service-mcp | floor server | direct GET | ratio | target | |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
