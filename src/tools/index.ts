/** The registry: every tool, in the order clients list them, and the subset `--tools` exposes. */
import { checkApiHealth } from './check-api-health.js';
import type { AnyTool } from './define.js';
import { discoverApiTool } from './discover-api.js';
import { getCompanyInterviewBrief } from './get-company-interview-brief.js';
import { getJob } from './get-job.js';
import { getMarketMap } from './get-market-map.js';
import { listJobs } from './list-jobs.js';
import { searchJobs } from './search-jobs.js';

class UnknownToolError extends Error {
  override readonly name = 'UnknownToolError';
}

/** Refuses the `--tools` names not `known`, with `listing` (the known names, and any word on them) as the tools there are. */
export function refuseUnknown(
  names: readonly string[] | undefined,
  known: readonly string[],
  listing = known.join(', '),
) {
  const unknown = names?.filter((name) => !known.includes(name)) ?? [];
  if (unknown.length > 0)
    throw new UnknownToolError(
      `--tools / SERVICE_MCP_TOOLS: ${unknown.map((name) => JSON.stringify(name)).join(', ')} ${unknown.length === 1 ? 'is not a tool' : 'are not tools'}; the tools are ${listing}`,
    );
}

/**
 * Our tools named (all without names), in registry order; a name that is no tool is an
 * UnknownToolError, unless tools are `bridged`: their names are known only once the hosted list is
 * read, so checkToolNames (tools/backend.ts) refuses it then. discover_api maps endpoints to its
 * own set, so a tool left out is never offered.
 */
export function toolSet(names?: readonly string[], { bridged = false } = {}): readonly AnyTool[] {
  const all: AnyTool[] = [
    searchJobs,
    listJobs,
    getJob,
    getMarketMap,
    getCompanyInterviewBrief,
    discoverApiTool(() => set),
    checkApiHealth,
  ];
  if (!bridged)
    refuseUnknown(
      names,
      all.map((tool) => tool.name),
    );
  const set = names === undefined ? all : all.filter((tool) => names.includes(tool.name));
  return set;
}

export const TOOLS: readonly AnyTool[] = toolSet();
