/**
 * The candidate-data guard: e-mail addresses and phone numbers in the forms people write them to
 * slip past a filter are refused in every free-text argument that goes into a public query string,
 * nothing is sent, and ordinary queries with numbers and symbols still pass. The cost is linear.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createOfflineEngine, type OfflineEngine } from '../../../src/offline/engine.js';
import { createOfflineFetch } from '../../../src/offline/fetch.js';
import { findCandidateData } from '../../../src/lib/candidate-data.js';
import type { ToolContext } from '../../../src/tools/define.js';
import { findTool } from '../../helpers/tools.js';
import { runTool } from '../../../src/tools/run.js';
import {
  CLEAN_PHRASES_WITH_DIGITS,
  OBFUSCATED_EMAILS,
  OBFUSCATED_PHONES,
  PERSONAL_DATA,
} from '../../helpers/argument-spec.js';
import { offlineClient } from '../../helpers/offline-client.js';

const EMAILS = [
  'jane.doe@example.com',
  'a.b+tag@mail.example.org',
  'reach me at jean-luc@my-company.co.uk please',
  'JANE.DOE@EXAMPLE.COM',
  ...OBFUSCATED_EMAILS,
  'jane (at) example.com',
  'jane@example [dot] com',
  'jane @example.com',
  'ja\u200Bne@exa\u200Bmple.com',
  'jane at example.com',
  'jane﹫example。com',
  'jane.doe@example.com .𠀀',
];

const PHONES = [
  '+1 415 555 0100',
  '(415) 555-0100',
  '415-555-0100',
  '4155550100',
  '020 7946 0958',
  '+44 20 7946 0958',
  '07700 900123',
  '+91 98765 43210',
  '98765 43210',
  '06 12 34 56 78',
  'tel:+14155550100',
  '(+44) 20 7946 0958',
  '415-555-0100x23',
  '415 555 1987',
  ...OBFUSCATED_PHONES,
  '۴۱۵ ۵۵۵ ۰۱۰۰',
  '४१५ ५५५ ०१००',
  '① ④ ① ⑤ ⑤ ⑤ ⑤ ⓪ ① ⓪ ⓪'.replace(/⓪/g, '0'),
  '4\u200B1\u200B5 555 0100',
  '415 – 555 – 0100',
  '41 55 55 01 00',
];

/** Ordinary queries that hold numbers and symbols: none may be refused. */
const CONTROLS = [
  ...CLEAN_PHRASES_WITH_DIGITS,
  'c++',
  'c++20',
  'c# .net 8',
  'c++11/14/17/20',
  'c++11/14/17/20 150000',
  'java 8 11 17 21',
  'node 16 18 20 22',
  'top 100 2025',
  'python 3 2024 2025',
  'asp.net core',
  'node.js',
  'good at next.js and vue.js',
  'python 3.12',
  'python 3.10 3.11 3.12',
  'kubernetes 1.29.3',
  'node 22 typescript 5.4',
  'oauth 2.0',
  'http/2',
  'ipv6',
  'x86-64',
  'h100 a100 gpus',
  'llama 3 70b',
  'iso 27001',
  'soc 2 type ii',
  '2024-01-15',
  'posted since 15/01/2024',
  '01.02.2024',
  '2020-2024',
  'salary 150000',
  '150000-200000',
  '100000 150000 200000',
  '$150,000 - $200,000',
  '120k-180k',
  '£90k',
  '1,000,000 users',
  '10+ years',
  '24/7 on-call',
  '9-5',
  '401k',
  'covid-19',
  'series a 50m',
  '100% remote',
  '4 day week',
  'top 10 ai labs',
  'at&t',
  'a.i. at scale',
  'work at home',
  'ml @ scale',
  '@openai',
  'engineer at openai',
  'remote at scale. great team',
  'data at rest',
  'dot net developer',
  'jane doe',
  'halcyon-labs',
  'northwind-neural-2024',
];

describe('findCandidateData', () => {
  it.each(EMAILS)('refuses the e-mail address %j', (text) => {
    expect(findCandidateData(text)).toBe('an e-mail address');
  });

  it.each(PHONES)('refuses the phone number %j', (text) => {
    expect(findCandidateData(text)).toBe('a phone number');
  });

  it.each(CONTROLS)('lets the ordinary query %j pass', (text) => {
    expect(findCandidateData(text)).toBeUndefined();
  });

  it('finds candidate data wherever it stands among ordinary words, and nothing in ordinary words alone', () => {
    const wordsOf = (...vocabulary: string[]) =>
      fc.array(fc.constantFrom(...vocabulary), { maxLength: 6 }).map((w) => w.join(' '));
    const words = wordsOf(
      'senior',
      'remote',
      'engineer',
      'rust',
      'web3',
      'c++',
      'node.js',
      'salary',
      '-',
      '(',
      ')',
      ',',
    );
    // Numbers around personal data must not hide it; around a control they would only make a longer number.
    const withNumbers = wordsOf(
      'senior',
      'remote',
      'web3',
      '2025',
      '150000',
      'python 3.12',
      'top 100',
      'java 8 11 17',
      '-',
      ',',
    );
    fc.assert(
      fc.property(
        withNumbers,
        fc.constantFrom(...EMAILS, ...PHONES, ...PERSONAL_DATA),
        withNumbers,
        (before, sample, after) => {
          expect(findCandidateData(`${before} ${sample} ${after}`)).toBeDefined();
        },
      ),
      { numRuns: 500, seed: 18 },
    );
    fc.assert(
      fc.property(words, fc.constantFrom(...CONTROLS), words, (before, control, after) => {
        expect(findCandidateData(`${before} ${control} ${after}`)).toBeUndefined();
      }),
      { numRuns: 500, seed: 18 },
    );
  }, 60_000);

  it('stays linear in the length of the input (no backtracking on long input)', () => {
    const shapes = [
      'x',
      'é',
      'a@',
      '1 ',
      '1.',
      'at dot ',
      '4-',
      '٤ ',
      '+1',
      'a.b@',
      '(at) ',
      '\u200B',
      'jane@example.com ',
    ];
    for (const shape of shapes) {
      const large = shape.repeat(Math.ceil(400_000 / shape.length));
      const started = performance.now();
      findCandidateData(large);
      const took = performance.now() - started;
      // Not a ratio of two timings, which a busy core skews either way: one bound far from both
      // sides. A linear scan of 400 KB takes tens of ms (under a second on a loaded 2-core
      // machine); a backtracking one does ~10^11 steps and takes minutes, as it once did.
      expect(took, `${JSON.stringify(shape)}: ${took.toFixed(1)} ms`).toBeLessThan(5_000);
    }
  }, 120_000);
});

describe('the guard on every free-text argument that goes into a public query string', () => {
  let engine: OfflineEngine;
  let context: ToolContext;
  const urls: string[] = [];
  beforeAll(async () => {
    engine = await createOfflineEngine();
    const offlineFetch = createOfflineFetch(engine);
    context = {
      client: offlineClient(engine, { fetch: (url, init) => (urls.push(url), offlineFetch(url, init)) }),
      mode: 'embedded',
    };
  });

  const call = async (tool: string, args: Record<string, unknown>) => {
    urls.length = 0;
    const result = await runTool(findTool(tool)!, args, context);
    return { text: (result.content[0] as { text: string }).text, sent: [...urls] };
  };

  it.each([
    ['search_jobs', 'q', 'jane at example dot com'],
    ['search_jobs', 'company_type', '＋１ ４１５ ５５５ ０１００'],
    ['search_jobs', 'seniority_level', 'jane(at)example(dot)com'],
    ['list_jobs', 'seniority_level', '4 1 5 5 5 5 0 1 0 0'],
    ['list_jobs', 'q', '٤١٥ ٥٥٥ ٠١٠٠'],
    ['get_market_map', 'layer', 'jane.doe@example.com'],
    ['get_company_interview_brief', 'name', 'Jane Doe, jane [at] example [dot] com'],
    ['get_company_interview_brief', 'company_id', '415-555-0100'],
    ['get_company_interview_brief', 'slug', 'jane-at-example-dot-com'],
  ])('%s %s %j: invalid_argument naming it, nothing sent', async (tool, argument, value) => {
    const { text, sent } = await call(tool, { [argument]: value });
    expect(text).toMatch(
      new RegExp(
        `^invalid_argument: ${argument}: must not contain (an e-mail address|a phone number): candidate data never goes into public search queries\\n`,
      ),
    );
    expect(sent).toEqual([]);
  });

  it('names the skill that holds it', async () => {
    const { text, sent } = await call('search_jobs', { skills: ['python', 'jane at example dot com'] });
    expect(text).toMatch(/^invalid_argument: skills\[1\]: must not contain an e-mail address/);
    expect(sent).toEqual([]);
  });

  it('ordinary values with numbers and symbols go through', async () => {
    for (const value of ['c++20', 'python 3.12', '2024 2025 2026', 'salary 150000']) {
      const { text, sent } = await call('search_jobs', {
        q: value,
        company_type: value,
        seniority_level: value,
        skills: [value],
      });
      // A page of jobs, or none matching: an answer either way, not a refusal.
      expect(text, value).toMatch(/^(Page |No job matches)/m);
      expect(sent).toHaveLength(1);
    }
  });
});
