/**
 * What --redis-url costs a call: the same replica with and without a loopback redis-server,
 * warm get_job with the cache off (the shared cool-down's check before each request) and a
 * repeated get_job with the cache on (a hit read from Redis against one from memory).
 * Skipped, and said so, where no redis-server is installed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { spawnServiceMcp } from './processes.mjs';
import { summary } from './stats.mjs';

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function startRedis() {
  if (spawnSync('redis-server', ['--version']).status !== 0) return undefined;
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    url: `redis://127.0.0.1:${port}`,
    close: () => new Promise((done) => (child.once('exit', done), child.kill('SIGKILL'))),
  };
}

export async function redisCost({ upstream, ids, iterations, warmup }) {
  const redis = await startRedis();
  if (!redis) return undefined;
  const peers = {
    plain: spawnServiceMcp(upstream, ['--no-cache']),
    shared: spawnServiceMcp(upstream, ['--no-cache', '--redis-url', redis.url]),
    plainHit: spawnServiceMcp(upstream),
    sharedHit: spawnServiceMcp(upstream, ['--redis-url', redis.url]),
  };
  await Promise.all(Object.values(peers).map((p) => p.initialize()));
  const samples = Object.fromEntries(Object.keys(peers).map((name) => [name, []]));
  const names = Object.keys(peers);
  for (let i = 0; i < warmup + iterations; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      // The cache rows ask for one job again and again; the others go through the jobs in turn.
      const id = name.endsWith('Hit') ? ids[0] : ids[i % ids.length];
      const started = performance.now();
      await peers[name].call('get_job', { job_id: id });
      if (i >= warmup) samples[name].push(performance.now() - started);
    }
  }
  await Promise.all(Object.values(peers).map((p) => p.close()));
  await redis.close();
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summary(values)]));
}
