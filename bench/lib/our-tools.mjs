/** Our seven tools, named by CONTRACT.md: any other tool a server lists is bridged from the hosted surface. */
const OUR_TOOLS = new Set([
  'search_jobs',
  'list_jobs',
  'get_job',
  'get_market_map',
  'get_company_interview_brief',
  'discover_api',
  'check_api_health',
]);

export const isBridged = (tool) => !OUR_TOOLS.has(tool.name);
