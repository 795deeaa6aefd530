/**
 * What the market map's lines say once for all, and what its fenced data need not say again: the
 * figures every dimension shares (the coverage window, the medians' salary class and currency, the
 * trends' window), and the map's own summary members that the lines above already state.
 */
import { timezoneState } from '../api/provenance-record.js';
import { isKnownSalaryClass } from '../contract/schemas.js';
import { isRecord } from '../lib/is-record.js';
import { datum } from '../lib/text.js';

export type Member = Record<string, unknown>;

export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
export const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

// `median_disclosed_salary_usd`: the class the median was computed from is in the member's name.
export const MEDIAN = /^median_(?:([a-z]+)_)?salary_([a-z]{3})$/;
export const TREND = /^trend_(\d{1,4})d_pct$/;

export const isTextList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

export function coverageWindow(coverage: Member): string | undefined {
  const { observed_from: from, observed_to: to } = coverage;
  return isText(from) && isText(to) ? `${datum(from, 30)} to ${datum(to, 30)}` : undefined;
}

/** Coverage with only the members it is known to have (a source count, a complete window), and some. */
export function isPlainCoverage(value: unknown): value is Member {
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  const hasWindow = 'observed_from' in value || 'observed_to' in value;
  return (
    keys.length > 0 &&
    keys.every((key) => ['sources', 'observed_from', 'observed_to'].includes(key)) &&
    (value.sources === undefined || isNumber(value.sources)) &&
    (!hasWindow || coverageWindow(value) !== undefined)
  );
}

/** The coverage window, when every dimension that states coverage states the same one. */
function sharedCoverageWindow(dimensions: readonly Member[]): string | undefined {
  const windows = new Set(
    dimensions.filter((d) => isPlainCoverage(d.coverage)).map((d) => coverageWindow(d.coverage as Member)),
  );
  const [only] = windows;
  return windows.size === 1 ? only : undefined;
}

/**
 * What every dimension's line would repeat, said once above them: the coverage window, the salary
 * class and currency of the medians, the window of the trends.
 */
export interface Shared {
  window?: string | undefined;
  median?: string | undefined;
  trend?: string | undefined;
}

/** The one key every dimension that shows a figure `shown` reads shows it under, if they are two or more. */
function sharedKey(dimensions: readonly Member[], shown: (key: string) => boolean): string | undefined {
  const keys = dimensions.flatMap((d) => Object.keys(d).filter((key) => shown(key) && isNumber(d[key])));
  return keys.length > 1 && new Set(keys).size === 1 ? keys[0] : undefined;
}

const shownMedian = (key: string) => {
  const median = MEDIAN.exec(key);
  return median !== null && (median[1] === undefined || isKnownSalaryClass(median[1]));
};

/** The line that says what `shared` leaves out of each dimension's line. */
export function legend({ window, median, trend }: Shared): string | undefined {
  const parts = [
    median && `median = ${medianWords(MEDIAN.exec(median)!)}`,
    trend && `trend = change over ${TREND.exec(trend)![1]} days`,
    window && `sources observed ${window}`,
  ].filter(Boolean);
  return parts.length > 0 ? `On each line: ${parts.join('; ')}.` : undefined;
}

/**
 * The map's own summary members, when the lines above already say all of it: the readiness counts,
 * filters that filter nothing, layers that each have a heading, the generation metadata's age and
 * cadence (when its line was said) and dimension count. Whatever else they hold stays fenced.
 */
export function saidAbove(
  fenced: Member,
  counts: Map<string, number>,
  total: number,
  headed: Set<unknown>,
  aged: boolean,
) {
  const { readiness, filters, layers, generation } = fenced;
  const sameCounts =
    isRecord(readiness) &&
    Object.entries(readiness).every(([key, n]) => (key === 'total' ? n === total : (counts.get(key) ?? 0) === n)) &&
    [...counts].every(([key, n]) => readiness[key] === n);
  if (sameCounts) delete fenced.readiness;
  if (isRecord(filters) && Object.values(filters).every((value) => value === 'all')) delete fenced.filters;
  if (isTextList(layers) && layers.every((layer) => headed.has(layer))) delete fenced.layers;
  if (!isRecord(generation)) return;
  const rest = { ...generation };
  if (aged) {
    const stated = isText(rest.generated_at) ? timezoneState(rest.generated_at) === 'stated' : undefined;
    if (rest.timezone_stated === stated) delete rest.timezone_stated;
    delete rest.generated_at;
    delete rest.cadence;
  }
  if (rest.dimension_count === total) delete rest.dimension_count;
  if (Object.keys(rest).length > 0) fenced.generation = rest;
  else delete fenced.generation;
}

/** The words a median is said in: its currency, amount and salary class. */
export function medianWords(match: RegExpExecArray, value?: number): string {
  return `median salary ${match[2]!.toUpperCase()}${value === undefined ? '' : ` ${value}`} [${match[1] ?? 'class not stated'}]`;
}

/** What every dimension's line would repeat, for `dimensions`. */
export function sharedFigures(dimensions: readonly Member[]): Shared {
  return {
    window: sharedCoverageWindow(dimensions),
    median: sharedKey(dimensions, shownMedian),
    trend: sharedKey(dimensions, (key) => TREND.test(key)),
  };
}
