/**
 * Every client config in the README is one a user can copy: each block is parsed as its client
 * would (JSON, TOML, or the shell command), and what it starts must be what the CLI accepts: the
 * package (or mcp-remote) through npx (on Windows, npx through `cmd /c`), with no argument or
 * environment variable the CLI does not know, or the URL `serve --http` listens at by default.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { OPTION_TABLE } from '../../src/config/options.js';
import { DEFAULTS } from '../../src/config/defaults.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};
const section = readme.slice(
  readme.indexOf('<!-- client-configs:start'),
  readme.indexOf('<!-- client-configs:end -->'),
);
const SERVE_URL = `http://${DEFAULTS.host}:${DEFAULTS.httpPort}/mcp`;
const ENV_NAMES = OPTION_TABLE.map((option) => option.env);

interface Launch {
  client: string;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
}

/** Each fenced block with the bold client name above it. */
function blocks(): Array<{ client: string; lang: string; body: string }> {
  const found: Array<{ client: string; lang: string; body: string }> = [];
  let client = '';
  for (const match of section.matchAll(/\*\*([^*]+)\*\*|```(\w+)\n([\s\S]*?)```/g)) {
    if (match[1]) client = match[1];
    else found.push({ client, lang: match[2]!, body: match[3]! });
  }
  return found;
}

function launchOf({ client, lang, body }: { client: string; lang: string; body: string }): Launch {
  if (lang === 'sh') {
    const words = body.trim().split(/\s+/);
    expect(words.slice(0, 3), body).toEqual(['claude', 'mcp', 'add']);
    if (words.includes('--transport')) return { client, url: words.at(-1)! };
    const dashes = words.indexOf('--');
    return { client, command: words[dashes + 1]!, args: words.slice(dashes + 2) };
  }
  const config = (lang === 'toml' ? parseToml(body) : JSON.parse(body)) as Record<
    string,
    Record<string, Launch> | undefined
  >;
  const servers = config.mcpServers ?? config.servers ?? config.context_servers ?? config.mcp_servers;
  const entry = servers?.['service-mcp'];
  expect(entry, `${client}: no service-mcp entry`).toBeDefined();
  return { ...entry!, client };
}

describe('client configs in the README', () => {
  const launches = blocks().map(launchOf);

  it('cover every common client', () => {
    const clients = new Set(launches.map((launch) => launch.client.split(/[,:]/)[0]!.trim()));
    for (const name of [
      'Claude Desktop',
      'Claude Code',
      'VS Code',
      'Cursor',
      'Windsurf',
      'Zed',
      'Codex CLI',
      'Gemini CLI',
    ])
      expect(clients).toContain(name);
    expect(
      launches
        .filter((launch) => launch.client.startsWith('Claude Code'))
        .map((launch) => (launch.url ? 'http' : 'stdio')),
    ).toEqual(['stdio', 'http']);
    expect(
      launches.filter((launch) => launch.client.startsWith('VS Code')).map((launch) => (launch.url ? 'http' : 'stdio')),
    ).toEqual(['stdio', 'http']);
    expect(launches.some((launch) => launch.args?.includes('mcp-remote'))).toBe(true);
  });

  it('say how to start it on Windows, where npx is a .cmd script a client cannot spawn without a shell', () => {
    const windows = launches.filter((launch) => launch.client.startsWith('Windows'));
    expect(windows.map(({ command, args }) => [command, ...args!])).toEqual([
      ['cmd', '/c', 'npx', '-y', pkg.name],
      ['cmd', '/c', 'npx', '-y', pkg.name],
    ]);
    expect(section.replace(/\s+/g, ' ')).toContain(
      '`npx` is a `.cmd` script there, which a client that starts the server without a shell cannot run',
    );
  });

  it.each(blocks().map((block, i) => [`${block.client} #${i}`, launchOf(block)] as const))(
    '%s starts what the CLI accepts',
    (_name, launch) => {
      if (launch.url !== undefined) return void expect(launch.url).toBe(SERVE_URL);
      // On Windows the same npx command, through cmd /c.
      const [command, ...args] =
        launch.command === 'cmd'
          ? launch.args!.slice(launch.args![0] === '/c' ? 1 : 0)
          : [launch.command, ...launch.args!];
      expect(command).toBe('npx');
      const [yes, target, ...rest] = args;
      expect(yes).toBe('-y');
      if (target === 'mcp-remote') return void expect(rest).toEqual([SERVE_URL]);
      expect(target).toBe(pkg.name);
      // No arguments: stdio mode, what these clients speak.
      expect(rest).toEqual([]);
      for (const name of Object.keys(launch.env ?? {})) expect(ENV_NAMES).toContain(name);
    },
  );

  it('the quick start shows the Claude Desktop config as the list below gives it, on the first screen', () => {
    const first = /```json\n([\s\S]*?)```/.exec(readme)!;
    expect(readme.slice(0, first.index).split('\n').length, 'the config is within the first 40 lines').toBeLessThan(40);
    expect(blocks().find((block) => block.client.startsWith('Claude Desktop'))?.body).toBe(first[1]);
  });

  // test/installed/readme-rows.test.ts runs each of these rows through an MCP client (npm run test:installed).
  it('say how to start it from a clone or a tarball, by the names npm pack and the repo really use', () => {
    // A clone runs on the Node 22 that `npm ci` installed, whatever the machine's own Node is.
    expect(readme).toContain(
      '| a clone (after `npm ci && npm run build`) | `/path/to/service-mcp/node_modules/.bin/node` | `["/path/to/service-mcp/bin/service-mcp.js"]` |',
    );
    expect(existsSync(new URL('../../node_modules/.bin/node', import.meta.url))).toBe(true);
    // npx runs a bare tarball path as a program (exit 126); --package names what to install, then the bin.
    expect(readme).toContain(`["-y", "--package=/path/to/${pkg.name}-${pkg.version}.tgz", "${pkg.name}"]`);
    expect(readme).toContain(`npm install -g ./${pkg.name}-${pkg.version}.tgz`);
  });
});
