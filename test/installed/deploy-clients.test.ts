/**
 * docs/deploy.md's client settings for a static token, each run by its client against the
 * installed package's `serve --http --auth-tokens-file`, with the right token and with a wrong one
 * (whose reason each must show): mcp-remote and the MCP Inspector's CLI, pinned and installed fresh
 * beside the package, started through npx as the snippets write them; the Python `mcp` client (a
 * Python that has it: MCP_PYTHON, else the venv .ci/run makes, else python3; skipped, saying so,
 * when none has); the SDK v2 client, the snippet run by Node. Claude Code and VS Code cannot run
 * here: their snippets are read as those clients document them (the shell passes the Claude Code
 * one's words to a stand-in `claude`), and the request they would send is sent.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { npmEnv } from './prepare.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The versions the trial ran; pinned so that a client's release is a change of this file. */
const MCP_REMOTE = 'mcp-remote@0.15.1';
const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const PLACEHOLDER_URL = 'https://mcp.example.com/mcp';
const TOKEN = `alice-${'0123456789abcdef'.repeat(2)}`;
const WRONG = `wrong-${'fedcba9876543210'.repeat(2)}`;

/** The blocks of the "Client settings for a token" section, by the bold client name above each. */
function snippets(): Map<string, { lang: string; body: string }> {
  const doc = readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8');
  const start = doc.indexOf('### Client settings for a token');
  const section = doc.slice(start, doc.indexOf('\n## ', start));
  const found = new Map<string, { lang: string; body: string }>();
  let client = '';
  for (const match of section.matchAll(/\*\*([^*]+)\*\*|```(\w+)\n([\s\S]*?)```/g)) {
    if (match[1]) client = match[1];
    else found.set(client, { lang: match[2]!, body: match[3]! });
  }
  return found;
}
const SNIPPETS = snippets();
const snippet = (client: string) => {
  const found = SNIPPETS.get(client);
  if (!found) throw new Error(`docs/deploy.md shows no ${client} block under "Client settings for a token"`);
  return found.body;
};

/** A Python that imports `mcp`, and its version; or why none was found. */
function pythonWithMcp(): { python: string; version: string } | { missing: string } {
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'service-mcp', 'python');
  const candidates = [process.env.MCP_PYTHON, join(cache, 'bin', 'python'), 'python3'].filter(
    (python): python is string => !!python && (!python.includes('/') || existsSync(python)),
  );
  for (const python of candidates) {
    const probe = spawnSync(python, ['-c', "import mcp, importlib.metadata as m; print(m.version('mcp'))"], {
      encoding: 'utf8',
    });
    if (probe.status === 0) return { python, version: probe.stdout.trim() };
  }
  return { missing: `none of ${candidates.join(', ')} imports mcp (.ci/run makes ${cache}; MCP_PYTHON names another)` };
}
const PYTHON = pythonWithMcp();
if ('missing' in PYTHON)
  process.stderr.write(`\n*** deploy-clients: the Python client's snippet is SKIPPED: ${PYTHON.missing} ***\n\n`);

let work: string;
let server: { url: string; origin: string; stop(): void };
/** The clients' environment: a home of their own (mcp-remote and the Inspector keep OAuth state there). */
let clientEnv: Record<string, string>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'service-mcp-deploy-clients-'));
  writeFileSync(join(work, 'package.json'), '{"name":"deploy-clients","version":"1.0.0","private":true}\n');
  const sdk = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies[
    '@modelcontextprotocol/client'
  ] as string;
  execFileSync(
    'npm',
    [
      'install',
      '--no-package-lock',
      inject('packed').tarball,
      MCP_REMOTE,
      INSPECTOR,
      `@modelcontextprotocol/client@${sdk}`,
    ],
    { cwd: work, env: { ...npmEnv, npm_config_prefer_offline: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const home = join(work, 'home');
  mkdirSync(home);
  clientEnv = {
    ...(npmEnv as Record<string, string>),
    HOME: home,
    USERPROFILE: home,
    // The Inspector would reach for the desktop keyring; memory is enough for one run.
    MCP_INSPECTOR_SECRET_STORE: 'memory',
  };
  writeFileSync(join(work, 'tokens'), `alice:${TOKEN}\n`);
  server = await startServer(join(work, 'node_modules', 'service-mcp', 'bin', 'service-mcp.js'));
}, 600_000);

afterAll(() => {
  server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

function startServer(bin: string): Promise<typeof server> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [bin, 'serve', '--http', '--port', '0', '--offline', '--auth-tokens-file', join(work, 'tokens')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+\/mcp)/.exec(out)?.[1];
      if (url) resolve({ url, origin: new URL(url).origin, stop: () => child.kill() });
    });
    child.once('exit', (code) => reject(new Error(`serve --http exited with ${code}`)));
  });
}

/** Runs `command` to its end, with the snippet's URL pointed at the server. */
function run(command: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(command, args, {
    cwd: work,
    env: { ...clientEnv, ...env },
    encoding: 'utf8',
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
const live = (text: string) => text.replaceAll(PLACEHOLDER_URL, server.url);

/** What a client that sends `headers` to `url` gets for an initialize. */
async function initialize(url: string, headers: Record<string, string>) {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'deploy-docs', version: '0' } },
    }),
  });
  await answer.arrayBuffer();
  return answer.status;
}

describe("docs/deploy.md's client settings for a token, each by its client", () => {
  it('Claude Code: the words the shell passes are `claude mcp add --transport http <name> <url> --header`, and that is served', async () => {
    // The shell runs the snippet as written, with a stand-in `claude` that prints what it was given.
    const shell = run('sh', ['-c', `claude() { printf '%s\\0' "$@"; }\n${snippet('Claude Code')}`], {
      MCP_TOKEN: TOKEN,
    });
    const words = shell.stdout.split('\0').slice(0, -1);
    // Claude Code's documented form: `claude mcp add [--transport http] <name> <url> [--header "Name: value"]`.
    expect(words).toEqual([
      'mcp',
      'add',
      '--transport',
      'http',
      'service-mcp',
      PLACEHOLDER_URL,
      '--header',
      `Authorization: Bearer ${TOKEN}`,
    ]);
    const [name, value] = words[7]!.split(/:\s*/, 2) as [string, string];
    const url = words[5]!.replace(PLACEHOLDER_URL, server.url);
    expect(await initialize(url, { [name]: value })).toBe(200);
    expect(await initialize(url, { [name]: value.replace(TOKEN, WRONG) })).toBe(401);
  });

  it('VS Code: an http server with the header, the token asked for once as a password, and that is served', async () => {
    const config = JSON.parse(snippet('VS Code')) as {
      inputs: Array<{ type: string; id: string; password?: boolean }>;
      servers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    const entry = config.servers['service-mcp']!;
    expect(entry.type).toBe('http');
    expect(entry.url).toBe(PLACEHOLDER_URL);
    // VS Code replaces ${input:id} with the answer to the input of that id.
    const [, id] = /^Bearer \$\{input:([\w-]+)\}$/.exec(entry.headers.Authorization!)!;
    expect(config.inputs).toContainEqual({ type: 'promptString', id, description: expect.any(String), password: true });
    const sent = (token: string) => ({ Authorization: entry.headers.Authorization!.replace(`\${input:${id}}`, token) });
    expect(await initialize(live(entry.url), sent(TOKEN))).toBe(200);
    expect(await initialize(live(entry.url), sent(WRONG))).toBe(401);
  });

  it(`mcp-remote (${MCP_REMOTE}): a stdio client calls a tool through it; a wrong token ends it, printing the reason`, async () => {
    const { command, args, env } = (
      JSON.parse(live(snippet('mcp-remote'))) as {
        mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
      }
    ).mcpServers['service-mcp']!;
    const withToken = (token: string) =>
      Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value.replace('<token>', token)]));
    const client = new Client({ name: 'deploy-docs', version: '0.0.0' });
    await client.connect(
      new StdioClientTransport({
        command,
        args,
        env: { ...clientEnv, ...withToken(TOKEN) },
        cwd: work,
        stderr: 'ignore',
      }),
    );
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('search_jobs');
      const result = await client.callTool({ name: 'get_job', arguments: { job_id: 'job_ai_0001' } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const refused = run(command, args, withToken(WRONG));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('This server takes static bearer tokens, not OAuth');
    expect(refused.stderr).toContain('The token sent was refused: Unknown token.');
    expect(refused.stderr).not.toContain(WRONG);
  });

  it(`the Inspector's CLI (${INSPECTOR}): lists the tools; a wrong token, with --stored-auth-only, shows the reason`, () => {
    const command = live(snippet('MCP Inspector'));
    const listed = run('sh', ['-c', command], { MCP_TOKEN: TOKEN });
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain(
      'search_jobs',
    );
    // Without a terminal it stops before asking the server anything, as deploy.md says.
    const refused = run('sh', ['-c', command], { MCP_TOKEN: WRONG });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Interactive OAuth requires a TTY');
    const told = run('sh', ['-c', `${command.trim()} --stored-auth-only`], { MCP_TOKEN: WRONG });
    expect(told.code).not.toBe(0);
    expect(told.stderr).toContain(
      'Unknown token; send Authorization: Bearer <token> with a token from the server operator',
    );
  });

  it.skipIf('missing' in PYTHON)(
    `Python (mcp ${'version' in PYTHON ? PYTHON.version : 'missing'}): the snippet lists the tools; a wrong token raises the reason`,
    () => {
      const python = (PYTHON as { python: string }).python;
      const file = join(work, 'client.py');
      writeFileSync(file, live(snippet('Python')));
      const listed = run(python, [file], { MCP_TOKEN: TOKEN });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain("'search_jobs'");
      const refused = run(python, [file], { MCP_TOKEN: WRONG });
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('Unauthorized: Unknown token; send Authorization: Bearer <token>');
    },
  );

  it('TypeScript (the SDK v2 client, installed fresh): the snippet lists the tools; a wrong token throws the reason', () => {
    const file = join(work, 'client.mjs');
    writeFileSync(file, live(snippet('TypeScript')));
    const listed = run(process.execPath, [file], { MCP_TOKEN: TOKEN });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("'search_jobs'");
    const refused = run(process.execPath, [file], { MCP_TOKEN: WRONG });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Unknown token; send Authorization: Bearer <token>');
  });
});
