/**
 * `--tools` (and SERVICE_MCP_TOOLS) exposes only the tools named, everywhere: listed, callable,
 * never named by the instructions, and chained by prompts over stdio and HTTP alike, and in the
 * `tools` and `call` commands. A name that is no tool stops start-up with the valid names.
 */
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/contract/tool-names.js';
import { cleanEnv, runCli } from './helpers.js';
import { startTarget, TRANSPORTS, type Target } from './targets.js';

const CHOSEN = ['search_jobs', 'get_job'];
const HIDDEN = TOOL_NAMES.filter((name) => !CHOSEN.includes(name));

describe.each(TRANSPORTS)('--tools over %s', (transport) => {
  const targets: Target[] = [];
  afterAll(() => Promise.all(targets.map((target) => target.close())));
  const start = async (args: string[], env = cleanEnv()) => {
    const target = await startTarget(transport, ['--offline', ...args], env);
    targets.push(target);
    return target;
  };

  it('lists and answers only the tools named, and no hidden tool is mentioned in the instructions or a prompt', async () => {
    const { client } = await start(['--tools', 'get_job, search_jobs']);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(CHOSEN);
    const found = (await client.callTool({
      name: 'search_jobs',
      arguments: { q: 'engineer', per_page: 1 },
    })) as CallToolResult;
    expect(found.isError).toBeFalsy();
    const hidden = await client.callTool({ name: 'get_market_map', arguments: {} }).catch((error: unknown) => error);
    expect(hidden).toBeInstanceOf(ProtocolError);
    expect((hidden as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
    // The instructions name no tool (each tool's own description says how it fits), so none hidden.
    const instructions = client.getInstructions() ?? '';
    for (const name of HIDDEN) expect(instructions, name).not.toContain(name);
    // Both prompts chain a tool that is hidden here (get_market_map, get_company_interview_brief).
    expect((await client.listPrompts()).prompts).toEqual([]);
  });

  it('takes the list from SERVICE_MCP_TOOLS, and offers a prompt whose every tool is exposed', async () => {
    const { client } = await start([], cleanEnv({ SERVICE_MCP_TOOLS: 'search_jobs,get_job,get_market_map' }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'search_jobs',
      'get_job',
      'get_market_map',
    ]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['research_role_market']);
  });

  it('without it, every tool and prompt is there', async () => {
    const { client } = await start([]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    expect((await client.listPrompts()).prompts).toHaveLength(2);
  });
});

describe('--tools in the commands', () => {
  it('tools lists only those, and call refuses a hidden tool as bad usage', async () => {
    const listed = await runCli(['--tools', 'get_job', 'tools']);
    expect(listed.code).toBe(0);
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(['get_job']);
    const hidden = await runCli(['--tools', 'get_job', 'call', 'search_jobs', '{}']);
    expect(hidden.code).toBe(2);
    expect(hidden.stderr).toMatch(/unknown tool "search_jobs"; tools: get_job \(--tools\)/);
    expect(hidden.stdout).toBe('');
  });

  it.each([
    [
      ['--tools', 'search_jobs,get_jobz', 'tools'],
      /--tools \/ SERVICE_MCP_TOOLS: "get_jobz" is not a tool; the tools are search_jobs, list_jobs, get_job, get_market_map, get_company_interview_brief, discover_api, check_api_health/,
    ],
    [['--tools', ' , ', 'tools'], /--tools \/ SERVICE_MCP_TOOLS: .* must name at least one tool/],
    [['--tools', 'nope'], /"nope" is not a tool/],
    [['--tools', 'nope', 'serve', '--http', '--port', '0'], /"nope" is not a tool/],
    [['--tools', 'nope', 'mock-api', '--port', '0'], /"nope" is not a tool/],
  ])('a name that is no tool stops %j with exit 2 naming the valid ones', async (args, message) => {
    const { code, stderr, stdout } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });
});
