/**
 * The licences and components travel with the bundle: every package esbuild put into dist/ (the
 * CLI's chunks and the views, per build/metafile*.json) is named with its version and licence text
 * in dist/THIRD-PARTY-NOTICES.txt and as a component of dist/sbom.cdx.json, and nothing else is.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const inputs = ['build/metafile.json', 'build/metafile-views.json'].flatMap((path) =>
  Object.keys((JSON.parse(read(path)) as { inputs: Record<string, unknown> }).inputs),
);
/** name@version of each installed package folder the bundles took a file from. */
const bundled = new Map<string, string>();
for (const input of inputs) {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) continue;
  const dir = parts.slice(0, at + (parts[at + 1]!.startsWith('@') ? 3 : 2)).join('/');
  const pkg = JSON.parse(read(join(dir, 'package.json'))) as { name: string; version: string };
  bundled.set(`${pkg.name}@${pkg.version}`, dir);
}
const notices = read('dist/THIRD-PARTY-NOTICES.txt');
const sbom = JSON.parse(read('dist/sbom.cdx.json')) as {
  bomFormat: string;
  specVersion: string;
  metadata: { component: { name: string } };
  components: Array<{ name: string; version: string; purl: string; licenses: unknown[]; hashes?: unknown[] }>;
};

describe('third-party notices and SBOM', () => {
  it('the bundles hold the packages a scanner must see', () => {
    const names = [...bundled.keys()].map((id) => id.slice(0, id.lastIndexOf('@')));
    for (const name of [
      'undici',
      'zod',
      'commander',
      '@modelcontextprotocol/server',
      '@redis/client',
      '@opentelemetry/api',
    ])
      expect(names).toContain(name);
  });

  it('the notices name every bundled package with its version and carry its licence text', () => {
    for (const [id, dir] of bundled) {
      const [name, version] = [id.slice(0, id.lastIndexOf('@')), id.slice(id.lastIndexOf('@') + 1)];
      expect(notices, id).toMatch(
        new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} ${version.replace(/\./g, '\\.')} \\(`, 'm'),
      );
      const licence = readdirSync(join(ROOT, dir)).find((file) => /^licen[cs]e/i.test(file));
      if (licence) expect(notices, `${id}: licence text`).toContain(read(join(dir, licence)).trim());
      else expect(notices, `${id}: licence text (none published; the fallback)`).toMatch(/MIT License/);
    }
  });

  it('the SBOM is CycloneDX and lists exactly the bundled packages, each with its purl, licence and hash', () => {
    expect(sbom).toMatchObject({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      metadata: { component: { name: 'service-mcp' } },
    });
    expect(sbom.components.map((c) => `${c.name}@${c.version}`).sort()).toEqual([...bundled.keys()].sort());
    for (const component of sbom.components) {
      expect(component.purl).toBe(`pkg:npm/${component.name.replace('@', '%40')}@${component.version}`);
      expect(component.licenses.length, component.name).toBe(1);
      expect(component.hashes?.length, component.name).toBe(1);
    }
  });

  it('only what was bundled: a package the lockfile holds but the bundles do not is absent', () => {
    // vitest is locked (a devDependency) and never bundled.
    expect(existsSync(join(ROOT, 'node_modules', 'vitest'))).toBe(true);
    expect(notices).not.toMatch(/^vitest /m);
    expect(sbom.components.some((c) => c.name === 'vitest')).toBe(false);
  });
});
