/**
 * The tools/list entries are converted from the zod schemas at build time (scripts/tool-catalog.ts)
 * and injected into the bundle: what the built binary lists must equal what the zod schemas give
 * when converted now, in this process (unbuilt, src/tools/tools-list.ts converts them itself). So is
 * the offline deployment's hosted list (scripts/offline-list.ts), which unbuilt the bridge reads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolCatalog } from '../../src/tools/tools-list.js';
import { TOOLS } from '../../src/tools/index.js';
import { createBackend } from '../../src/app/backend.js';
import { createOfflineDeployment } from '../../src/app/offline-deployment.js';
import { resolveConfig } from '../../src/config/config.js';
import { silentLogger } from '../../src/obs/log.js';
import { exposedTools } from '../../src/tools/backend.js';
import { cleanEnv, connectStdio, ROOT, runCli } from './helpers.js';

describe('the precomputed tool catalog', () => {
  it('is in the bundle as data: a chunk holds every converted schema as a literal', () => {
    const chunks = readdirSync(join(ROOT, 'dist'))
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(join(ROOT, 'dist', file), 'utf8'));
    // esbuild names the injected value `<define:__SERVICE_MCP_TOOL_CATALOG__>`; no bare reference is left.
    for (const code of chunks) expect(code).not.toMatch(/(?<!<define:)__SERVICE_MCP_TOOL_CATALOG__/);
    const literal = chunks.find((code) => /_TOOL_CATALOG_default = \[\{ name: "/.test(code));
    expect(literal, 'the injected catalog').toBeDefined();
    for (const tool of TOOLS) expect(literal).toContain(`name: ${JSON.stringify(tool.name)}`);
    expect(literal).toMatch(/inputSchema: \{/);
  });

  it('`tools --json` from the build equals the zod schemas converted at run time', async () => {
    const run = await runCli(['tools', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(JSON.stringify(toolCatalog(TOOLS))));
  });

  it('tools/list over stdio carries the same schemas', async () => {
    const session = await connectStdio(['--offline']);
    try {
      const { tools } = await session.client.listTools();
      const now = new Map(toolCatalog(TOOLS).map((tool) => [tool.name, tool]));
      expect(tools.map((tool) => tool.name)).toEqual([...now.keys()]);
      for (const tool of tools) {
        expect(tool.inputSchema, tool.name).toEqual(now.get(tool.name)!.inputSchema);
        expect(tool.outputSchema, tool.name).toEqual(now.get(tool.name)!.outputSchema);
      }
    } finally {
      await session.close();
    }
  });

  it('offline, the bridged tools from the build equal a read of the offline surface now', async () => {
    const run = await runCli(['--offline', 'tools', '--json'], cleanEnv({ SERVICE_MCP_NO_BRIDGE: '0' }));
    expect(run.code, run.stderr).toBe(0);
    const config = resolveConfig({ offline: true }, {});
    const backend = createBackend(config, silentLogger, {
      deployment: () => createOfflineDeployment(config, silentLogger),
    });
    backend.bridge!.start();
    await backend.bridge!.settled(60_000);
    expect(backend.bridge!.status()).toMatchObject({ state: 'ready', list_from: 'surface' });
    expect(JSON.parse(run.stdout)).toEqual(JSON.parse(JSON.stringify(toolCatalog(exposedTools(backend)))));
  });
});
