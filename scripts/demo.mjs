#!/usr/bin/env node
// npm run demo: starts the real binary over stdio against the embedded offline API and drives it
// with the SDK's client, printing what a user (or a model) would see.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fileURLToPath } from 'node:url';
import { styleText } from 'node:util';

const bin = fileURLToPath(new URL('../bin/service-mcp.js', import.meta.url));
const transport = new StdioClientTransport({ command: process.execPath, args: [bin, '--offline'], stderr: 'inherit' });
const client = new Client({ name: 'service-mcp-demo', version: '1.0.0' });
await client.connect(transport);

// Bold only on a terminal that takes colour: styleText leaves the text plain in a pipe or a file,
// under NO_COLOR, NODE_DISABLE_COLORS or TERM=dumb (and honours FORCE_COLOR).
const rule = (title) => console.log(`\n${styleText('bold', `== ${title} ==`)}`);
const show = (result) => {
  for (const part of result.content ?? []) if (part.type === 'text') console.log(part.text);
};

const { tools } = await client.listTools();
rule(`${tools.length} tools`);
for (const tool of tools) console.log(`- ${tool.name}: ${tool.title}`);

rule('search_jobs: remote senior AI roles with Python, 5 per page');
const search = await client.callTool({
  name: 'search_jobs',
  arguments: { domain: 'ai', skills: ['python'], seniority_level: 'senior', remote_only: true, per_page: 5 },
});
show(search);

const firstJob = search.structuredContent?.data?.jobs?.[0]?.job_id;
if (firstJob) {
  rule(`get_job: ${firstJob}`);
  show(await client.callTool({ name: 'get_job', arguments: { job_id: firstJob } }));
}

rule('search_jobs: web3 roles whose salary range reaches $150k a year (annualized USD), predicted salaries included');
show(
  await client.callTool({
    name: 'search_jobs',
    arguments: { domain: 'web3', min_salary_usd: 150000, include_predicted_salaries: true, per_page: 3 },
  }),
);

rule('get_market_map: one layer');
const map = await client.callTool({ name: 'get_market_map', arguments: {} });
const layer = map.structuredContent?.data?.layers?.[0];
show(layer ? await client.callTool({ name: 'get_market_map', arguments: { layer } }) : map);

const brief = await client.readResource({ uri: 'service-mcp://api/discovery' }).catch(() => undefined);
rule('get_company_interview_brief');
const company = search.structuredContent?.data?.jobs?.[0]?.company?.name;
show(
  await client.callTool({
    name: 'get_company_interview_brief',
    arguments: company ? { name: company } : { slug: 'acme' },
  }),
);

rule("bridged from the offline deployment's hosted market surface: get_compensation_benchmarks, disclosed pay only");
show(
  await client.callTool({
    name: 'get_compensation_benchmarks',
    arguments: { evidence_class: 'disclosed', domain: 'ai' },
  }),
);

rule('bridged: get_company_funding');
show(await client.callTool({ name: 'get_company_funding', arguments: { company: company ?? 'northwind-neural' } }));

rule('bridged: list_frontier_ai_evidence, the three newest');
show(await client.callTool({ name: 'list_frontier_ai_evidence', arguments: { limit: 3 } }));

rule('check_api_health');
show(await client.callTool({ name: 'check_api_health', arguments: {} }));

rule('a bad argument is refused before any request');
show(await client.callTool({ name: 'search_jobs', arguments: { per_page: 500 } }));

void brief;
await client.close();
