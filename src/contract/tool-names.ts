/**
 * Our tools' names, in the order clients list them. CONTRACT.md fixes them; the registry, the
 * offline deployment's discovery and server card, the prompts and the views all name tools from here.
 */
export const TOOL_NAMES = [
  'search_jobs',
  'list_jobs',
  'get_job',
  'get_market_map',
  'get_company_interview_brief',
  'discover_api',
  'check_api_health',
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];
