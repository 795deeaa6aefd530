/** toolSet: the registry's subset for `--tools`, and discover_api mapping endpoints to that subset only. */
import { describe, expect, it } from 'vitest';
import { createOfflineEngine } from '../../../src/offline/engine.js';
import { toolSet } from '../../../src/tools/index.js';
import { findTool } from '../../helpers/tools.js';
import { TOOL_NAMES } from '../../../src/contract/tool-names.js';
import { runTool } from '../../../src/tools/run.js';
import { offlineClient } from '../../helpers/offline-client.js';

describe('toolSet', () => {
  it('keeps registry order, whatever order the names come in', () => {
    expect(toolSet(['check_api_health', 'search_jobs']).map((tool) => tool.name)).toEqual([
      'search_jobs',
      'check_api_health',
    ]);
    expect(toolSet().map((tool) => tool.name)).toEqual(TOOL_NAMES);
  });

  it('refuses a name that is no tool, naming every one that is', () => {
    expect(() => toolSet(['search_jobs', 'serch_jobs', 'x'])).toThrow(
      '--tools / SERVICE_MCP_TOOLS: "serch_jobs", "x" are not tools; the tools are search_jobs, list_jobs, get_job, get_market_map, get_company_interview_brief, discover_api, check_api_health',
    );
  });

  it('discover_api names only exposed tools: an endpoint whose tool is hidden has none', async () => {
    const tools = toolSet(['discover_api', 'get_job']);
    const client = offlineClient(await createOfflineEngine());
    const result = await runTool(findTool('discover_api', tools)!, {}, { client, mode: 'embedded' });
    const { endpoints } = (
      result.structuredContent as { coverage: { endpoints: Array<{ path: string; tool: string | null }> } }
    ).coverage;
    const served = endpoints.map((endpoint) => endpoint.tool).filter(Boolean);
    expect(new Set(served)).toEqual(new Set(['discover_api', 'get_job']));
    expect(endpoints.find((endpoint) => endpoint.path.endsWith('/search/jobs'))?.tool).toBeNull();
  });
});
