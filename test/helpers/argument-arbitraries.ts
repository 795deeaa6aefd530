/**
 * fast-check generators of tool arguments: mostly values the spec allows (so that most calls do
 * reach the API and the URLs it sees can be checked), and for the rest everything a client or a
 * confused model might send: boundary lengths and numbers on both sides of every limit, wrong
 * types, stringified JSON, empty and 1 MB strings, control, invisible and bidi characters, lone
 * surrogates, URL metacharacters, and keys such as `__proto__` and `constructor`.
 */
import fc from 'fast-check';
import { CLEAN_PHRASES_WITH_DIGITS, PERSONAL_DATA, TOOL_ARGUMENTS } from './argument-spec.js';

const MB = 1024 * 1024;
/** Built once: generating a 1 MB string per run would make the suite slow for no gain. */
const HUGE = fc.constantFrom('x'.repeat(MB), 'é'.repeat(MB), 'a@'.repeat(MB / 2), '1'.repeat(MB), '\u200B'.repeat(MB));

const AWKWARD = [
  '\u0000',
  '\u0007',
  '\u001B',
  '\u007F',
  '\u0085',
  '\u00AD',
  '\u200B',
  '\u200D',
  '\u202E',
  '\u2066',
  '\uFEFF',
  '\u2028',
  '\uD800',
  '\uDFFF',
  '\uFFFF',
  '日',
  'é',
  '🙂',
  '\n',
  '\t',
  ' ',
  '"',
  "'",
  '\\',
  '/',
  '?',
  '#',
  '&',
  '=',
  '%',
  '+',
  ',',
  ';',
  '<',
  '>',
];
const anyChar = fc.oneof(
  fc.constantFrom(...AWKWARD),
  fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);
/**
 * No digit of any script and no '@', nor anything NFKC folds into one (＠, ４, ①): personal data
 * enters a free-text argument only through the planted samples.
 */
const textChar = anyChar.map((c) => (/[\p{Nd}@]/u.test(c.normalize('NFKC')) ? 'x' : c));

/**
 * Strings of `length` characters (code points, as the spec and zod count them): a random head of at
 * most 24, padded with 'x' (generating hundreds of random characters per value made runs slow).
 */
const exactly = (char: fc.Arbitrary<string>, length: number) =>
  fc.array(char, { maxLength: Math.min(length, 24) }).map((head) => {
    const text = head.join('');
    return text + 'x'.repeat(Math.max(0, length - [...text].length));
  });

/** Lengths on both sides of each limit, and anything in between. */
function text(min: number, max: number, char = anyChar): fc.Arbitrary<string> {
  const edges = [min - 1, min, min + 1, max - 1, max, max + 1].filter((n) => n >= 0);
  return fc.oneof(
    fc.constantFrom(...edges).chain((n) => exactly(char, n)),
    fc.integer({ min, max }).chain((n) => exactly(char, n)),
  );
}

/** Wrong types, JSON text where a value is expected, and JSON-less values only a library caller can send. */
const wrongType = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    undefined,
    true,
    false,
    0,
    -1,
    1.5,
    NaN,
    Infinity,
    -Infinity,
    -0,
    [],
    {},
    '',
    '20',
    'true',
    'null',
    '[1]',
    '{"q":"rust"}',
    '["python"]',
  ),
  fc.double(),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue(), { maxKeys: 2 }),
  fc.string({ maxLength: 6 }),
);

/** Mostly spec-valid values, then the edge cases, then wrong types and huge strings. */
const mix = (valid: fc.Arbitrary<unknown>, edgy: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 6, arbitrary: valid },
    { weight: 3, arbitrary: edgy },
    { weight: 1, arbitrary: wrongType },
    { weight: 1, arbitrary: HUGE },
  );

const enumOf = (values: string[]) =>
  mix(
    fc.constantFrom(...values),
    fc.oneof(
      fc.constantFrom(...values.map((v) => v.toUpperCase()), ...values.map((v) => ` ${v}`), '', 'other'),
      text(0, 8),
    ),
  );
const bool = mix(fc.boolean(), fc.constantFrom<unknown>('true', 'false', 1, 0, 'yes', null));
const salary = mix(
  fc.oneof(
    fc.integer({ min: 0, max: 500_000 }),
    fc.double({ min: 0, max: 1e7, noNaN: true }),
    fc.constantFrom(0, 0.01, 150_000.5),
  ),
  fc.constantFrom(-1, -0.01, -0, 1e-7, 5e-324, 1e21, 1e308, Number.MAX_SAFE_INTEGER + 2),
);
const integer = (min: number, max: number) =>
  mix(
    fc.integer({ min, max }),
    fc.oneof(
      fc.constantFrom(min - 1, max + 1, 1.5, 2 ** 53, 1e21, -1),
      fc.integer({ min: -5, max: Math.min(max, 1_000) + 5 }),
    ),
  );

/** A free-text argument of `min`-`max` characters: mostly text or `known` values, else edge lengths and planted personal data. */
function freeText(min: number, max: number, known: readonly string[]): fc.Arbitrary<unknown> {
  const planted = fc
    .tuple(text(0, 40, textChar), fc.constantFrom(...PERSONAL_DATA), text(0, 40, textChar))
    .map(([a, pii, b]) => `${a} ${pii} ${b}`);
  return mix(
    fc.oneof(text(min, max, textChar), fc.constantFrom(...known, ...CLEAN_PHRASES_WITH_DIGITS)),
    fc.oneof(planted, text(Math.max(0, min - 1), max + 1, textChar)),
  );
}

export interface Fixtures {
  jobIds: string[];
  layers: string[];
  companies: Array<{ company_id: number; slug: string; name: string }>;
}

/** A generator for one argument's value. */
export function valueOf(name: string, fx: Fixtures): fc.Arbitrary<unknown> {
  switch (name) {
    case 'q':
      return freeText(1, 200, []);
    case 'domain':
      return enumOf(['ai', 'web3']);
    case 'skill_match':
      return enumOf(['any', 'all']);
    case 'status':
      return enumOf(['all', 'ready', 'partial', 'missing', 'error']);
    case 'skills':
      return mix(
        fc.array(
          fc.oneof(
            fc.constantFrom('Python', 'Rust', 'solidity', 'C++', 'LLM APIs'),
            text(1, 60, textChar).map((s) => s.replace(/,/g, ';')),
          ),
          { minLength: 1, maxLength: 20 },
        ),
        fc.oneof(
          fc
            .integer({ min: 0, max: 21 })
            .chain((n) =>
              fc.array(fc.constantFrom('python', 'a,b', '', 'x'.repeat(61), ' '), { minLength: n, maxLength: n }),
            ),
          fc.array(wrongType, { minLength: 1, maxLength: 2 }),
          fc.tuple(fc.constantFrom('python', 'rust'), fc.constantFrom(...PERSONAL_DATA)),
        ),
      );
    case 'company_type':
    case 'seniority_level':
      return freeText(1, 60, ['senior', 'staff', 'ai_lab', 'startup']);
    case 'layer':
      return freeText(1, 60, [...fx.layers, 'all']);
    case 'remote_only':
    case 'include_predicted_salaries':
      return bool;
    case 'location_country':
      return mix(
        fc.oneof(fc.constantFrom('US', 'us', 'Gb', 'DE'), fc.stringMatching(/^[A-Za-z]{2}$/)),
        fc.oneof(
          fc.constantFrom('', 'U', 'USA', 'U1', '12', 'ÜS', 'U S', ' US', 'US\n', 'ＵＳ'),
          fc.string({ unit: 'grapheme-ascii', maxLength: 3 }),
        ),
      );
    case 'min_salary_usd':
    case 'max_salary_usd':
      return salary;
    case 'page':
      return integer(1, 50);
    case 'per_page':
      return integer(1, 100);
    case 'job_id':
      return mix(
        fc.oneof(fc.constantFrom(...fx.jobIds), text(1, 200)),
        fc.oneof(
          fc.constantFrom('.', '..', '', '%2e%2e', '../market-map', 'job/../x', '?x=1', '#f', 'a/b', 'x'.repeat(201)),
          text(0, 201),
        ),
      );
    case 'company_id':
      return fc.oneof(
        freeText(
          1,
          200,
          fx.companies.map((c) => String(c.company_id)),
        ),
        // The integer a job carries as company.id, others (short: a long run of digits could be a
        // phone number), and fractions.
        fc.oneof(
          fc.constantFrom(...fx.companies.map((c) => c.company_id)),
          fc.integer({ min: -99_999, max: 999_999 }),
          fc.double({ min: -1e6, max: 1e6 }),
        ),
      );
    case 'slug':
      // Letters only in the generated segments: a long run of random digits could be a phone number.
      return mix(
        fc.oneof(
          fc.constantFrom(...fx.companies.map((c) => c.slug), 'acme-2024', 'web3-labs'),
          fc.stringMatching(/^[a-z]{1,20}(-[a-z]{1,20}){0,3}$/),
        ),
        fc.oneof(
          fc.constantFrom(
            '',
            '-a',
            'a-',
            'a--b',
            'Acme',
            'a_b',
            'é',
            'a b',
            'x'.repeat(160),
            'x'.repeat(161),
            'jane-at-example-dot-com',
            '415-555-0100',
          ),
          text(0, 161, textChar),
        ),
      );
    case 'name':
      return freeText(
        1,
        160,
        fx.companies.map((c) => c.name),
      );
    default:
      throw new Error(`no generator for argument ${name}`);
  }
}

/** Keys no tool takes, including the ones that reach for an object's prototype. */
const EXTRA_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'query',
  'Q',
  'q ',
  'per-page',
  'jobId',
  '',
  'x\ny',
  'bidi\u202Ekey',
  'k'.repeat(5_000),
];

/** Arguments for one tool: a subset of its own (each maybe wrong), now and then a key it does not take. */
export function argumentsFor(tool: string, fx: Fixtures): fc.Arbitrary<Record<string, unknown>> {
  const { accepted } = TOOL_ARGUMENTS[tool]!;
  const others = Object.keys(TOOL_ARGUMENTS)
    .flatMap((t) => TOOL_ARGUMENTS[t]!.accepted)
    .filter((k) => !accepted.includes(k));
  // Built once, outside chain(): building arbitraries (fc.stringMatching above all) per run was most of the time.
  const values = new Map(accepted.map((key) => [key, valueOf(key, fx)]));
  const own = fc
    .subarray(accepted, { maxLength: Math.min(4, accepted.length) })
    .chain((keys) =>
      fc.tuple(...keys.map((key) => values.get(key)!)).map((picked) => keys.map((key, i) => [key, picked[i]] as const)),
    );
  const extra = fc.oneof(
    { weight: 8, arbitrary: fc.constant([]) },
    {
      weight: 2,
      arbitrary: fc.array(fc.tuple(fc.constantFrom(...EXTRA_KEYS, ...others), fc.jsonValue()), {
        minLength: 1,
        maxLength: 2,
      }),
    },
  );
  // Object.fromEntries defines own properties, so "__proto__" arrives as a key, as JSON.parse makes it.
  return fc.tuple(own, extra).map(([entries, extras]) => Object.fromEntries([...entries, ...extras]));
}
