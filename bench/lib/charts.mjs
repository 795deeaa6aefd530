/** The growth charts of the last run, written as bench/*.svg beside RESULTS.md. */
import { writeFileSync } from 'node:fs';
import { lineChart } from './svg.mjs';

export function drawCharts(all, dir) {
  const run = all.runs.at(-1);
  const write = (name, svg) => writeFileSync(new URL(name, dir), svg);

  const pages = Object.entries(run.pages).map(([n, v]) => [Number(n), v]);
  const per = (s) => pages.map(([n, v]) => [n, v[s].median]);
  // What service-mcp adds to the direct GET of the same page, at the smallest and the largest page.
  const added = pages.map(([n, v]) => [n, v.service.median - v.direct.median]);
  const [[n0, a0], [n1, a1]] = [added[0], added.at(-1)];
  write(
    'search-per-page.svg',
    lineChart({
      title: 'Warm search_jobs latency against page size',
      caption: `Both grow with the jobs on the page. What service-mcp adds to the direct GET grows from ${a0.toFixed(2)} ms (${n0} job${n0 === 1 ? '' : 's'}) to ${a1.toFixed(2)} ms (${n1} jobs), about ${(((a1 - a0) / (n1 - n0)) * 1000).toFixed(0)} µs a job on average (validating and rendering each one). Medians, cache off, one call at a time.`,
      xLabel: 'per_page (jobs on the page)',
      yLabel: 'median latency (ms)',
      series: [
        { name: 'service-mcp search_jobs', points: per('service') },
        { name: 'direct GET of the page', points: per('direct') },
      ],
    }),
  );

  const levels = Object.keys(run.http.levels).map(Number);
  const byLevel = run.http.levels;
  const http = (s, f) => levels.map((l) => [l, f(byLevel[l][s])]);
  const peakRate = (s) => Math.max(...levels.map((l) => byLevel[l][s].rate.median));
  // The first concurrency within a tenth of the best rate: where throughput saturates.
  const saturates = (s) => levels.find((l) => byLevel[l][s].rate.median >= 0.9 * peakRate(s));
  write(
    'http-throughput.svg',
    lineChart({
      title: 'HTTP mode throughput against concurrency',
      caption: `Throughput climbs while added calls fill idle time, then saturates once both cores are busy (the server, the upstream and the bench share 2 cores): service-mcp is within a tenth of its best (${Math.round(peakRate('service'))}/s) from ${saturates('service')} in flight, the SDK v2 floor (${Math.round(peakRate('floor'))}/s) from ${saturates('floor')}. Past that, more calls in flight only queue: latency grows instead (next chart).`,
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
      caption: `Once throughput saturates, added calls wait their turn: the p50 grows with the calls in flight (${byLevel[levels[0]].service.p50Ms.toFixed(1)} ms at ${levels[0]}, ${byLevel[levels.at(-1)].service.p50Ms.toFixed(1)} ms at ${levels.at(-1)}). The p99 is ${levels.map((l) => `${(byLevel[l].service.p99Ms / byLevel[l].service.p50Ms).toFixed(1)}x`).join(', ')} the p50 at ${levels.join(', ')} in flight: widest where calls are short, so a GC pause or a busy core weighs most.`,
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

  const mbOf = (points, at = 1) => points.filter((p) => p[at] !== undefined).map((p) => [p[0], p[at] / (1024 * 1024)]);
  const { growth } = run.soak;
  const service = mbOf(growth.service);
  const floor = mbOf(growth.floor);
  const serviceHeap = mbOf(growth.service, 2);
  const floorHeap = mbOf(growth.floor, 2);
  // Growth over the second half of the calls, when every process is long warm.
  const lateGrowth = (points) => points.at(-1)[1] - points[Math.floor((points.length - 1) / 2)][1];
  const half = service[Math.floor((service.length - 1) / 2)][0].toLocaleString('en');
  const said = (mb) => `${mb >= 0 ? '+' : ''}${mb.toFixed(1)} MB`;
  const flat = Math.abs(lateGrowth(service)) < 0.05 * service.at(-1)[1];
  write(
    'rss-over-calls.svg',
    lineChart({
      title: 'Memory over 10,000 stdio calls: RSS, and the heap after a forced GC',
      caption: `RSS rises steeply while the heap, the JIT and the response cache (at most 256 responses, 8 MB) warm up${flat ? ', then stays flat' : ', and keeps rising after'}: ${said(lateGrowth(service))} for service-mcp from call ${half} to call ${service.at(-1)[0].toLocaleString('en')}, ${said(lateGrowth(floor))} for the SDK v2 floor.${serviceHeap.length > 1 ? ` The heap used after a forced full GC, the measure that tells a leak from V8 sizing its heap, moves ${said(lateGrowth(serviceHeap))} for service-mcp and ${said(lateGrowth(floorHeap))} for the floor over the same calls.` : ''} Default configuration (the bridge on), 8 in flight.`,
      xLabel: 'calls answered',
      yLabel: 'MB',
      series: [
        { name: 'service-mcp RSS (cache on)', points: service },
        { name: 'SDK v2 floor RSS', points: floor },
        ...(serviceHeap.length > 1
          ? [
              { name: 'service-mcp heap after GC', points: serviceHeap },
              { name: 'SDK v2 floor heap after GC', points: floorHeap },
            ]
          : []),
      ],
    }),
  );
}
