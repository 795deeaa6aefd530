/** The registry: every tool, in the order clients list them. Nothing else lives here. */
import { checkApiHealth } from './check-api-health.js';
import type { AnyTool } from './define.js';
import { discoverApiTool } from './discover-api.js';
import { getCompanyInterviewBrief } from './get-company-interview-brief.js';
import { getJob } from './get-job.js';
import { getMarketMap } from './get-market-map.js';
import { listJobs } from './list-jobs.js';
import { searchJobs } from './search-jobs.js';

export const TOOLS: readonly AnyTool[] = [searchJobs, listJobs, getJob, getMarketMap, getCompanyInterviewBrief, discoverApiTool(() => TOOLS), checkApiHealth];

export function findTool(name: string): AnyTool | undefined {
  return TOOLS.find((tool) => tool.name === name);
}
