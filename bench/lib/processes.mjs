/**
 * The processes a run needs, all spawned from the built binary under this Node: the embedded
 * offline API over loopback (`mock-api`), service-mcp over stdio, the floor, and HTTP mode.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnStdio } from './rpc.mjs';

const BIN = fileURLToPath(new URL('../../bin/service-mcp.js', import.meta.url));
const FLOOR = fileURLToPath(new URL('../floor-server.mjs', import.meta.url));
const SDK_ONLY = fileURLToPath(new URL('../sdk-only.mjs', import.meta.url));
const FLOOR_HTTP = fileURLToPath(new URL('../floor-http.mjs', import.meta.url));
const WIRE = fileURLToPath(new URL('../wire-limit.mjs', import.meta.url));

/**
 * The cache directory every process of a run shares, as a user's starts share theirs (the hosted
 * list and the deployed catalog kept between runs): the run's own, so it neither reads what the
 * developer's runs kept nor leaves anything in their cache.
 */
const RUN_CACHE = mkdtempSync(join(tmpdir(), 'service-mcp-bench-'));
process.once('exit', () => rmSync(RUN_CACHE, { recursive: true, force: true }));

/** A cache directory no run has used: a user's first start. */
export const emptyCacheDir = () => mkdtempSync(join(RUN_CACHE, 'first-'));

/** An environment without the developer's SERVICE_MCP_*, proxy or NODE_OPTIONS settings. */
function cleanEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      key.startsWith('SERVICE_MCP_') ||
      /^(https?|no|all)_proxy$/i.test(key) ||
      key === 'NODE_OPTIONS' ||
      key.startsWith('npm_')
    )
      continue;
    env[key] = value;
  }
  return { ...env, XDG_CACHE_HOME: RUN_CACHE, ...extra };
}

/** Spawns a long-running command and resolves with the first match of `pattern` on its stdout. */
function spawnListening(args, pattern, what, env = cleanEnv()) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start: ${out} ${err}`)), 15_000);
    child.stderr.on('data', (chunk) => (err += chunk));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = pattern.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        pid: child.pid,
        close: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}: ${err}`)));
  });
}

export const startUpstream = () =>
  spawnListening([BIN, 'mock-api', '--port', '0'], /listening on (http:\/\/127\.0\.0\.1:\d+)/, 'mock-api');

/** `serve --http` against `upstream`; `extra` are its flags (the bridge is on unless they say --no-bridge). */
export const startHttpMode = (upstream, extra = []) =>
  spawnListening(
    [BIN, 'serve', '--http', '--port', '0', '--base-url', upstream, ...extra],
    /HTTP listening on (http:\/\/\S+\/mcp)/,
    'serve --http',
  );

/**
 * service-mcp over stdio against `upstream` (live mode through undici, as a user runs it), or with
 * no `upstream` as `npx -y service-mcp` starts it: the embedded offline API. `extra` are its flags,
 * all of them (the bridge is on unless they say --no-bridge); `nodeArgs` go to node; `env` adds to
 * its environment.
 */
export const spawnServiceMcp = (upstream, extra = [], nodeArgs = [], env = {}) =>
  spawnStdio([...nodeArgs, BIN, ...(upstream ? ['--base-url', upstream] : []), ...extra], cleanEnv(env));

/**
 * The two ways every service-mcp row is measured: as users run it (the bridge on: its first
 * tools/list waits for the hosted list, at most 1.5 s) and with --no-bridge, like for like with the
 * floor, which has no hosted surface to read. A subject's name ends in the suffix.
 */
export const VARIANTS = {
  defaults: { suffix: '', flags: [], label: 'the defaults (the bridge on)' },
  noBridge: { suffix: 'NoBridge', flags: ['--no-bridge'], label: '--no-bridge' },
};

/**
 * Spawners of service-mcp in each variant: `service…` against `upstream` and, with `offline`,
 * `offline…` on the embedded API; `extra` flags and `nodeArgs` for every one of them.
 */
export function serviceSpawners({ upstream, offline = false, extra = [], nodeArgs = [], tag = '' }) {
  const out = {};
  for (const { suffix, flags } of Object.values(VARIANTS)) {
    out[`service${tag}${suffix}`] = () => spawnServiceMcp(upstream, [...flags, ...extra], nodeArgs);
    if (offline) out[`offline${tag}${suffix}`] = () => spawnServiceMcp(undefined, [...flags, ...extra], nodeArgs);
  }
  return out;
}

/** The floor over stdio; `clientAtStart` has it load undici before it serves (floor-server.mjs). */
export const spawnFloor = (upstream, nodeArgs = [], { clientAtStart = false } = {}) =>
  spawnStdio(
    [...nodeArgs, FLOOR],
    cleanEnv({ FLOOR_UPSTREAM: upstream, ...(clientAtStart ? { FLOOR_CLIENT_AT_START: '1' } : {}) }),
  );

/** A process that loads the SDK as the floor does and answers one line, building no server (bench/sdk-only.mjs). */
export const spawnSdkOnly = () => spawnStdio([SDK_ONLY], cleanEnv());

/** The SDK v2 floor over HTTP (bench/floor-http.mjs). */
export const startFloorHttp = (upstream) =>
  spawnListening(
    [FLOOR_HTTP],
    /listening on (http:\/\/\S+\/mcp)/,
    'floor-http',
    cleanEnv({ FLOOR_UPSTREAM: upstream }),
  );

/** The wire limit (bench/wire-limit.mjs): a stdio JSON-RPC proxy with no SDK. */
export const spawnWire = (upstream) => spawnStdio([WIRE], cleanEnv({ FLOOR_UPSTREAM: upstream }));
