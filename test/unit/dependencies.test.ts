/**
 * The package has no runtime dependencies: what src/ imports is bundled into dist/ from
 * devDependencies. docs/dependencies.md gives each bundled package's range and why: it names every
 * package src/ imports, with the range package.json holds, and no range spans more than one major.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
  engines: { node: string };
};
const doc = readFileSync(new URL('../../docs/dependencies.md', import.meta.url), 'utf8');
const rows = new Map(
  [...doc.matchAll(/^\| `([^`]+)` \| `([^`]+)` \| (.+) \|$/gm)].map((m) => [m[1]!, { range: m[2]!, why: m[3]! }]),
);

/** The packages src/ imports for their code (statically or dynamically; not `import type`), by package name. */
function importedBySrc(): string[] {
  const src = fileURLToPath(new URL('../../src', import.meta.url));
  const names = new Set<string>();
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(join(src, file), 'utf8');
    const specifiers = [
      ...text.matchAll(/^(?:import|export)(?!\s+type\b)\b[^;]*?\bfrom\s+'([^']+)'/gm),
      ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
    ].map((match) => match[1]!);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
      names.add(
        specifier!
          .split('/')
          .slice(0, specifier!.startsWith('@') ? 2 : 1)
          .join('/'),
      );
    }
  }
  return [...names].sort();
}
const bundled = importedBySrc();

describe('docs/dependencies.md', () => {
  it('the package declares no runtime dependency: everything src/ imports is a devDependency, bundled', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    for (const name of bundled) expect(pkg.devDependencies[name], name).toBeDefined();
  });

  it('names every package src/ imports with the range package.json holds, and nothing else', () => {
    expect([...rows.keys()].sort()).toEqual(bundled);
    for (const name of bundled) {
      expect(rows.get(name)?.range, name).toBe(pkg.devDependencies[name]);
      expect(rows.get(name)!.why.length, `${name}: say why`).toBeGreaterThan(40);
    }
  });

  it('keeps each range within one major (a caret range on a release; on 0.x, where a caret stays within the minor)', () => {
    // A caret range; a tilde only where a dependency's own peer range stops inside the major (docs say which).
    for (const name of bundled)
      expect(pkg.devDependencies[name], name).toMatch(/^(?:\^(?:[1-9]\d*\.\d+|0\.[1-9]\d*)|~[1-9]\d*\.\d+)\.\d+$/);
  });

  it('says the Node that engines names, and why', () => {
    expect(doc).toContain(`\`engines\` says \`${pkg.engines.node}\``);
  });
});
