#!/usr/bin/env node
/**
 * `npm run bench`: service-mcp against its baselines (a direct GET with undici's `request()`, the
 * wire limit, the SDK v2 floor over stdio and HTTP), interleaved in each run, over BENCH_RUNS full
 * runs (3 by default) whose spread the table reports. service-mcp is measured as users run it (the
 * bridge on) and with --no-bridge; upstream is the embedded offline API over loopback, or offline
 * in process, and for the network rows the same API behind a proxy adding a round trip. Writes
 * bench/results.json, bench/RESULTS.md and the charts (bench/*.svg), prints the table and updates
 * docs/benchmarks.md's, then runs the footprint (bench/footprint.mjs).
 *
 *   npm run bench -- --only network,start   some sections only: printed, nothing written
 *   npm run bench -- --runs 1               one run instead of BENCH_RUNS
 *   npm run bench -- --quick                (or BENCH_QUICK=1) one short run: a smoke test, not figures
 *   node bench/run.mjs --render              the tables again from bench/results.json and
 *                                            bench/footprint.json, nothing measured
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { Agent, fetch, request } from 'undici';
import { drawCharts } from './lib/charts.mjs';
import { rssAfterCalls, rssOverCalls } from './lib/memory.mjs';
import { networkFirstSeconds } from './lib/network.mjs';
import { startFloorHttp, startHttpMode, startUpstream } from './lib/processes.mjs';
import { renderMarkdown } from './lib/report.mjs';
import { redisCost } from './lib/redis.mjs';
import { cacheHits, coldStart, httpScaling, searchByPageSize, throughput, warmLatency } from './lib/scenarios.mjs';
import { updateBenchmarksDoc } from './benchmarks-doc.mjs';
import { footprintMarkdown, runFootprint, updateFootprintDoc } from './footprint.mjs';

/** The sections, in the order a run takes them; `soak` runs in the last run only. */
const SECTIONS = [
  'start',
  'network',
  'calls',
  'cache',
  'throughput',
  'http',
  'pages',
  'memory',
  'soak',
  'redis',
  'footprint',
];

const { values: args } = parseArgs({
  options: {
    only: { type: 'string', multiple: true },
    runs: { type: 'string' },
    quick: { type: 'boolean', default: process.env.BENCH_QUICK === '1' },
    render: { type: 'boolean', default: false },
  },
});
if (args.render) {
  const all = JSON.parse(readFileSync(new URL('./results.json', import.meta.url), 'utf8'));
  writeFileSync(new URL('./RESULTS.md', import.meta.url), renderMarkdown(all));
  drawCharts(all, new URL('./', import.meta.url));
  updateBenchmarksDoc();
  updateFootprintDoc(footprintMarkdown(JSON.parse(readFileSync(new URL('./footprint.json', import.meta.url), 'utf8'))));
  process.exit(0);
}
const only = args.only?.flatMap((s) => s.split(','));
const unknown = only?.filter((s) => !SECTIONS.includes(s));
if (unknown?.length) {
  process.stderr.write(`bench: no section ${unknown.join(', ')}; the sections are ${SECTIONS.join(', ')}\n`);
  process.exit(2);
}
const wanted = new Set(only ?? SECTIONS);
const quick = args.quick;
const runs = quick ? 1 : Math.max(1, Number(args.runs ?? process.env.BENCH_RUNS ?? 3));
/** Only a full run replaces the committed results: a subset would leave the table half empty. */
const writes = !quick && only === undefined;
const plan = quick
  ? {
      cold: { rounds: 2, warmup: 1 },
      network: { rounds: 1, warmup: 1 },
      warm: { iterations: 30, warmup: 10 },
      cache: 30,
      tput: { total: 200, rounds: 1 },
      http: { total: 200, rounds: 1 },
      pages: { iterations: 10, warmup: 3 },
      rss: { calls: 1000, rounds: 1 },
      rssGrowth: { calls: 1000, every: 250 },
      leftAlone: { calls: 2000, rounds: 1 },
    }
  : {
      cold: { rounds: 10, warmup: 2 },
      network: { rounds: 3, warmup: 1 },
      warm: { iterations: 480, warmup: 40 },
      cache: 400,
      tput: { total: 2000, rounds: 3 },
      http: { total: 1000, rounds: 2 },
      pages: { iterations: 120, warmup: 20 },
      rss: { calls: 1000, rounds: 3 },
      rssGrowth: { calls: 10_000, every: 500 },
      leftAlone: { calls: 10_000, rounds: 1 },
    };

/** The commit measured, marked when the working tree differs from it. */
function commit() {
  const git = (...a) => execFileSync('git', a, { cwd: new URL('..', import.meta.url), encoding: 'utf8' }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'src', 'bin', 'package.json') ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return 'an unknown commit';
  }
}

const log = (what) => process.stderr.write(`bench: ${what}\n`);
const started = Date.now();
const needsUpstream = [...wanted].some((s) => s !== 'footprint');
const upstream = needsUpstream ? await startUpstream() : undefined;
const dispatcher = new Agent({ connections: 128, keepAliveTimeout: 30_000 });
const headers = { accept: 'application/json' };
/** The direct baseline: undici's request() on a keep-alive agent, body read in full. */
const direct = async (path) => {
  const { statusCode, body } = await request(upstream.url + path, { dispatcher, headers });
  const text = await body.text();
  if (statusCode >= 400) throw new Error(`direct GET ${path}: HTTP ${statusCode}`);
  return text;
};
/** The older baseline, kept for comparison with results before 2026-11-24: undici's fetch, same agent. */
const directFetch = async (path) => {
  const response = await fetch(upstream.url + path, { dispatcher, headers });
  const text = await response.text();
  if (!response.ok) throw new Error(`direct fetch ${path}: HTTP ${response.status}`);
  return text;
};

// HTTP mode as users start it (the bridge on) and with --no-bridge, beside the floor over HTTP.
const servers = wanted.has('http')
  ? await Promise.all([
      startHttpMode(upstream.url, ['--no-cache']),
      startHttpMode(upstream.url, ['--no-cache', '--no-bridge']),
      startFloorHttp(upstream.url),
    ])
  : [];
try {
  let rssGrowth;
  if (needsUpstream) {
    const ids = JSON.parse(await direct('/api/public/v1/jobs?per_page=100')).data.jobs.map((j) => j.job_id);
    // Every active job, for calls that must each ask for a job not asked for before.
    const allIds = [];
    for (let page = 1; ; page++) {
      const { jobs, pagination } = JSON.parse(await direct(`/api/public/v1/jobs?per_page=100&page=${page}`)).data;
      allIds.push(...jobs.map((j) => j.job_id));
      if (!pagination.has_next) break;
    }
    const u = upstream.url;
    const sections = {
      start: () => coldStart({ upstream: u, ...plan.cold }),
      network: () => networkFirstSeconds({ upstream: u, ids, ...plan.network }),
      calls: () => warmLatency({ upstream: u, direct, directFetch, ids, allIds, ...plan.warm }),
      cache: () => cacheHits({ upstream: u, direct, ids, iterations: plan.cache, warmup: plan.warm.warmup }),
      throughput: () => throughput({ upstream: u, direct, ids, levels: [8, 32], ...plan.tput }),
      http: () =>
        httpScaling({
          subjects: { service: servers[0].url, serviceNoBridge: servers[1].url, floor: servers[2].url },
          ids,
          dispatcher,
          fetch,
          levels: [1, 8, 32, 128],
          ...plan.http,
        }),
      pages: () => searchByPageSize({ upstream: u, direct, perPages: [1, 5, 20, 50, 100], ...plan.pages }),
      memory: () => rssAfterCalls({ upstream: u, ids, ...plan.rss }),
      soak: async () => ({
        growth: await rssOverCalls({ upstream: u, ids, ...plan.rssGrowth }),
        // Left alone, no collection forced on the way: what a user's process holds after a session.
        leftAlone: await rssAfterCalls({
          upstream: u,
          ids,
          ...plan.leftAlone,
          only: ['service', 'serviceNoBridge', 'floor'],
        }),
      }),
      redis: () => redisCost({ upstream: u, ids, iterations: plan.cache, warmup: plan.warm.warmup }),
    };
    const results = [];
    for (let run = 1; run <= runs; run++) {
      const runStarted = Date.now();
      const result = { loadBefore: os.loadavg() };
      for (const [name, measure] of Object.entries(sections)) {
        if (!wanted.has(name) || (name === 'soak' && run < runs)) continue;
        const sectionStarted = Date.now();
        log(`run ${run} of ${runs}: ${name}`);
        result[name] = await measure();
        const seconds = Math.round((Date.now() - sectionStarted) / 1000);
        (result.sectionSeconds ??= {})[name] = seconds;
        log(`run ${run} of ${runs}: ${name} took ${seconds} s`);
      }
      results.push({ ...result, seconds: Math.round((Date.now() - runStarted) / 1000), loadAfter: os.loadavg() });
    }
    rssGrowth = results.at(-1).soak?.growth;

    const all = {
      date: new Date().toISOString(),
      commit: commit(),
      node: process.version,
      cores: os.availableParallelism(),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      quick,
      only,
      seconds: Math.round((Date.now() - started) / 1000),
      runs: results,
    };
    const markdown = renderMarkdown(all);
    if (writes) {
      writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(all, null, 2)}\n`);
      writeFileSync(new URL('./RESULTS.md', import.meta.url), markdown);
      drawCharts(all, new URL('./', import.meta.url));
      updateBenchmarksDoc();
    } else log(`${quick ? 'a quick run' : 'some sections only'}: nothing written`);
    process.stdout.write(markdown);
  }
  if (wanted.has('footprint')) {
    log('footprint (bench/footprint.mjs)');
    process.stdout.write(`\n## Footprint\n\n${await runFootprint({ quick, write: writes, soak: rssGrowth })}`);
  }
  log(`done in ${Math.round((Date.now() - started) / 1000)} s`);
} finally {
  await Promise.all([upstream?.close(), ...servers.map((s) => s.close())]);
  await dispatcher.close();
}
