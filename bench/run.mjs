#!/usr/bin/env node
/**
 * `npm run bench`: service-mcp against its baselines (a direct GET with undici's `request()`, the
 * wire limit, the SDK v2 floor over stdio and HTTP), interleaved in each run, over BENCH_RUNS full
 * runs (3 by default) whose spread the table reports; upstream is the embedded offline API over
 * loopback. Writes bench/results.json, bench/RESULTS.md and the charts (bench/*.svg), prints the
 * table and updates docs/benchmarks.md's. BENCH_QUICK=1 is one short run: a smoke test, not figures.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { Agent, fetch, request } from 'undici';
import { drawCharts } from './lib/charts.mjs';
import { startFloorHttp, startHttpMode, startUpstream } from './lib/processes.mjs';
import { renderMarkdown } from './lib/report.mjs';
import { redisCost } from './lib/redis.mjs';
import {
  cacheHits,
  coldStart,
  httpScaling,
  rssAfterCalls,
  rssOverCalls,
  searchByPageSize,
  throughput,
  warmLatency,
} from './lib/scenarios.mjs';
import { updateBenchmarksDoc } from './benchmarks-doc.mjs';
import { runFootprint } from './footprint.mjs';

const quick = process.env.BENCH_QUICK === '1';
const runs = quick ? 1 : Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const plan = quick
  ? {
      cold: { rounds: 3, warmup: 1 },
      warm: { iterations: 30, warmup: 10 },
      cache: 30,
      tput: { total: 200, rounds: 1 },
      http: { total: 200, rounds: 1 },
      pages: { iterations: 10, warmup: 3 },
      rss: { calls: 1000, rounds: 1 },
      rssGrowth: { calls: 1000, every: 250 },
    }
  : {
      cold: { rounds: 20, warmup: 3 },
      warm: { iterations: 480, warmup: 40 },
      cache: 400,
      tput: { total: 2000, rounds: 5 },
      http: { total: 1000, rounds: 3 },
      pages: { iterations: 120, warmup: 20 },
      rss: { calls: 1000, rounds: 3 },
      rssGrowth: { calls: 10_000, every: 500 },
    };

const upstream = await startUpstream();
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

const [http, floorHttp] = await Promise.all([
  startHttpMode(upstream.url, ['--no-cache']),
  startFloorHttp(upstream.url),
]);
const log = (what) => process.stderr.write(`bench: ${what}\n`);
const started = Date.now();
try {
  const ids = JSON.parse(await direct('/api/public/v1/jobs?per_page=100')).data.jobs.map((j) => j.job_id);
  // Every active job, for calls that must each ask for a job not asked for before.
  const allIds = [];
  for (let page = 1; ; page++) {
    const { jobs, pagination } = JSON.parse(await direct(`/api/public/v1/jobs?per_page=100&page=${page}`)).data;
    allIds.push(...jobs.map((j) => j.job_id));
    if (!pagination.has_next) break;
  }
  const results = [];
  for (let run = 1; run <= runs; run++) {
    const runStarted = Date.now();
    const loadBefore = os.loadavg();
    const step = (what) => log(`run ${run} of ${runs}: ${what}`);
    step('cold start');
    const cold = await coldStart({ upstream: upstream.url, ...plan.cold });
    step('warm latency');
    const warm = await warmLatency({ upstream: upstream.url, direct, directFetch, ids, allIds, ...plan.warm });
    step('cache hits');
    const cache = await cacheHits({
      upstream: upstream.url,
      direct,
      ids,
      iterations: plan.cache,
      warmup: plan.warm.warmup,
    });
    step('stdio throughput');
    const tput = await throughput({ upstream: upstream.url, direct, ids, levels: [8, 32], ...plan.tput });
    step('HTTP mode by concurrency');
    const httpMode = await httpScaling({
      subjects: { service: http.url, floor: floorHttp.url },
      ids,
      dispatcher,
      fetch,
      levels: [1, 8, 32, 128],
      ...plan.http,
    });
    step('search_jobs by page size');
    const pages = await searchByPageSize({
      upstream: upstream.url,
      direct,
      perPages: [1, 5, 20, 50, 100],
      ...plan.pages,
    });
    step('RSS');
    const rss = await rssAfterCalls({ upstream: upstream.url, ids, ...plan.rss });
    const rssGrowth = await rssOverCalls({ upstream: upstream.url, ids, ...plan.rssGrowth });
    step('--redis-url');
    const redis = await redisCost({ upstream: upstream.url, ids, iterations: plan.cache, warmup: plan.warm.warmup });
    results.push({
      seconds: Math.round((Date.now() - runStarted) / 1000),
      loadBefore,
      loadAfter: os.loadavg(),
      coldStart: cold,
      warm,
      cache,
      throughput: tput,
      http: httpMode,
      pages,
      rss,
      rssGrowth,
      redis,
    });
  }

  const all = {
    date: new Date().toISOString(),
    node: process.version,
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    quick,
    seconds: Math.round((Date.now() - started) / 1000),
    runs: results,
  };
  const markdown = renderMarkdown(all);
  if (!quick) {
    writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(all, null, 2)}\n`);
    writeFileSync(new URL('./RESULTS.md', import.meta.url), markdown);
    drawCharts(all, new URL('./', import.meta.url));
    updateBenchmarksDoc();
  }
  process.stdout.write(markdown);
  log('footprint (bench/footprint.mjs)');
  process.stdout.write(`\n## Footprint\n\n${await runFootprint()}`);
} finally {
  await Promise.all([upstream.close(), http.close(), floorHttp.close()]);
  await dispatcher.close();
}
