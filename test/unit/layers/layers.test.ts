/**
 * The layering rules of .dependency-cruiser.cjs (run by `npm run check`) hold of src/, and they
 * would refuse the imports they are there to refuse: each case below is a tree of two or three
 * files written for it, and the rule it must break.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as IConfiguration;
const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The rule names broken by a tree of these files (paths under the tree, contents as written). */
async function broken(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  made.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const { tsConfig: _ignored, ...options } = config.options ?? {};
  const result = await cruise(['src'], {
    ...options,
    baseDir: dir,
    validate: true,
    ruleSet: { forbidden: config.forbidden ?? [] },
  });
  const output = result.output as ICruiseResult;
  return [...new Set(output.summary.violations.map((v) => v.rule.name))].sort();
}

describe('the layering check', () => {
  it('refuses an import from a higher layer, a type-only one too', async () => {
    expect(
      await broken({
        'src/api/client.ts': "import type { Tool } from '../tools/define.js';\nexport type T = Tool;\n",
        'src/tools/define.ts': 'export interface Tool { name: string }\n',
      }),
    ).toEqual(['api-imports-only-below']);
  });

  it('refuses a circle, even within one folder and through a dynamic import', async () => {
    expect(
      await broken({
        'src/tools/a.ts': "export const a = () => import('./b.js');\n",
        'src/tools/b.ts': "import { a } from './a.js';\nexport const b = a;\n",
      }),
    ).toEqual(['no-circular']);
  });

  it('keeps the offline API an API, telemetry on its hooks and the views on lib and contract', async () => {
    expect(
      await broken({
        'src/offline/engine.ts': "import '../api/client.js';\n",
        'src/telemetry/otel.ts': "import '../api/client.js';\n",
        'src/apps/job/main.ts': "import '../../render/jobs.js';\n",
        'src/render/jobs.ts': 'export {};\n',
        'src/api/client.ts': 'export {};\n',
        'src/loose.ts': "import './api/client.js';\n",
      }),
    ).toEqual(['apps-are-browser-views', 'no-loose-files', 'offline-is-an-api', 'telemetry-reads-hooks']);
  });

  it('passes a tree whose imports point down', async () => {
    expect(
      await broken({
        'src/app/cli.ts': "import '../transports/stdio.js';\nimport '../offline/engine.js';\n",
        'src/transports/stdio.ts': "import '../lib/slots.js';\n",
        'src/offline/engine.ts': "import '../contract/schemas.js';\n",
        'src/contract/schemas.ts': "import '../lib/slots.js';\n",
        'src/lib/slots.ts': 'export {};\n',
      }),
    ).toEqual([]);
  });
});
