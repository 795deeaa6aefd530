#!/usr/bin/env node
/**
 * `npm run bench`: service-mcp against the floor server and direct GETs, interleaved in one run,
 * upstream being the embedded offline API over loopback. Writes bench/results.json and
 * bench/RESULTS.md and prints the table. BENCH_QUICK=1 runs few rounds (a smoke test, not figures).
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { Agent, fetch } from 'undici';
import { startHttpMode, startUpstream } from './lib/processes.mjs';
import { updateReadme } from './readme.mjs';
import { renderMarkdown } from './lib/report.mjs';
import { cacheHits, coldStart, rssAfterCalls, throughput, warmLatency } from './lib/scenarios.mjs';

const quick = process.env.BENCH_QUICK === '1';
const plan = quick
  ? { cold: { rounds: 3, warmup: 1 }, warm: { iterations: 30, warmup: 10 }, cache: 30, tput: { total: 200, rounds: 1 }, rss: { calls: 1000, rounds: 1 } }
  : { cold: { rounds: 30, warmup: 3 }, warm: { iterations: 500, warmup: 50 }, cache: 500, tput: { total: 2000, rounds: 7 }, rss: { calls: 1000, rounds: 3 } };

const upstream = await startUpstream();
const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
/** The direct baseline: an undici fetch on a keep-alive dispatcher, body read in full. */
const direct = async (path) => {
  const response = await fetch(upstream.url + path, { dispatcher, headers: { accept: 'application/json' } });
  const text = await response.text();
  if (!response.ok) throw new Error(`direct GET ${path}: HTTP ${response.status}`);
  return text;
};

let http;
try {
  http = await startHttpMode(upstream.url, ['--no-cache']);
} catch (error) {
  process.stderr.write(`HTTP mode unavailable, its throughput is left out: ${error.message.split('\n')[0]}\n`);
}

const log = (what) => process.stderr.write(`bench: ${what}\n`);
const started = Date.now();
const loadBefore = os.loadavg();
try {
  const ids = JSON.parse(await direct('/api/public/v1/jobs?per_page=100')).data.jobs.map((j) => j.job_id);
  // Every active job, for calls that must each ask for a job not asked for before.
  const allIds = [];
  for (let page = 1; ; page++) {
    const { jobs, pagination } = JSON.parse(await direct(`/api/public/v1/jobs?per_page=100&page=${page}`)).data;
    allIds.push(...jobs.map((j) => j.job_id));
    if (!pagination.has_next) break;
  }
  log('cold start');
  const cold = await coldStart({ upstream: upstream.url, ...plan.cold });
  log('warm latency');
  const warm = await warmLatency({ upstream: upstream.url, direct, ids, allIds, ...plan.warm });
  log('cache hits');
  const cache = await cacheHits({ upstream: upstream.url, direct, ids, iterations: plan.cache, warmup: plan.warm.warmup });
  log('throughput');
  const tput = await throughput({ upstream: upstream.url, direct, ids, httpUrl: http?.url, dispatcher, fetch, levels: [8, 32], ...plan.tput });
  log('RSS after calls');
  const rss = await rssAfterCalls({ upstream: upstream.url, ids, ...plan.rss });

  const results = {
    date: new Date().toISOString(),
    node: process.version,
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    quick,
    seconds: Math.round((Date.now() - started) / 1000),
    loadBefore,
    loadAfter: os.loadavg(),
    coldStart: cold,
    warm,
    cache,
    throughput: tput,
    rss,
  };
  const markdown = renderMarkdown(results);
  if (!quick) {
    writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(new URL('./RESULTS.md', import.meta.url), markdown);
    updateReadme();
  }
  process.stdout.write(markdown);
} finally {
  await Promise.all([upstream.close(), http?.close()]);
  await dispatcher.close();
}
