/**
 * A sample of the generated bad input (test/unit/tools/bad-input.test.ts runs thousands in
 * process) sent through the built binary over stdio, against an upstream that records what it
 * receives: each call ends in a correct result or an invalid_argument naming a refused argument
 * with nothing sent, every URL the upstream saw is within the spec's limits, and the process
 * survives it all. Plus the privacy rule end to end: an e-mail address or phone number, plain or
 * disguised, in q or any other free-text argument is refused before any request.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argumentsFor, type Fixtures } from '../helpers/argument-arbitraries.js';
import { judge, urlProblems } from '../helpers/argument-spec.js';
import { connectStdio, textOf, type StdioSession } from './helpers.js';
import { startRecordingApi, type RecordingApi } from './recording-api.js';

const SEED = 20_261_119;
const PER_TOOL = 100;
const TOOLS = [
  'search_jobs',
  'list_jobs',
  'get_job',
  'get_market_map',
  'get_company_interview_brief',
  'discover_api',
  'check_api_health',
];
const UPSTREAM_OUTCOMES: Record<string, RegExp> = {
  get_job: /^not_found: HTTP 404 /,
  get_company_interview_brief: /^not_found: HTTP 404 /,
  get_market_map:
    /^invalid_argument: HTTP 400 from GET \/api\/public\/v1\/market-map\?.*layer must be all or one of the advertised layers/,
};

let api: RecordingApi;
let session: StdioSession;
let fixtures: Fixtures;

beforeAll(async () => {
  api = await startRecordingApi();
  session = await connectStdio(['--base-url', api.url, '--no-cache']);
  const { dataset } = api.engine;
  fixtures = {
    jobIds: dataset.jobs.filter((_, i) => i % 25 === 0).map((j) => j.job.job_id),
    layers: dataset.market_map.layers,
    companies: dataset.companies.slice(0, 5).map((c) => ({ company_id: c.company_id, slug: c.slug, name: c.name })),
  };
});
afterAll(async () => {
  await session?.close();
  await api?.close();
});

const call = (name: string, args: Record<string, unknown>) =>
  session.client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

/**
 * What reaches the server is JSON: undefined members vanish and NaN becomes null. A "__proto__"
 * member is dropped by the SDK's request schema before any tool sees it (harmless: it is as if it
 * were never sent), so it is judged as absent.
 */
function overTheWire(args: Record<string, unknown>): Record<string, unknown> {
  const wire = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
  delete wire.__proto__;
  return wire;
}

describe('generated bad input through the binary', () => {
  it.each(TOOLS)(`%s: ${PER_TOOL} generated argument objects`, async (name) => {
    const samples = fc.sample(argumentsFor(name, fixtures), { seed: SEED, numRuns: PER_TOOL });
    for (const generated of samples) {
      const args = overTheWire(generated);
      const { blamed } = judge(name, args);
      const before = api.seen.length;
      const result = await call(name, args);
      const text = textOf(result);
      // The catalog check reads discovery now and then (once a minute here); that is not this call's request.
      const sent = api.seen
        .slice(before)
        .filter((request) => name === 'discover_api' || new URL(request.url).pathname !== '/api/public/v1');
      const label = `${name} ${JSON.stringify(args).slice(0, 200)} -> ${text.slice(0, 200)}`;
      if (blamed.length > 0) {
        expect(text, label).toMatch(/^invalid_argument: /);
        expect(sent, label).toEqual([]);
      } else {
        expect(sent, label).toHaveLength(1);
        expect(urlProblems(sent[0]!.url, api.url), label).toEqual([]);
        if (result.isError) expect(text, label).toMatch(UPSTREAM_OUTCOMES[name] ?? /^$/);
      }
    }
    // Still serving, and serving right.
    expect((await call('get_market_map', {})).isError).toBeFalsy();
  });
});

describe('candidate data never goes into a public search query', () => {
  it.each([
    ['search_jobs', 'ml engineer jane.doe@example.com', /e-mail address/],
    ['list_jobs', 'contact a.b+jobs@mail.example.org', /e-mail address/],
    ['search_jobs', 'rust dev +1 415 555 0100', /phone number/],
    ['list_jobs', 'call (415) 555-0100 now', /phone number/],
    ['search_jobs', 'uk 020 7946 0958', /phone number/],
  ])('%s q=%j is refused before any request', async (name, q, kind) => {
    const before = api.seen.length;
    const result = await call(name, { q });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^invalid_argument: q: must not contain an? (e-mail address|phone number): candidate data never goes into public search queries\nHint: .*nothing was sent to the API/,
    );
    expect(textOf(result)).toMatch(kind);
    expect(api.seen.length).toBe(before);
  });

  it.each([
    ['search_jobs', { q: 'jane at example dot com' }, 'q'],
    ['search_jobs', { company_type: '＋１ ４１５ ５５５ ０１００' }, 'company_type'],
    ['list_jobs', { seniority_level: '4 1 5 5 5 5 0 1 0 0' }, 'seniority_level'],
    ['search_jobs', { skills: ['rust', 'ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ'] }, 'skills[1]'],
    ['get_market_map', { layer: '٤١٥ ٥٥٥ ٠١٠٠' }, 'layer'],
    ['get_company_interview_brief', { name: 'jane(at)example(dot)com' }, 'name'],
  ])(
    '%s %j: disguised candidate data in any free-text argument is refused before any request',
    async (name, args, argument) => {
      const before = api.seen.length;
      const result = await call(name, args);
      expect(textOf(result)).toMatch(
        /^invalid_argument: (\S+): must not contain an? (e-mail address|phone number): candidate data never goes into public search queries\n/,
      );
      expect(textOf(result).startsWith(`invalid_argument: ${argument}: `)).toBe(true);
      expect(api.seen.length).toBe(before);
    },
  );

  it('ordinary terms with digits still search', async () => {
    const before = api.seen.length;
    const result = await call('search_jobs', { q: 'web3 2025' });
    expect(result.isError).toBeFalsy();
    expect(new URL(api.seen[before]!.url).searchParams.get('q')).toBe('web3 2025');
  });
});
