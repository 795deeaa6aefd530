/**
 * checkToolNames: the start-up check of `--tools` with the bridge on (the e2e side, every command
 * offline, against mock-api and with the hosted list failing or hanging, is
 * test/e2e/tool-selection-bridged.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../../src/contract/tool-names.js';
import { checkToolNames, type Backend } from '../../../src/tools/backend.js';
import { toolSet } from '../../../src/tools/index.js';
import { bridgeOver, READ_ONLY_TOOL, surface } from '../hosted/surface.js';

const backendOver = (target: ReturnType<typeof surface>, toolNames: string[]) =>
  ({ tools: toolSet(toolNames, { bridged: true }), toolNames, bridge: bridgeOver(target) }) as unknown as Backend;

// Generous: an in-process surface answers in milliseconds; a loaded 2-core machine may take far longer.
const WAIT_MS = 30_000;

describe('checkToolNames', () => {
  it('names that are all ours are taken with nothing read', async () => {
    const target = surface({ tools: [READ_ONLY_TOOL] });
    await checkToolNames(backendOver(target, ['get_job', 'search_jobs']), WAIT_MS);
    expect(target.seen).toEqual([]);
  });

  it('a bridged name is taken once the hosted list is read', async () => {
    const target = surface({ tools: [READ_ONLY_TOOL] });
    await checkToolNames(backendOver(target, ['get_job', READ_ONLY_TOOL.name]), WAIT_MS);
    expect(target.seen).toContain('tools/list');
  });

  it('a surface that offers nothing to bridge is said to, beside our names', async () => {
    const target = surface({ tools: [] });
    await expect(checkToolNames(backendOver(target, ['get_job', READ_ONLY_TOOL.name]), WAIT_MS)).rejects.toThrow(
      `--tools / SERVICE_MCP_TOOLS: "get_company_funding" is not a tool; the tools are ${TOOL_NAMES.join(', ')} (the deployment's hosted surface offers none to bridge)`,
    );
  });
});
