/** The offline hosted market surface's tools, called as a bridge would call them. */
import { Client, InMemoryTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { loadSnapshot } from '../../../src/offline/dataset.js';
import { registerMarketTools } from '../../../src/app/offline-deployment.js';

async function client(): Promise<Client> {
  const mcp = new McpServer({ name: 'market', version: '0' });
  registerMarketTools(mcp, await loadSnapshot());
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const c = new Client({ name: 'market-test', version: '0' });
  await c.connect(clientSide);
  return c;
}

/** One tool call on `c`, as a bridge makes it. */
const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  (await c.callTool({ name, arguments: args })) as CallToolResult;

const text = (result: CallToolResult) => result.content.map((b) => ('text' in b ? b.text : '')).join('\n');

describe('get_compensation_benchmarks', () => {
  it('names the roles with data when a role matches none, so the caller can ask again', async () => {
    const c = await client();
    const none = await call(c, 'get_compensation_benchmarks', { role: 'ML Engineer' });
    expect(text(none)).toMatch(
      /0 benchmark rows\. No role with salary data contains "ML Engineer"; roles with data: .*Machine Learning Engineer/,
    );
    const some = await call(c, 'get_compensation_benchmarks', { role: 'Machine Learning Engineer' });
    expect(text(some)).toMatch(/[1-9]\d* benchmark rows, largest samples first\.\n- Machine Learning Engineer \(/);
    expect(text(some)).not.toContain('roles with data');
    await c.close();
  });

  it('shows every row it counts, or how many of them and where the others are', async () => {
    const c = await client();
    const benchmarks = async (args: Record<string, unknown>) =>
      text(await call(c, 'get_compensation_benchmarks', args));
    // The trial's case: 9 rows, of which the senior disclosed one was only in structuredContent.
    const role = await benchmarks({ role: 'Machine Learning Engineer' });
    expect(role).toContain('9 benchmark rows, largest samples first.');
    expect(role).toContain('- Machine Learning Engineer (senior, disclosed): median $136,525 a year, from 1 posting');
    expect(role.match(/^- /gm)).toHaveLength(9);
    const all = await benchmarks({});
    expect(all).toMatch(
      /\. 10 of (\d+) benchmark rows shown, largest samples first; the other \d+: in structuredContent, or narrow by role, seniority_level, domain or evidence_class\.\n/,
    );
    expect(all.match(/^- /gm)).toHaveLength(10);
    await c.close();
  });
});

describe('get_company_funding', () => {
  it('says each round with its amount and who led it, as its description promises', async () => {
    const c = await client();
    const result = await call(c, 'get_company_funding', { company: 'Halcyon Labs' });
    const rounds = (result.structuredContent as { data: { rounds: Array<{ lead_investor: string }> } }).data.rounds;
    expect(rounds.length).toBeGreaterThan(0);
    const said = text(result).match(/(?:Seed|Series [A-D]) \d{4}-\d{2}-\d{2} \$[\d,]+ led by [^;|]+/g) ?? [];
    expect(said.map((round) => round.split(' led by ')[1]!.trim())).toEqual(rounds.map((r) => r.lead_investor));
    await c.close();
  });
});

describe('list_frontier_ai_evidence', () => {
  it('shows each item it counts, and past the limit, how many match and the call that shows them', async () => {
    const c = await client();
    const evidence = (args: Record<string, unknown>) => call(c, 'list_frontier_ai_evidence', args);
    const cut = await evidence({ limit: 3 });
    const matching = (cut.structuredContent as { data: { matching: number } }).data.matching;
    expect(text(cut)).toContain(
      `3 of ${matching} evidence items shown, newest first; the other ${matching - 3}: call again with limit=${matching}.`,
    );
    expect(text(cut).match(/^- \d{4}-\d{2}-\d{2} [a-z_]+: .+ \((?:first|third)_party\)$/gm)).toHaveLength(3);
    const whole = await evidence({ limit: matching });
    expect(text(whole)).toContain(`${matching} evidence items, newest first.`);
    expect(text(whole).match(/^- /gm)).toHaveLength(matching);
    await c.close();
  });
});
