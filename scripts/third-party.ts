/**
 * What the CLI bundle and the views hold of other people's code, from esbuild's metafiles (the
 * files it put in them, not the lockfile): dist/THIRD-PARTY-NOTICES.txt (each package's name, version and
 * licence text) and dist/sbom.cdx.json (a CycloneDX SBOM, with the lockfile's hash of each
 * tarball). Run by tsup after the bundle is written (tsup.config.ts).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BundledPackage {
  name: string;
  version: string;
  license: string;
  /** The folder it was read from, relative to the root (`node_modules/a/node_modules/b` for a nested copy). */
  dir: string;
}

interface Metafile {
  inputs: Record<string, unknown>;
}

/** The installed folder of the package a bundled input comes from (the innermost node_modules wins). */
function packageDirOf(input: string): string | undefined {
  return /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];
}

/**
 * Packages that publish no licence file. Their licence still asks for its text to travel with
 * the code, so it is given here, as their repository states it.
 */
const LICENCE_TEXT_FALLBACK: Record<string, string> = {
  // redis/node-redis, LICENSE at the repository's root (the npm package leaves it out).
  '@redis/client': `MIT License

Copyright (c) 2022-2025, Redis, inc.

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
`,
};

function bundledPackages(metafiles: readonly Metafile[], root: string): BundledPackage[] {
  const dirs = new Set(
    metafiles.flatMap((metafile) => Object.keys(metafile.inputs).flatMap((input) => packageDirOf(input) ?? [])),
  );
  return [...dirs]
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
        license?: string;
      };
      if (!pkg.license) throw new Error(`${dir}: package.json names no licence`);
      return { name: pkg.name, version: pkg.version, license: pkg.license, dir };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, 'en', { numeric: true }));
}

function licenceText(root: string, pkg: BundledPackage): string {
  const files = readdirSync(join(root, pkg.dir))
    .filter((file) => /^(?:licen[cs]e|copying|notice)(?:[.-].*)?$/i.test(file))
    .sort();
  const text = files.map((file) => readFileSync(join(root, pkg.dir, file), 'utf8').trim()).join('\n\n');
  const fallback = LICENCE_TEXT_FALLBACK[pkg.name];
  if (text) return text;
  if (fallback) return fallback.trim();
  throw new Error(`${pkg.name}@${pkg.version}: no licence file; add its text to LICENCE_TEXT_FALLBACK`);
}

/** Identical texts (the Apache-2.0 of every OpenTelemetry package) are given once, after all the packages they cover. */
function notices(root: string, packages: readonly BundledPackage[]): string {
  const groups = new Map<string, BundledPackage[]>();
  for (const pkg of packages) {
    const text = licenceText(root, pkg);
    groups.set(text, [...(groups.get(text) ?? []), pkg]);
  }
  const sections = [...groups].map(([text, covered]) =>
    ['-'.repeat(78), ...covered.map((pkg) => `${pkg.name} ${pkg.version} (${pkg.license})`), '', text, ''].join('\n'),
  );
  return `Third-party software bundled in dist/ of this package

dist/ (the CLI and the views in dist/apps) is built with esbuild from the packages below, at the versions listed; each is used under
its licence, whose text follows the packages it covers. The same components, with their hashes,
are in dist/sbom.cdx.json (CycloneDX).

${sections.join('\n')}`;
}

const purl = (pkg: BundledPackage) => `pkg:npm/${pkg.name.replace('@', '%40')}@${pkg.version}`;

function sbom(root: string, packages: readonly BundledPackage[]): object {
  const self = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    license: string;
    description: string;
  };
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { integrity?: string }>;
  };
  const components = packages.map((pkg) => {
    const integrity = lock.packages[pkg.dir]?.integrity;
    return {
      type: 'library',
      'bom-ref': purl(pkg),
      name: pkg.name,
      version: pkg.version,
      purl: purl(pkg),
      licenses: [{ expression: pkg.license }],
      ...(integrity?.startsWith('sha512-')
        ? { hashes: [{ alg: 'SHA-512', content: Buffer.from(integrity.slice(7), 'base64').toString('hex') }] }
        : {}),
    };
  });
  const body = {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    version: 1,
    metadata: {
      component: {
        type: 'application',
        'bom-ref': purl({ name: self.name, version: self.version, license: self.license, dir: '' }),
        name: self.name,
        version: self.version,
        description: self.description,
        licenses: [{ expression: self.license }],
        purl: purl({ name: self.name, version: self.version, license: self.license, dir: '' }),
      },
    },
    components,
  };
  // The same build gives the same serial number: derived from the content, not drawn at random.
  const hash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  const uuid = `${hash.slice(0, 8)}-${hash.slice(8, 12)}-5${hash.slice(13, 16)}-8${hash.slice(17, 20)}-${hash.slice(20, 32)}`;
  const { bomFormat, specVersion, ...rest } = body;
  return { bomFormat, specVersion, serialNumber: `urn:uuid:${uuid}`, ...rest };
}

export function writeThirdParty({
  metafiles,
  root,
  outDir,
}: {
  metafiles: readonly Metafile[];
  root: string;
  outDir: string;
}): void {
  const packages = bundledPackages(metafiles, root);
  writeFileSync(join(outDir, 'THIRD-PARTY-NOTICES.txt'), notices(root, packages));
  writeFileSync(join(outDir, 'sbom.cdx.json'), `${JSON.stringify(sbom(root, packages), null, 2)}\n`);
}
