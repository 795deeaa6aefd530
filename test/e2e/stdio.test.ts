/**
 * The stdio server as Claude Desktop runs it: the built binary, the SDK's real client, and the
 * embedded offline API over real HTTP (mock-api) as upstream.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_LIST } from '../../src/contract/views.js';
import { activeJob, company, inactiveJob } from './dataset.js';
import {
  cleanEnv,
  closedPort,
  connectStdio,
  startMockApi,
  textOf,
  type MockApi,
  type StdioSession,
} from './helpers.js';

let api: MockApi;
let session: StdioSession;

beforeAll(async () => {
  api = await startMockApi();
  // --no-cache: the fault tests below need every call to reach the API (the cache has its own tests in cache.test.ts).
  session = await connectStdio([
    '--base-url',
    api.url,
    '--max-retry-wait-s',
    '3',
    '--timeout-ms',
    '2000',
    '--log-level',
    'info',
    '--no-cache',
  ]);
});
afterEach(() => api.clearFaults());
afterAll(async () => {
  await session?.close();
  await api?.close();
});

const call = (name: string, args: Record<string, unknown> = {}) => session.client.callTool({ name, arguments: args });

describe('initialize and catalogs', () => {
  it('advertises instructions, the tools, prompts and resources', async () => {
    expect(session.client.getInstructions()).toMatch(/evidence of demand, not proof that anyone was hired/);
    expect(session.client.getServerCapabilities()).toMatchObject({
      tools: {},
      prompts: {},
      resources: {},
      logging: {},
      completions: {},
    });
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'search_jobs',
      'list_jobs',
      'get_job',
      'get_market_map',
      'get_company_interview_brief',
      'discover_api',
      'check_api_health',
    ]);
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['research_role_market', 'prepare_company_interview']);
    const { resources } = await session.client.listResources();
    // The MCP Apps views are listed, and linked from tools/list, for every client: one catalog for
    // everyone, and a host that renders no views ignores the link.
    expect(resources.map((r) => r.uri)).toEqual([
      'service-mcp://api/openapi.json',
      'service-mcp://api/llms.txt',
      'service-mcp://api/discovery',
      ...VIEW_LIST.map((view) => view.uri),
    ]);
    expect(tools.filter((tool) => tool._meta !== undefined).map((tool) => tool.name)).toEqual([
      'search_jobs',
      'list_jobs',
      'get_job',
      'get_market_map',
      'get_company_interview_brief',
    ]);
  });
});

describe('every tool, happy path (the SDK client validates structuredContent against each outputSchema)', () => {
  it('search_jobs with filters', async () => {
    const result = await call('search_jobs', { domain: 'ai', per_page: 5, include_predicted_salaries: true });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toMatch(
      /^FICTIONAL [^\n]*\nPage 1 of \d+, \d+ total \(jobs 1–5\); next: same arguments with page=2\./,
    );
    // mock-api, reached over HTTP, says in its meta.source that its data is an offline snapshot.
    expect(text).toMatch(/\nProvenance: source: .* · reached: http · fictional: yes$/);
    const data = (result.structuredContent as { data: { jobs: Array<{ domain_id: string }> } }).data;
    expect(data.jobs).toHaveLength(5);
    expect(data.jobs.every((j) => j.domain_id === 'ai')).toBe(true);
  });

  it('list_jobs', async () => {
    const result = await call('list_jobs', { per_page: 3, page: 2 });
    expect(textOf(result)).toMatch(/^FICTIONAL [^\n]*\nPage 2 of \d+/);
  });

  it('get_job', async () => {
    const result = await call('get_job', { job_id: activeJob.job_id });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain(activeJob.job_id);
    expect((result.structuredContent as { data: { job_id: string } }).data.job_id).toBe(activeJob.job_id);
  });

  it('get_market_map, whose legacy generated_at states no timezone', async () => {
    const result = await call('get_market_map');
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/generated_at: [^·]+\(no timezone stated, read as UTC: \d+ days ago\)/);
    expect(
      (result.structuredContent as { provenance: { generated_at_timezone: string } }).provenance.generated_at_timezone,
    ).toBe('not_stated');
  });

  it('get_company_interview_brief by slug', async () => {
    const result = await call('get_company_interview_brief', { slug: company.slug });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(
      new RegExp(
        `^FICTIONAL [^\n]*\nFreshness: generated [^\n]+ ago, which the API labels "\\w+"[^\n]*\nInterview brief for "${company.name}" \\(upstream data below\\):\n\`\`\`yaml\n`,
      ),
    );
  });

  it('discover_api', async () => {
    const result = await call('discover_api');
    expect(textOf(result)).toMatch(/GET \/api\/public\/v1\/search\/jobs/);
  });

  it('check_api_health', async () => {
    const result = await call('check_api_health');
    expect(textOf(result)).toMatch(/^FICTIONAL [^\n]*\nAPI health: OK \(HTTP 200\)/);
  });
});

describe('error kinds', () => {
  it('invalid_argument, with no request sent', async () => {
    const before = JSON.stringify(await api.stats());
    const result = await call('search_jobs', { per_page: 1000 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^invalid_argument: per_page: must be at most 100/);
    expect(JSON.stringify(await api.stats())).toBe(before);
  });

  it('not_found for an inactive job', async () => {
    const result = await call('get_job', { job_id: inactiveJob.job_id });
    expect(textOf(result)).toMatch(/^not_found: HTTP 404/);
  });

  it('a 429 within the wait budget is waited out, then answered', async () => {
    await api.setFaults([{ path: '/api/public/v1/market-map', kind: 'rate_limit', retryAfter: 1, times: 1 }]);
    const started = Date.now();
    const result = await call('get_market_map');
    expect(result.isError).toBeFalsy();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('a 429 longer than --max-retry-wait-s is rate_limited with the seconds, and the cool-down is process-wide', async () => {
    // Its own process: the 60 s cool-down it provokes must not reach the other tests.
    const limited = await connectStdio(['--base-url', api.url, '--max-retry-wait-s', '3']);
    try {
      await api.setFaults([{ path: '/api/public/v1/interview/company', kind: 'rate_limit', retryAfter: 60, times: 1 }]);
      const result = await limited.client.callTool({
        name: 'get_company_interview_brief',
        arguments: { slug: company.slug },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^rate_limited: .*60s.*\(retry after 60 s\)\nHint: Wait 60 s/);
      // Another tool fails fast during the window, and sends nothing upstream.
      const before = JSON.stringify(await api.stats());
      const other = await limited.client.callTool({ name: 'list_jobs', arguments: {} });
      expect(textOf(other)).toMatch(/^rate_limited: .*(59|60)s/);
      expect(JSON.stringify(await api.stats())).toBe(before);
      // The health probe the hints point to is never held by another endpoint's cool-down.
      const health = await limited.client.callTool({ name: 'check_api_health', arguments: {} });
      expect(health.isError, textOf(health)).toBeFalsy();
    } finally {
      await limited.close();
    }
  });

  it('upstream_unavailable after bounded 503 retries, contract breaks, timeouts, degraded health', async () => {
    const fresh = await connectStdio(['--base-url', api.url, '--timeout-ms', '1000'], cleanEnv());
    try {
      await api.setFaults([{ path: '/api/public/v1/jobs', kind: 'unavailable' }]);
      const unavailable = await fresh.client.callTool({ name: 'list_jobs', arguments: {} });
      expect(textOf(unavailable)).toMatch(/^upstream_unavailable: HTTP 503 .* after 3 attempts/);

      await api.setFaults([{ path: '/api/public/v1/search/jobs', kind: 'contract' }]);
      const contract = await fresh.client.callTool({ name: 'search_jobs', arguments: {} });
      expect(textOf(contract)).toMatch(/^upstream_contract: .*breaks the API contract at data\./);

      await api.setFaults([{ path: '/api/public/v1/search/jobs', kind: 'malformed' }]);
      expect(textOf(await fresh.client.callTool({ name: 'search_jobs', arguments: {} }))).toMatch(
        /^upstream_contract: .*malformed or truncated/,
      );

      await api.setFaults([{ path: '/api/public/v1/market-map', kind: 'hang' }]);
      expect(textOf(await fresh.client.callTool({ name: 'get_market_map', arguments: {} }))).toMatch(
        /^timeout: GET \/api\/public\/v1\/market-map took longer than 1000 ms/,
      );

      await api.setFaults([{ path: '/api/public/v1/mcp/health', kind: 'degraded_health' }]);
      const health = await fresh.client.callTool({ name: 'check_api_health', arguments: {} });
      expect(health.isError).toBeFalsy();
      expect(textOf(health)).toMatch(/^FICTIONAL [^\n]*\nAPI health: DEGRADED \(HTTP 503\)/);

      await api.clearFaults();
      expect((await fresh.client.callTool({ name: 'check_api_health', arguments: {} })).isError).toBeFalsy();
    } finally {
      await fresh.close();
    }
  });

  it('network when the API cannot be reached', async () => {
    const dead = await connectStdio(['--base-url', `http://127.0.0.1:${await closedPort()}`, '--timeout-ms', '2000']);
    try {
      const result = await dead.client.callTool({ name: 'discover_api', arguments: {} });
      expect(textOf(result)).toMatch(/^network: GET \/api\/public\/v1 failed: .*ECONNREFUSED/);
    } finally {
      await dead.close();
    }
  });

  it('an unknown tool is a protocol error, not a tool result', async () => {
    await expect(call('no_such_tool')).rejects.toThrow(/Tool no_such_tool not found/);
  });
});

describe('MCP features', () => {
  it('cancellation aborts the upstream request and any Retry-After wait', async () => {
    // Discovery hangs from the start: the server's own read of it as it starts must not be answered
    // (and cached) before the fault is set, or discover_api would be answered from the cache.
    await api.setFaults([{ path: '/api/public/v1', kind: 'hang' }]);
    const fresh = await connectStdio(['--base-url', api.url, '--max-retry-wait-s', '30', '--log-level', 'info']);
    try {
      const controller = new AbortController();
      const pending = fresh.client.callTool({ name: 'discover_api', arguments: {} }, { signal: controller.signal });
      setTimeout(() => controller.abort('user cancelled'), 300);
      await expect(pending).rejects.toThrow();
      await expect
        .poll(() => fresh.stderr(), { timeout: 10_000 })
        .toMatch(/discover_api failed: cancelled: GET \/api\/public\/v1 was cancelled/);

      await api.setFaults([{ path: '/api/public/v1/market-map', kind: 'rate_limit', retryAfter: 20, times: 1 }]);
      const waiting = new AbortController();
      const started = Date.now();
      const rateLimited = fresh.client.callTool({ name: 'get_market_map', arguments: {} }, { signal: waiting.signal });
      setTimeout(() => waiting.abort('user cancelled'), 500);
      await expect(rateLimited).rejects.toThrow();
      await expect.poll(() => fresh.stderr(), { timeout: 10_000 }).toMatch(/get_market_map failed: cancelled/);
      // Ended by the cancellation at 500 ms, not by the 20 s Retry-After: half of it is a margin a
      // loaded machine keeps, and still far from the wait running out.
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await fresh.close();
    }
  });

  it('sends progress while waiting out a Retry-After, when given a progress token', async () => {
    await api.setFaults([{ path: '/api/public/v1/jobs', kind: 'rate_limit', retryAfter: 2, times: 1 }]);
    const fresh = await connectStdio(['--base-url', api.url]);
    try {
      const messages: string[] = [];
      const result = await fresh.client.callTool(
        { name: 'list_jobs', arguments: {} },
        { onprogress: (p) => messages.push(p.message ?? '') },
      );
      expect(result.isError).toBeFalsy();
      expect(messages[0]).toMatch(/rate limited: waiting 2 s/);
    } finally {
      await fresh.close();
    }
  });

  it('log lines also arrive as notifications/message', async () => {
    const fresh = await connectStdio(['--base-url', api.url, '--log-level', 'info']);
    try {
      const logs: string[] = [];
      fresh.client.setNotificationHandler('notifications/message', (n) => void logs.push(String(n.params.data)));
      await fresh.client.setLoggingLevel('info');
      await fresh.client.callTool({ name: 'get_job', arguments: { job_id: inactiveJob.job_id } });
      await expect.poll(() => logs.join('\n')).toMatch(/get_job failed: not_found/);
    } finally {
      await fresh.close();
    }
  });

  it('prompts chain the tools, with argument completion', async () => {
    const prompt = await session.client.getPrompt({
      name: 'research_role_market',
      arguments: { role: 'rust engineer', domain: 'web3' },
    });
    expect(JSON.stringify(prompt.messages)).toMatch(/search_jobs with q=\\"rust engineer\\", domain=\\"web3\\"/);
    const brief = await session.client.getPrompt({
      name: 'prepare_company_interview',
      arguments: { company: company.slug },
    });
    expect(JSON.stringify(brief.messages)).toContain(`slug=\\"${company.slug}\\"`);
    const completion = await session.client.complete({
      ref: { type: 'ref/prompt', name: 'research_role_market' },
      argument: { name: 'domain', value: 'w' },
    });
    expect(completion.completion.values).toEqual(['web3']);
    const companies = await session.client.complete({
      ref: { type: 'ref/prompt', name: 'prepare_company_interview' },
      argument: { name: 'company', value: company.name.slice(0, 4) },
    });
    expect(companies.completion.values).toContain(company.name);
  });

  it('resources serve the OpenAPI description, llms.txt and discovery', async () => {
    const openapi = await session.client.readResource({ uri: 'service-mcp://api/openapi.json' });
    expect(JSON.parse((openapi.contents[0] as { text: string }).text).openapi).toBe('3.1.0');
    const llms = await session.client.readResource({ uri: 'service-mcp://api/llms.txt' });
    expect((llms.contents[0] as { text: string }).text.length).toBeGreaterThan(50);
    const discovery = await session.client.readResource({ uri: 'service-mcp://api/discovery' });
    expect(JSON.parse((discovery.contents[0] as { text: string }).text).data.endpoints.length).toBeGreaterThan(3);
  });
});
