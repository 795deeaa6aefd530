/**
 * The hosted list kept between runs (src/hosted/kept-list.ts): one file per base URL in the user's
 * cache directory, which a bridge starts from, offering it at once with its read's age, and reads
 * again behind it only once it is due; and the build's list, never read again. Clocks are injected.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LIST_TTL_MS } from '../../../src/hosted/caps.js';
import { listFile, type Listing } from '../../../src/hosted/kept-list.js';
import { KEPT_FILES as KEPT_LISTS } from '../../../src/lib/kept-file.js';
import { userCacheDir } from '../../../src/lib/cache-dir.js';
import { silentLogger } from '../../../src/obs/log.js';
import { bridgeOver, READ_ONLY_TOOL, surface } from './surface.js';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'kept-list-'));
  dirs.push(dir);
  return join(dir, 'service-mcp');
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const NOON = Date.parse('2026-11-25T12:00:00Z');
const listing = (at: number): Listing => ({
  tools: [READ_ONLY_TOOL],
  at,
  endpoint: 'https://api.test/mcp',
  era: 'modern',
});

describe('the list file', () => {
  it('is written whole, read back, and named per base URL; a broken one is no list', () => {
    const dir = freshDir();
    const one = listFile(dir, 'https://one.test', silentLogger);
    expect(one.read()).toBeUndefined();
    one.write(listing(NOON));
    expect(one.read()).toEqual(listing(NOON));
    expect(listFile(dir, 'https://two.test', silentLogger).read()).toBeUndefined();
    const [name] = readdirSync(dir);
    expect(name).toMatch(/^hosted-list-[0-9a-f]{16}\.json$/);
    writeFileSync(join(dir, name!), '{"tools": "nope"');
    expect(one.read()).toBeUndefined();
  });

  it(`keeps at most ${KEPT_LISTS} lists, the least recently written going first; other files stay`, () => {
    const dir = freshDir();
    const urls = Array.from({ length: KEPT_LISTS + 3 }, (_, i) => `http://127.0.0.1:${40000 + i}`);
    const nameOf = (url: string) => `hosted-list-${createHash('sha256').update(url).digest('hex').slice(0, 16)}.json`;
    listFile(dir, urls[0]!, silentLogger).write(listing(NOON));
    writeFileSync(join(dir, 'other.json'), '{}');
    urls.forEach((url, i) => {
      listFile(dir, url, silentLogger).write(listing(NOON));
      // Written in order, a second apart, as the file system records it (the real clock is later still).
      utimesSync(join(dir, nameOf(url)), NOON / 1000 + i, NOON / 1000 + i);
    });
    expect(readdirSync(dir).sort()).toEqual([...urls.slice(3).map(nameOf), 'other.json'].sort());
  });

  it('is not kept where the cache directory cannot be made, and nothing throws', () => {
    const blocked = join(freshDir(), '..', 'a-file');
    writeFileSync(blocked, '');
    const file = listFile(join(blocked, 'service-mcp'), 'https://one.test', silentLogger);
    expect(() => file.write(listing(NOON))).not.toThrow();
    expect(file.read()).toBeUndefined();
  });

  it('lives in the user cache directory: $XDG_CACHE_HOME, else the platform’s', () => {
    const home = () => '/home/u';
    expect(userCacheDir('service-mcp', { XDG_CACHE_HOME: '/x' }, 'darwin', home)).toBe('/x/service-mcp');
    expect(userCacheDir('service-mcp', { XDG_CACHE_HOME: 'relative' }, 'linux', home)).toBe(
      '/home/u/.cache/service-mcp',
    );
    expect(userCacheDir('service-mcp', {}, 'darwin', home)).toBe('/home/u/Library/Caches/service-mcp');
    expect(userCacheDir('service-mcp', { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', home)).toMatch(
      /service-mcp[\\/]Cache$/,
    );
    expect(userCacheDir('service-mcp', {}, 'linux', () => '')).toBeUndefined();
  });
});

describe('a bridge that starts from a kept list', () => {
  it('offers it at once with the age of its read, and does not read the surface while it is fresh', async () => {
    const now = NOON + LIST_TTL_MS - 1;
    const file = listFile(freshDir(), 'https://api.test', silentLogger);
    file.write(listing(NOON));
    const target = surface({ tools: [] });
    const bridge = bridgeOver(target, { file, now: () => now });
    bridge.start();
    await bridge.settled(0);
    expect(bridge.tools().map((tool) => tool.name)).toEqual(['get_company_funding']);
    expect(bridge.status()).toMatchObject({
      state: 'ready',
      list_from: 'earlier_run',
      read_at: new Date(NOON).toISOString(),
      endpoint: 'https://api.test/mcp',
      era: 'modern',
    });
    expect(bridge.holdsForMs()).toBe(1);
    expect(target.seen).toEqual([]);
  });

  it('reads the surface behind it once due, offering the kept list meanwhile, and keeps the new read', async () => {
    const now = NOON + LIST_TTL_MS;
    const file = listFile(freshDir(), 'https://api.test', silentLogger);
    file.write(listing(NOON));
    const target = surface({ tools: [READ_ONLY_TOOL, { ...READ_ONLY_TOOL, name: 'get_company_headcount' }] });
    const bridge = bridgeOver(target, { file, now: () => now });
    bridge.start();
    expect(bridge.tools().map((tool) => tool.name)).toEqual(['get_company_funding']);
    expect(bridge.holdsForMs()).toBe(0);
    await new Promise<void>((resolve) => bridge.onChange(resolve));
    expect(bridge.tools().map((tool) => tool.name)).toEqual(['get_company_funding', 'get_company_headcount']);
    expect(bridge.status()).toMatchObject({ list_from: 'surface', read_at: new Date(now).toISOString() });
    expect(file.read()).toMatchObject({
      at: now,
      tools: [{ name: 'get_company_funding' }, { name: 'get_company_headcount' }],
    });
  });
});

describe('a bridge that starts from the build’s list', () => {
  it('offers it, skips ours by name, and never reads the surface for it', async () => {
    const target = surface({ tools: [] });
    const bridge = bridgeOver(target, { built: [{ name: 'search_jobs' }, READ_ONLY_TOOL] });
    bridge.start();
    await bridge.settled(0);
    expect(bridge.tools().map((tool) => tool.name)).toEqual(['get_company_funding']);
    expect(bridge.status()).toMatchObject({
      state: 'ready',
      list_from: 'build',
      skipped: [{ name: 'search_jobs', reason: 'our own tool of that name wins' }],
    });
    expect(bridge.status().read_at).toBeUndefined();
    expect(target.seen).toEqual([]);
  });
});
