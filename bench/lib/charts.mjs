/** The growth charts of the last run, written as bench/*.svg beside RESULTS.md. */
import { writeFileSync } from 'node:fs';
import { lineChart } from './svg.mjs';

export function drawCharts(all, dir) {
  const run = all.runs.at(-1);
  const write = (name, svg) => writeFileSync(new URL(name, dir), svg);

  const pages = Object.entries(run.pages).map(([n, v]) => [Number(n), v]);
  const per = (s) => pages.map(([n, v]) => [n, v[s].median]);
  const slope = (s) => (pages.at(-1)[1][s].median - pages[0][1][s].median) / (pages.at(-1)[0] - pages[0][0]);
  write(
    'search-per-page.svg',
    lineChart({
      title: 'Warm search_jobs latency against page size',
      caption: `Both grow linearly with the jobs on the page: service-mcp by about ${(slope('service') * 1000).toFixed(0)} µs a job (validating and rendering each), a direct GET of the same page by about ${(slope('direct') * 1000).toFixed(0)} µs (the API's JSON). Medians, cache off, one call at a time.`,
      xLabel: 'per_page (jobs on the page)',
      yLabel: 'median latency (ms)',
      series: [
        { name: 'service-mcp search_jobs', points: per('service') },
        { name: 'direct GET of the page', points: per('direct') },
      ],
    }),
  );

  const levels = Object.keys(run.http).map(Number);
  const http = (s, f) => levels.map((l) => [l, f(run.http[l][s])]);
  const peak = (s) => levels.reduce((best, l) => (run.http[l][s].rate.median > run.http[best][s].rate.median ? l : best), levels[0]);
  write(
    'http-throughput.svg',
    lineChart({
      title: 'HTTP mode throughput against concurrency',
      caption: `Throughput climbs while added calls fill idle time and saturates once both cores are busy (the server, the upstream and the bench share 2 cores): service-mcp peaks at ${peak('service')} in flight, the SDK v2 floor at ${peak('floor')}. Beyond that, more calls in flight only queue.`,
      xLabel: 'calls in flight (log scale)',
      yLabel: 'get_job calls per second',
      xLog: true,
      series: [
        { name: 'service-mcp serve --http', points: http('service', (v) => v.rate.median) },
        { name: 'SDK v2 floor over HTTP', points: http('floor', (v) => v.rate.median) },
      ],
    }),
  );
  write(
    'http-p99.svg',
    lineChart({
      title: 'HTTP mode p99 latency against concurrency',
      caption: 'Once throughput saturates, latency grows in proportion to the calls in flight (they wait their turn for the CPU): the p99 follows the p50, with no separate tail of stalls.',
      xLabel: 'calls in flight (log scale)',
      yLabel: 'latency (ms)',
      xLog: true,
      series: [
        { name: 'service-mcp p99', points: http('service', (v) => v.p99Ms) },
        { name: 'service-mcp p50', points: http('service', (v) => v.p50Ms) },
        { name: 'SDK v2 floor p99', points: http('floor', (v) => v.p99Ms) },
      ],
    }),
  );

  const mbOf = (points) => points.map(([calls, bytes]) => [calls, bytes / (1024 * 1024)]);
  const service = mbOf(run.rssGrowth.service);
  const warmFrom = service.find(([calls]) => calls >= 2000) ?? service[0];
  const growth = service.at(-1)[1] - warmFrom[1];
  write(
    'rss-over-calls.svg',
    lineChart({
      title: 'Resident memory over 10,000 stdio calls',
      caption: `RSS rises while the heap, the JIT and the response cache warm up, then stays flat: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB from call ${warmFrom[0].toLocaleString('en')} to call ${service.at(-1)[0].toLocaleString('en')} (the cache is bounded to 256 responses and 8 MB). Default configuration, 8 in flight.`,
      xLabel: 'calls answered',
      yLabel: 'RSS (MB)',
      series: [
        { name: 'service-mcp (cache on)', points: service },
        { name: 'SDK v2 floor', points: mbOf(run.rssGrowth.floor) },
      ],
    }),
  );
}
