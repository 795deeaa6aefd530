/**
 * Ids carry everywhere, as a client meets them over the built binary (offline, the bridge on): an id
 * taken from one answer, as the answer writes it, is the argument of the next tool, bridged ones
 * included; and every answer writes each kind of id in one JSON type, in its text and in its
 * structuredContent alike.
 */
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgedNames } from './bridged-names.js';
import { cleanEnv, connectStdio, textOf, type StdioSession } from './helpers.js';

let session: StdioSession;
let client: Client;

beforeAll(async () => {
  session = await connectStdio([], cleanEnv({ SERVICE_MCP_NO_BRIDGE: '0' }));
  client = session.client;
  await bridgedNames(client);
});
afterAll(() => session?.close());

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name} ${JSON.stringify(args)}: ${textOf(result)}`).toBeFalsy();
  return result;
}

/** The value after `label` in `text`, read as the text writes it: 1001 is a number, "1001" a string. */
function shown(text: string, label: RegExp): unknown {
  const match = new RegExp(`${label.source}("[^"]*"|[^\\s;,)]+)`, 'm').exec(text);
  expect(match, `${label} in:\n${text}`).not.toBeNull();
  const token = match![1]!;
  return token.startsWith('"') ? (JSON.parse(token) as string) : /^-?\d+$/.test(token) ? Number(token) : token;
}

describe('an id taken from one answer is the next call’s argument', () => {
  it('search_jobs → get_job → get_company_interview_brief → get_company_funding, by the id alone', async () => {
    const found = textOf(await call('search_jobs', { q: 'inference engineer', per_page: 1 }));
    const jobId = shown(found, /^1\. /);
    const job = textOf(await call('get_job', { job_id: jobId }));
    const companyId = shown(job, /company_id /);
    const brief = textOf(await call('get_company_interview_brief', { company_id: companyId }));
    // The id as the brief writes it, not as the job did: the two must be the same value of one type.
    const briefId = shown(brief, /^ {2}company_id: /);
    expect(briefId).toStrictEqual(companyId);
    const funding = await call('get_company_funding', { company: briefId });
    const name = / at "([^"]+)" \(/.exec(job)![1]!;
    expect(textOf(funding)).toContain(`${name}: `);
    expect(shown(textOf(funding), /company_id /)).toStrictEqual(companyId);
    // And the same id into the other bridged tool that takes a company.
    await call('list_frontier_ai_evidence', { company: shown(textOf(funding), /company_id /), limit: 1 });
  });
});

/** Every id of a kind found in a value: a job's job_id, a company's id (company_id, or id inside a company), a slug. */
function idsIn(value: unknown, found: Map<string, Set<string>>, parent = ''): void {
  if (Array.isArray(value)) return value.forEach((item) => idsIn(item, found, parent));
  if (value === null || typeof value !== 'object') return;
  // The brief's lookup echo: { by: 'company_id', value } holds a company id too.
  const echoed = (value as { by?: unknown }).by === 'company_id';
  for (const [key, inner] of Object.entries(value)) {
    const kind =
      key === 'job_id'
        ? 'job'
        : key === 'company_id' || (key === 'id' && parent === 'company') || (key === 'value' && echoed)
          ? 'company'
          : key === 'slug'
            ? 'slug'
            : undefined;
    if (kind && inner !== null) {
      if (!found.has(kind)) found.set(kind, new Set());
      found.get(kind)!.add(typeof inner);
    }
    idsIn(inner, found, key);
  }
}

describe('one type for each id', () => {
  it('every tool’s answer, text and structuredContent, writes a company id as a number and job ids and slugs as strings', async () => {
    const calls: Record<string, Array<Record<string, unknown>>> = {
      discover_api: [{}],
      search_jobs: [{ q: 'engineer', per_page: 20 }],
      list_jobs: [{ per_page: 20 }],
      get_job: [{ job_id: 'job_ai_0124' }],
      get_market_map: [{}],
      get_company_interview_brief: [{ company_id: 1001 }, { company_id: '1002' }, { slug: 'polder-dao' }],
      check_api_health: [{}],
      get_compensation_benchmarks: [{}],
      get_company_funding: [{ company: 1001 }, { company: 'halcyon-labs' }, { company: 'Polder DAO' }],
      list_frontier_ai_evidence: [{}],
    };
    // Every tool listed is called here: a new tool must say what ids it writes.
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(Object.keys(calls).sort());
    const found = new Map<string, Set<string>>();
    for (const [name, argsList] of Object.entries(calls)) {
      for (const args of argsList) {
        const result = await call(name, args);
        idsIn(result.structuredContent, found);
        // In the text: a company id is never written quoted (as a string) beside an integer elsewhere.
        const text = textOf(result);
        for (const match of text.matchAll(/company_id:? ("?[^\s;,)"]+"?)/g))
          expect(match[1], `${name}: ${match[0]}`).toMatch(/^\d+$/);
      }
    }
    expect(Object.fromEntries([...found].map(([kind, types]) => [kind, [...types]]))).toEqual({
      job: ['string'],
      company: ['number'],
      slug: ['string'],
    });
  });
});
