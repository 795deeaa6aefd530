/**
 * docs/dependencies.md gives each runtime dependency's range and why: it names every one, with the
 * range package.json holds, and no range spans more than one major.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  engines: { node: string };
};
const doc = readFileSync(new URL('../../docs/dependencies.md', import.meta.url), 'utf8');
const rows = new Map(
  [...doc.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| (.+) \|$/gm)].map((m) => [m[1]!, { range: m[2]!, why: m[3]! }]),
);

describe('docs/dependencies.md', () => {
  it('names every runtime dependency with the range package.json holds, and nothing else', () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(pkg.dependencies).sort());
    for (const [name, range] of Object.entries(pkg.dependencies)) {
      expect(rows.get(name)?.range, name).toBe(range);
      expect(rows.get(name)!.why.length, `${name}: say why`).toBeGreaterThan(40);
    }
  });

  it('keeps each range within one major (a caret range on a release; on 0.x, where a caret stays within the minor)', () => {
    // A caret range; a tilde only where a dependency's own peer range stops inside the major (docs say which).
    for (const [name, range] of Object.entries(pkg.dependencies))
      expect(range, name).toMatch(/^(?:\^(?:[1-9]\d*\.\d+|0\.[1-9]\d*)|~[1-9]\d*\.\d+)\.\d+$/);
  });

  it('says the Node that engines names, and why', () => {
    expect(doc).toContain(`\`engines\` says \`${pkg.engines.node}\``);
  });
});
