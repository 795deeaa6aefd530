/**
 * `npm run demo` (scripts/demo.mjs) makes its headings bold only on a terminal that takes colour:
 * piped, or under NO_COLOR, it writes plain text, with no ANSI escape for a file or a pager to show
 * as `^[[1m`. The terminal here is a real pseudo-terminal, from util-linux's `script` (Debian's
 * bsdutils, an essential package), so the test also sees the colour it expects to be left out.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cleanEnv, ROOT } from './helpers.js';

const DEMO = 'scripts/demo.mjs';
const ESC = '\u001b';

/**
 * Only what the demo needs, so no colour setting of the machine's leaks in: Node's colour check also
 * reads CI (a CI run sets it, and then a terminal takes no colour), TMUX, COLORTERM and more.
 */
function env(extra: Record<string, string>): Record<string, string> {
  const { PATH = '', HOME = '', XDG_CACHE_HOME = '', SERVICE_MCP_NO_BRIDGE = '' } = cleanEnv();
  return { PATH, HOME, XDG_CACHE_HOME, SERVICE_MCP_NO_BRIDGE, TERM: 'xterm-256color', ...extra };
}

const piped = (extra: Record<string, string> = {}) =>
  execFileSync(process.execPath, [DEMO], { cwd: ROOT, env: env(extra), encoding: 'utf8', stdio: 'pipe' });

/** The demo with a pseudo-terminal as its stdout: `script -q` adds no banner, `-e` passes on its exit status. */
const onTerminal = (extra: Record<string, string> = {}) =>
  execFileSync('script', ['-qec', `'${process.execPath}' ${DEMO}`, '/dev/null'], {
    cwd: ROOT,
    env: env(extra),
    encoding: 'utf8',
    stdio: 'pipe',
  });

describe('npm run demo', () => {
  it('writes no ANSI escape into a pipe', () => {
    const out = piped();
    expect(out).toContain('\n== search_jobs: ');
    expect(out).not.toContain(ESC);
  });

  it('makes its headings bold on a terminal, and writes none under NO_COLOR', () => {
    expect(onTerminal()).toContain(`${ESC}[1m== search_jobs: `);
    const out = onTerminal({ NO_COLOR: '1' });
    expect(out).toContain('\n== search_jobs: ');
    expect(out).not.toContain(ESC);
  });
});
