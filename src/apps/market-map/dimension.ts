/**
 * One market-map dimension's numbers. The map's data is free-form in the spec, so members are
 * read by shape: a median salary is any `median_<class>_salary_<currency>` member and is shown
 * with that class (a median with no class in its name says so), a trend any `trend_<window>_pct`.
 */
import { isRecord, num, records, str, strings, type Json } from '../shared/data.js';
import { facts, h } from '../shared/dom.js';
import { classBadge } from '../shared/salary.js';

const MEDIAN = /^median_(?:([a-z]+)_)?salary(?:_([a-z]{3}))?$/;
const TREND = /^trend_([a-z0-9]+)_pct$/;

const LAID_OUT = [
  'id',
  'label',
  'name',
  'layer',
  'readiness',
  'job_count',
  'company_count',
  'top_skills',
  'coverage',
  'note',
  'error',
  'suppressed',
  'domain_id',
];

/** The members a card lays out itself; the rest are listed as they came. */
export const isLaidOut = (key: string): boolean => LAID_OUT.includes(key) || MEDIAN.test(key) || TREND.test(key);

const READINESS_WORDS: Record<string, string> = {
  ready: 'ready',
  partial: 'partial',
  missing: 'missing: no data',
  error: 'error',
};

export function readinessBadge(readiness: string): HTMLElement {
  return h(
    'span',
    {
      class: `badge readiness readiness-${readiness in READINESS_WORDS ? readiness : 'unknown'}`,
      'data-readiness': readiness,
    },
    READINESS_WORDS[readiness] ?? `${readiness} (unrecognised)`,
  );
}

function money(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0 }).format(amount);
  } catch {
    return `${currency} ${amount}`; // a currency code Intl does not know
  }
}

function suppression(dimension: Json, field: string): string | undefined {
  const entry = records(dimension.suppressed).find((s) => s.field === field);
  return entry ? `suppressed: ${str(entry.reason) ?? 'no reason stated'}` : undefined;
}

function medians(dimension: Json): Array<readonly [string, Node | string]> {
  return Object.keys(dimension).flatMap((key) => {
    const match = MEDIAN.exec(key);
    if (!match) return [];
    const [, evidence, currency = 'usd'] = match;
    const amount = num(dimension[key]);
    const value =
      amount === undefined
        ? (suppression(dimension, key) ?? 'not stated')
        : h(
            'span',
            { class: 'salary', 'data-field': key },
            h('span', { class: 'amount' }, money(amount, currency.toUpperCase())),
            ' ',
            evidence ? classBadge(evidence) : h('span', { class: 'badge salary-unknown' }, 'class not stated'),
          );
    return [[`Median salary`, value] as const];
  });
}

function trends(dimension: Json): Array<readonly [string, Node | string]> {
  return Object.keys(dimension).flatMap((key) => {
    const match = TREND.exec(key);
    const pct = num(dimension[key]);
    if (!match || pct === undefined) return [];
    const [arrow, word] = pct > 0 ? ['▲', 'up'] : pct < 0 ? ['▼', 'down'] : ['■', 'flat'];
    return [
      [
        `Trend (${match[1]})`,
        h(
          'span',
          { class: `trend trend-${word}`, 'data-trend': pct },
          `${arrow} ${pct > 0 ? '+' : ''}${pct}% (${word})`,
        ),
      ] as const,
    ];
  });
}

function count(dimension: Json, field: string): string {
  return num(dimension[field])?.toString() ?? suppression(dimension, field) ?? 'not stated';
}

function coverage(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const sources = num(value.sources);
  const window = [str(value.observed_from), str(value.observed_to)].filter(Boolean).join(' to ');
  return (
    [sources === undefined ? undefined : `${sources} sources`, window ? `observed ${window}` : undefined]
      .filter(Boolean)
      .join(', ') || undefined
  );
}

/** The numbers a reader compares across the map stay in view; the rest folds under "More". */
export function dimensionFacts(dimension: Json, rest: HTMLElement | null): HTMLElement {
  const skills = strings(dimension.top_skills);
  // Suppressions of a number shown above are said in its place; any other gets a line of its own.
  const saidInPlace = (field = '') => field === 'job_count' || field === 'company_count' || MEDIAN.test(field);
  const others = records(dimension.suppressed).filter((s) => !saidInPlace(str(s.field)));
  const more = facts([
    ['Top skills', skills.length > 0 ? skills.join(', ') : undefined],
    ['Coverage', coverage(dimension.coverage)],
    ['Domain', str(dimension.domain_id)],
    ...others.map((s) => [str(s.field) ?? 'field', `suppressed: ${str(s.reason) ?? 'no reason stated'}`] as const),
  ]);
  return h(
    'div',
    {},
    str(dimension.error)
      ? h('p', { class: 'error-text', 'data-error': 'true' }, `Error: ${str(dimension.error)}`)
      : null,
    str(dimension.note) ? h('p', { class: 'note' }, str(dimension.note)) : null,
    facts([
      ['Jobs', count(dimension, 'job_count')],
      ['Companies', count(dimension, 'company_count')],
      ...medians(dimension),
      ...trends(dimension),
    ]),
    more.childElementCount > 0 || rest ? h('details', {}, h('summary', {}, 'More'), more, rest) : null,
  );
}
