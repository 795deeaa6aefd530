/**
 * Issue 44, point 1: a count in an answer's text goes with its rows. Every tool, ours and those
 * bridged from the offline deployment's hosted surface, is called on the offline data with
 * arguments that give more rows than a text shows; each count the text states is read back and
 * checked against the rows the text shows and against structuredContent: the text shows as many
 * as it says, or says how many it shows, how many there are, and where the others are.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createBackend } from '../../../src/app/backend.js';
import { createOfflineDeployment } from '../../../src/app/offline-deployment.js';
import { resolveConfig } from '../../../src/config/config.js';
import type { HostedTool } from '../../../src/hosted/admit.js';
import type { HostedAnswer } from '../../../src/hosted/bridge.js';
import { HOSTED_CAPS } from '../../../src/hosted/caps.js';
import { silentLogger } from '../../../src/obs/log.js';
import { hostedResult } from '../../../src/render/hosted-answer.js';
import { exposedTools, type Backend } from '../../../src/tools/backend.js';
import { runTool } from '../../../src/tools/run.js';

/** What a text says of one list: how many it shows, of how many, and where the others are. */
interface Stated {
  shown: number;
  total: number;
  rest?: string;
}

/** One list in one answer: what the text states (if anything), the rows it shows, and what structuredContent holds. */
interface Reading {
  what: string;
  stated?: Stated;
  textRows: number;
  /** The whole list's size by structuredContent (an array's length, or the total it states). */
  total: number;
}

type Structured = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each tool's data

const lines = (text: string) => text.split('\n');
/** Lines outside any fence: our own words. */
const ours = (text: string) => lines(text.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, ''));
/** The first fenced block's lines: the deployment's (or the API's) words. */
const fenced = (text: string) => lines(/^(`{3,})[^\n]*\n([\s\S]*?)\n\1$/m.exec(text)?.[2] ?? '');
const count = (rows: string[], pattern: RegExp) => rows.filter((line) => pattern.test(line)).length;

/**
 * The shared wording (render/shown.ts), anywhere in `line`: `9 benchmark rows` (all shown) or
 * `10 of 179 benchmark rows shown, …; the other 169: where they are`.
 */
function statedIn(line: string | undefined, noun: string): Stated | undefined {
  if (line === undefined) return undefined;
  const cut = new RegExp(`(\\d+) of (\\d+) ${noun} shown[^;]*; the other (\\d+): ([^.\\n]+)`).exec(line);
  if (cut) {
    expect(Number(cut[3]), `"the other N" in: ${line}`).toBe(Number(cut[2]) - Number(cut[1]));
    return { shown: Number(cut[1]), total: Number(cut[2]), rest: cut[4]! };
  }
  const all = new RegExp(`\\b(\\d+) ${noun}`).exec(line);
  return all ? { shown: Number(all[1]), total: Number(all[1]) } : undefined;
}

/**
 * A page of jobs: `Page 2 of 66, 328 total (jobs 6–10); next: same arguments with page=3`, or the
 * line for a page past the last; the others are on the pages it names.
 */
const jobPage = (text: string, s: Structured): Reading => {
  // Nothing matched at all: no page line, the count is said by the line that says no job matches.
  if (s.data.pagination.total === 0 && s.data.pagination.page === 1) {
    expect(text).toMatch(/^(No job matches all of these filters|No jobs at all)/m);
    return { what: 'jobs', stated: { shown: 0, total: 0 }, textRows: count(ours(text), /^\d+\. job_/), total: 0 };
  }
  const line = ours(text).find((l) => l.startsWith('Page '))!;
  const page = /^Page (\d+) of \d+, (\d+) total \((?:jobs (\d+)–(\d+)|no jobs on this page)\)(?:; (next: [^.]+))?/.exec(
    line,
  );
  const past = /^Page \d+ is past the last page: (\d+) total in \d+ page\(s\) of \d+; (ask for page [^.]+)/.exec(line);
  expect(page ?? past, line).not.toBeNull();
  const earlier = page && Number(page[1]) > 1 ? `pages 1–${Number(page[1]) - 1}` : undefined;
  const rest = page ? [page[5], earlier].filter(Boolean).join('; ') || undefined : past![2];
  return {
    what: 'jobs',
    stated: {
      shown: page?.[3] ? Number(page[4]) - Number(page[3]) + 1 : 0,
      total: Number(page ? page[2] : past![1]),
      ...(rest ? { rest } : {}),
    },
    textRows: count(ours(text), /^\d+\. job_/),
    total: s.data.pagination.total,
  };
};

/** How each tool's text is read: the lists it holds. */
const READERS: Record<string, (text: string, s: Structured) => Reading[]> = {
  search_jobs: (text, s) => [
    jobPage(text, s),
    { what: 'jobs on this page', textRows: count(ours(text), /^\d+\. job_/), total: s.data.jobs.length },
  ],
  list_jobs: (text, s) => [
    jobPage(text, s),
    { what: 'jobs on this page', textRows: count(ours(text), /^\d+\. job_/), total: s.data.jobs.length },
  ],
  get_job: (text, s) => [
    {
      what: 'skills',
      textRows:
        ours(text)
          .find((l) => l.startsWith('skills: '))
          ?.split(', ').length ?? 0,
      total: s.data.skills.length,
    },
  ],
  get_market_map: (text, s) => {
    const mine = ours(text);
    const readings: Reading[] = [
      {
        what: 'dimensions',
        stated: statedIn(
          mine.find((l) => l.startsWith('Market map: ')),
          'dimensions',
        ),
        textRows: count(mine, /^- /),
        // The map's own count, which the fenced generation metadata states beside the rows.
        total: s.data.generation?.dimension_count ?? s.data.dimensions.length,
      },
    ];
    // Each layer's heading counts the rows under it.
    mine.forEach((line, i) => {
      const layer = /^Layer (.+) \((\d+)\):$/.exec(line);
      if (!layer) return;
      const end = mine.findIndex((l, j) => j > i && !l.startsWith('- '));
      readings.push({
        what: `layer ${layer[1]}`,
        stated: { shown: Number(layer[2]), total: Number(layer[2]) },
        textRows: (end < 0 ? mine.length : end) - i - 1,
        total: s.data.dimensions.filter((d: Structured) => d.layer === layer[1]).length,
      });
    });
    return readings;
  },
  get_company_interview_brief: (text, s) => {
    const said = Number(/^ {2}evidence_count: (\d+)$/m.exec(text)?.[1]);
    return [
      {
        what: 'evidence',
        stated: { shown: said, total: said },
        textRows: count(fenced(text), /^ *- claim: /),
        total: s.data.evidence.length,
      },
    ];
  },
  discover_api: (text, s) => [
    {
      what: 'endpoints',
      stated: statedIn(/^Endpoints \((\d+);/m.exec(text)?.[0].replace(/\((\d+);/, '$1 endpoints'), 'endpoints'),
      textRows: count(ours(text), /^- (?:GET|POST|PUT|PATCH|DELETE|HEAD) /),
      total: s.data.endpoints.length,
    },
  ],
  check_api_health: (text, s) => {
    const mine = ours(text);
    const probes = /(\d+) of (\d+) probes passing/.exec(text)!;
    const bridged =
      /Hosted tools: (\d+) bridged[^:]*(?:\(in-process\))?[^:]*, read at [^:]+:\d+:[\d.]+Z(?:: (.+))?\.$/m.exec(text);
    return [
      {
        what: 'probes',
        stated: { shown: Number(probes[2]), total: Number(probes[2]) },
        textRows: count(mine, /^- (?:ok|FAILING): /),
        total: s.data.probes.length,
      },
      {
        what: 'passing probes',
        stated: { shown: Number(probes[1]), total: Number(probes[1]) },
        textRows: count(mine, /^- ok: /),
        total: s.data.probes.filter((p: Structured) => p.ok).length,
      },
      {
        what: 'bridged tools',
        stated: { shown: Number(bridged?.[1]), total: Number(bridged?.[1]) },
        textRows: bridged?.[2]?.split(', ').length ?? 0,
        total: s.server.bridge.bridged.length,
      },
    ];
  },
  get_compensation_benchmarks: (text, s) => [
    {
      what: 'benchmark rows',
      stated: statedIn(fenced(text).join('\n'), 'benchmark rows'),
      textRows: (
        fenced(text)
          .join('\n')
          .match(/\((?:[^,()]+), (?:disclosed|extracted|predicted)\): median \$[\d,]+ a year, from \d+ postings?/g) ??
        []
      ).length,
      total: s.data.benchmarks.length,
    },
  ],
  get_company_funding: (text, s) => [
    {
      what: 'rounds',
      textRows: (
        fenced(text)
          .join('\n')
          .match(/\b(?:Seed|Series [A-Z]) \d{4}-\d{2}-\d{2} \$\d+/g) ?? []
      ).length,
      total: s.data.rounds.length,
    },
  ],
  list_frontier_ai_evidence: (text, s) => [
    {
      what: 'evidence items',
      stated: statedIn(fenced(text).join('\n'), 'evidence items'),
      textRows: count(fenced(text), /^- \d{4}-\d{2}-\d{2} [a-z_]+: /),
      total: s.data.matching ?? s.data.items.length,
    },
  ],
};

/** Representative calls: among them, ones that give more rows than a text shows. */
const CALLS: Array<[string, Record<string, unknown>]> = [
  ['search_jobs', { q: 'engineer' }],
  ['search_jobs', { q: 'engineer', page: 2, per_page: 5 }],
  ['search_jobs', { q: 'rust', per_page: 50 }],
  ['search_jobs', { q: 'nothing-matches-this' }],
  ['list_jobs', { per_page: 3 }],
  ['list_jobs', { page: 999 }],
  ['get_job', { job_id: 'job_ai_0001' }],
  ['get_market_map', {}],
  ['get_market_map', { status: 'ready', layer: 'compute' }],
  ['get_market_map', { status: 'missing' }],
  ['get_company_interview_brief', { company_id: 1001 }],
  ['discover_api', {}],
  ['check_api_health', {}],
  ['get_compensation_benchmarks', {}],
  ['get_compensation_benchmarks', { role: 'Machine Learning Engineer' }],
  ['get_compensation_benchmarks', { role: 'Machine Learning Engineer', seniority_level: 'senior' }],
  ['get_compensation_benchmarks', { role: 'ML Engineer' }],
  ['get_company_funding', { company: '1001' }],
  ['get_company_funding', { company: 'northwind-neural' }],
  ['list_frontier_ai_evidence', {}],
  ['list_frontier_ai_evidence', { limit: 50 }],
  ['list_frontier_ai_evidence', { limit: 2, kind: 'evaluation' }],
];

const textOf = (result: CallToolResult) => result.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');

describe('counts and rows agree, for every tool on the offline data', () => {
  let backend: Backend;
  beforeAll(async () => {
    const config = resolveConfig({ offline: true }, {});
    backend = createBackend(config, silentLogger, { deployment: () => createOfflineDeployment(config, silentLogger) });
    await backend.bridge!.settled(30_000);
  });

  it('calls every tool offered, ours and the bridged ones', () => {
    expect(new Set(CALLS.map(([name]) => name))).toEqual(new Set(exposedTools(backend).map((t) => t.name)));
    expect(Object.keys(READERS).sort()).toEqual([...new Set(CALLS.map(([name]) => name))].sort());
  });

  it.each(CALLS)(
    '%s %j: each count stated is the rows shown, or says how many are shown and where the rest are',
    async (name, args) => {
      const tool = exposedTools(backend).find((t) => t.name === name)!;
      const result = await runTool(tool, args, { client: backend.client, mode: backend.mode, bridge: backend.bridge });
      const text = textOf(result);
      expect(result.isError, text).toBeFalsy();
      const structured = result.structuredContent as Structured;
      for (const reading of READERS[name]!(text, structured)) {
        const where = `${reading.what} in:\n${text}`;
        const { stated } = reading;
        if (stated === undefined) {
          // No count said: then every row is shown.
          expect(reading.textRows, where).toBe(reading.total);
          continue;
        }
        expect(stated.shown, `rows the text says it shows, ${where}`).toBe(reading.textRows);
        expect(stated.total, `the count the text states against structuredContent, ${where}`).toBe(reading.total);
        if (stated.shown < stated.total) expect(stated.rest, `where the others are, ${where}`).toMatch(/\S/);
      }
    },
  );
});

describe('a hosted answer cut at its cap', () => {
  const tool = (output?: z.ZodType): HostedTool => ({
    name: 'list_rows',
    title: 'Rows',
    description: '',
    inputSchema: { type: 'object' },
    input: z.object({}),
    ...(output ? { output } : {}),
  });
  const rows = Array.from({ length: 2_000 }, (_, i) => `- row ${i}`);
  const answer = (structuredContent?: Record<string, unknown>): HostedAnswer => ({
    result: {
      content: [{ type: 'text', text: `${rows.length} rows.\n${rows.join('\n')}` }],
      ...(structuredContent ? { structuredContent } : {}),
    },
    endpoint: 'https://api.example.com/api/public/v1/mcp?surface=market',
    retrievedAt: '2026-11-27T00:00:00Z',
  });

  it('says where the rest is: in structuredContent when it is passed on, else nowhere', () => {
    const kept = hostedResult(tool(z.object({ rows: z.array(z.string()) })), answer({ rows }), 'http');
    expect(kept.structuredContent).toEqual({ rows });
    expect(textOf(kept)).toContain(
      `… (cut at ${HOSTED_CAPS.textChars} characters; the rest of the text is not passed on; structuredContent is passed on whole)`,
    );
    expect(textOf(hostedResult(tool(), answer(), 'http'))).toContain(
      `… (cut at ${HOSTED_CAPS.textChars} characters; the rest of the text is not passed on)`,
    );
  });
});
