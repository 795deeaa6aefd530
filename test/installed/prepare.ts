/**
 * What the installed-package smoke runs on: the package as users get it (the packed tarball
 * installed into an empty folder with no lockfile, and the unpacked `.mcpb` bundle, both with every
 * dependency bundled, so nothing is resolved at install), and the Nodes `engines` admits (the lowest,
 * the newest 22, 24 and 26), each from the npm registry's `node` package, kept in a cache folder
 * that outlives the run.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  engines: { node: string };
};

/** npm runs under the Node that runs the tests (the project's own), not the machine's older one. */
export const npmEnv: NodeJS.ProcessEnv = {
  ...process.env,
  PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'error',
};
/** npm on `node` (the test's own by default): npm's engine checks read the Node it runs on. */
const npm = (args: string[], cwd: string, node = process.execPath) =>
  execFileSync('npm', args, {
    cwd,
    env: { ...npmEnv, PATH: `${dirname(node)}${delimiter}${npmEnv.PATH}` },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** The lowest Node `engines` admits: it must read `>=x.y.z`, so that the gate and this agree. */
export function lowestNode(): string {
  const match = /^>=(\d+\.\d+\.\d+)$/.exec(pkg.engines.node);
  if (!match) throw new Error(`package.json engines.node is ${pkg.engines.node}; the smoke reads a plain >=x.y.z`);
  return match[1]!;
}

const compare = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return x![i]! - y![i]!;
  return 0;
};

/**
 * The Nodes to run on: SMOKE_NODES (comma-separated versions) when set, else the lowest that
 * `engines` admits and the newest release of 22, 24 and 26 that the registry has today.
 */
export function nodesToTest(): string[] {
  if (process.env.SMOKE_NODES)
    return process.env.SMOKE_NODES.split(',')
      .map((v) => v.trim().replace(/^v/, ''))
      .filter(Boolean);
  const published = JSON.parse(npm(['view', 'node', 'versions', '--json'], ROOT)) as string[];
  const newest = (major: number) =>
    published
      .filter((v) => /^\d+\.\d+\.\d+$/.test(v) && Number(v.split('.')[0]) === major)
      .sort(compare)
      .at(-1);
  const lowest = lowestNode();
  const lines = [22, 24, 26].map((major) => {
    const version = newest(major);
    if (!version) throw new Error(`the registry's node package has no ${major}.x release`);
    return version;
  });
  return [...new Set([lowest, ...lines])];
}

/** Where Node binaries are kept between runs: SERVICE_MCP_NODE_CACHE, else ~/.cache/service-mcp/nodes. */
const NODE_CACHE =
  process.env.SERVICE_MCP_NODE_CACHE ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'service-mcp', 'nodes');

/** The path of Node `version`'s binary, installed from the registry's `node` package on first use. */
export function nodeBinary(version: string): string {
  const prefix = join(NODE_CACHE, version);
  const binary = join(prefix, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(binary) || execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim() !== `v${version}`) {
    mkdirSync(prefix, { recursive: true });
    // The `node` package's install script brings the binary from `node-<os>-<arch>`, another registry package.
    npm(['install', '--prefix', prefix, '--no-save', '--no-package-lock', `node@${version}`], prefix);
  }
  const found = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  if (found !== `v${version}`) throw new Error(`${binary} is ${found}, not v${version}`);
  return binary;
}

export interface Installs {
  work: string;
  /** The bin of the tarball installed into an empty folder with no lockfile. */
  npmBin: string;
  /** The bin of the unpacked `.mcpb` bundle. */
  bundleBin: string;
  /** What the fresh install resolved besides the package (nothing, as all is bundled): name -> version. */
  resolved: Record<string, string>;
  /** What the package bundles, from its SBOM, for the report: name@version. */
  bundled: string[];
}

/** What `npm pack --json` tells of the tarball, and whether the copy it was packed from had a dist/. */
export interface Packed {
  tarball: string;
  size: number;
  unpackedSize: number;
  files: string[];
  distBeforePack: boolean;
}

/**
 * `npm pack` of a copy of the tree as a fresh clone has it: the tracked files and the untracked ones
 * git does not ignore, no dist/ (so prepack must build it), the dependencies linked. The one pack of
 * a run of the installed project (pack.ts), whose tarball every file reads; the tree's own dist/,
 * which a file may be running, is never rebuilt.
 */
export function packFreshCopy(): { work: string; packed: Packed } {
  const work = mkdtempSync(join(tmpdir(), 'service-mcp-packed-'));
  const clone = join(work, 'clone');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    // A worktree's node_modules may be a symlink, which git lists as untracked: the copy links its own.
    .filter((path) => path !== '' && path !== 'node_modules');
  for (const path of files) if (existsSync(join(ROOT, path))) cpSync(join(ROOT, path), join(clone, path));
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  const distBeforePack = existsSync(join(clone, 'dist'));
  const out = npm(['pack', '--json', '--pack-destination', work], clone);
  // The prepack build may have written its own lines before the JSON.
  const [packed] = JSON.parse(out.slice(out.search(/^\[/m))) as Array<{
    filename: string;
    size: number;
    unpackedSize: number;
    files: Array<{ path: string }>;
  }>;
  return {
    work,
    packed: {
      tarball: join(work, packed!.filename),
      size: packed!.size,
      unpackedSize: packed!.unpackedSize,
      files: packed!.files.map((file) => file.path),
      distBeforePack,
    },
  };
}

/**
 * Installs the packed tarball into an empty folder with no lockfile, by npm on the lowest Node with
 * engine-strict (so a dependency whose `engines` wants a newer Node than ours says fails here,
 * naming it), and builds and unpacks the `.mcpb` bundle.
 */
export function prepareInstalls(lowestNodeBinary: string, tarball: string): Installs {
  const work = mkdtempSync(join(tmpdir(), 'service-mcp-installed-'));
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{"name":"fresh-install","version":"1.0.0","private":true}\n');
  npm(['install', '--no-package-lock', '--prefer-online', '--engine-strict', tarball], app, lowestNodeBinary);
  const tree = JSON.parse(npm(['ls', '--all', '--json', '--omit=dev'], app)) as {
    dependencies: Record<string, { dependencies?: Record<string, { version: string }> }>;
  };
  const resolved = Object.fromEntries(
    Object.entries(tree.dependencies[pkg.name]?.dependencies ?? {}).map(([name, info]) => [name, info.version]),
  );

  const bundled = execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs')], {
    cwd: ROOT,
    env: npmEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const bundle = bundled.trim().split('\n').pop()!;
  const unpacked = join(work, 'mcpb');
  execFileSync(join(ROOT, 'node_modules', '.bin', 'mcpb'), ['unpack', bundle, unpacked], {
    env: npmEnv,
    stdio: 'ignore',
  });

  return {
    work,
    npmBin: join(app, 'node_modules', pkg.name, 'bin', 'service-mcp.js'),
    bundleBin: join(unpacked, 'bin', 'service-mcp.js'),
    resolved,
    bundled: (
      JSON.parse(readFileSync(join(app, 'node_modules', pkg.name, 'dist', 'sbom.cdx.json'), 'utf8')) as {
        components: Array<{ name: string; version: string }>;
      }
    ).components.map((c) => `${c.name}@${c.version}`),
  };
}
