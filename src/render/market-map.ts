/**
 * The market map's data is free-form in the spec. Dimensions that come as a list are grouped by
 * layer, one line each: readiness, then the figures it knows (counts, median salary with its class,
 * trend, skills, coverage, suppressions, note, error). A member it does not know, or of a shape it
 * does not expect, goes into the fenced upstream data, so nothing the API sent is left out.
 */
import { ageSeconds, cadenceSeconds } from '../contract/age.js';
import { timezoneState } from '../api/provenance-record.js';
import { isKnownSalaryClass, type MarketMapData } from '../contract/schemas.js';
import { describeAge, describeCadence } from '../lib/age-words.js';
import { isRecord } from '../lib/is-record.js';
import { fencedData } from '../lib/fence.js';
import { datum, quote } from '../lib/text.js';
import {
  coverageWindow,
  isNumber,
  isPlainCoverage,
  isText,
  isTextList,
  legend,
  MEDIAN,
  medianWords,
  saidAbove,
  sharedFigures,
  TREND,
  type Member,
  type Shared,
} from './market-map-shared.js';
import { shownOf } from './shown.js';

function pick(d: Member, keys: readonly string[]): [string, string] | undefined {
  for (const key of keys) if (isText(d[key])) return [key, d[key]];
  return undefined;
}

const NAME_KEYS = ['label', 'name', 'title'];
const ID_KEYS = ['id', 'key'];
const READINESS_KEYS = ['readiness', 'status'];

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
const list = (items: readonly string[]) => items.map((item) => datum(item, 40)).join(', ');
const isSuppression = (value: unknown): value is { field: string; reason: string } =>
  isRecord(value) && Object.keys(value).length === 2 && isText(value.field) && isText(value.reason);

/**
 * One dimension as a line, and the members not shown on it (for the fenced data); `shared` is what
 * is said once for all.
 */
function renderDimension(d: Member, shared: Shared): { line: string; rest: Member } {
  const used = new Set<string>(['layer']);
  const take = <T>(key: string, value: T): T => (used.add(key), value);
  const name = pick(d, NAME_KEYS);
  const id = pick(d, ID_KEYS);
  const readiness = pick(d, READINESS_KEYS);
  const tags = [
    id && take(id[0], datum(id[1], 80)),
    isText(d.domain_id) && take('domain_id', datum(d.domain_id, 20)),
  ].filter(Boolean);
  const head = `${name ? take(name[0], quote(name[1], 80)) : '(unnamed)'}${tags.length > 0 ? ` (${tags.join(', ')})` : ''}: ${readiness ? take(readiness[0], datum(readiness[1], 20)) : 'readiness not stated'}`;

  const counts: string[] = [];
  // Figures in a fixed order whatever the member order: [rank, text].
  const figures: Array<[number, string]> = [];
  for (const [key, value] of Object.entries(d)) {
    if (used.has(key)) continue;
    const median = MEDIAN.exec(key);
    const trend = TREND.exec(key);
    if ((key === 'job_count' || key === 'company_count') && (isNumber(value) || value === null)) {
      if (value !== null) counts.push(`${value} ${key === 'job_count' ? 'jobs' : 'companies'}`);
    } else if (
      median &&
      (median[1] === undefined || isKnownSalaryClass(median[1])) &&
      (isNumber(value) || value === null)
    ) {
      if (value !== null) figures.push([1, key === shared.median ? `median ${value}` : medianWords(median, value)]);
    } else if (trend && isNumber(value))
      figures.push([2, `trend ${signed(value)}%${key === shared.trend ? '' : ` (${trend[1]}d)`}`]);
    else if (key === 'top_skills' && isTextList(value)) {
      if (value.length > 0) figures.push([3, `top skills: ${list(value)}`]);
    } else if (key === 'coverage' && isPlainCoverage(value)) {
      const window = coverageWindow(value);
      const text = [
        isNumber(value.sources) ? `${value.sources} sources` : '',
        window && window !== shared.window ? `observed ${window}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      if (text) figures.push([4, text]);
    } else if (key === 'suppressed' && Array.isArray(value) && value.every(isSuppression)) {
      if (value.length > 0)
        figures.push([
          5,
          `suppressed: ${value.map((s) => `${datum(s.field, 60)} (${quote(s.reason, 120)})`).join(', ')}`,
        ]);
    } else if ((key === 'note' || key === 'error') && isText(value))
      figures.push([key === 'note' ? 6 : 7, `${key}: ${quote(value, 300)}`]);
    else continue;
    used.add(key);
  }
  figures.sort((a, b) => a[0] - b[0]);
  const parts = [head, ...(counts.length > 0 ? [counts.join(', ')] : []), ...figures.map(([, text]) => text)];
  const rest = Object.fromEntries(
    Object.entries(d).filter(([key]) => !used.has(key) || (key === 'layer' && !isText(d.layer))),
  );
  return { line: `- ${parts.join(' | ')}`, rest };
}

function groupByLayer(dimensions: readonly Member[], advertised: unknown): Map<string | undefined, Member[]> {
  const groups = new Map<string | undefined, Member[]>();
  if (isTextList(advertised)) for (const layer of advertised) groups.set(layer, []);
  for (const d of dimensions) {
    const layer = isText(d.layer) ? d.layer : undefined;
    if (!groups.has(layer)) groups.set(layer, []);
    groups.get(layer)!.push(d);
  }
  return groups;
}

/**
 * The generation metadata's age and cadence, first, so no reader takes an old map for a current
 * one: `Generated 2026-11-02 06:00:00 (no timezone stated, read as UTC), 23 days ago; weekly cadence:
 * 16 days past due, treat as stale.` A timestamp the provenance line states (`stated`) is not said twice.
 */
function renderGeneration(generation: unknown, at: number | undefined, stated?: string | null): string | undefined {
  if (!isRecord(generation) || at === undefined) return undefined;
  const generated = isText(generation.generated_at) ? generation.generated_at : undefined;
  const cadence = isText(generation.cadence) ? generation.cadence : undefined;
  if (generated === undefined && cadence === undefined) return undefined;
  const ageS = ageSeconds(generated, at);
  const noZone = timezoneState(generated) === 'not_stated';
  const when =
    generated === undefined
      ? 'Generation time not stated'
      : generated === stated
        ? `Generated ${describeAge(ageS)}`
        : `Generated ${datum(generated, 40)}${noZone ? ' (no timezone stated, read as UTC)' : ''}, ${describeAge(ageS)}`;
  return `${when}${cadence === undefined ? '' : `; ${describeCadence(datum(cadence, 30), cadenceSeconds(cadence), ageS)}`}.`;
}

/**
 * How many dimensions the map has, when its generation metadata says more than the answer holds
 * (a status or layer filter): the fenced metadata states that count beside the rows.
 */
function mapTotal(data: MarketMapData, shown: number): number {
  const stated = isRecord(data.generation) ? data.generation.dimension_count : undefined;
  return isNumber(stated) && stated > shown ? stated : shown;
}

/** Where the dimensions an answer leaves out are: a call without the filters it applied. */
function elsewhere(filters: unknown): string {
  const applied = isRecord(filters)
    ? Object.entries(filters).flatMap(([key, value]) => (isText(value) && value !== 'all' ? [datum(key, 20)] : []))
    : [];
  return applied.length > 0 ? `call without ${applied.join(' and ')}` : 'not in this answer';
}

/**
 * The map, grouped by layer; `at`, when it was retrieved, ages its generation metadata, whose
 * timestamp is not said again when it is the answer's own (`generatedAt`, on the provenance line).
 */
export function renderMarketMap(data: MarketMapData, at?: number, generatedAt?: string | null): string {
  const lines: string[] = [];
  const generation = renderGeneration(data.generation, at, generatedAt);
  if (generation) lines.push(generation);
  const fenced: Member = Object.fromEntries(
    Object.entries(data).filter(([key]) => key !== 'dimensions' || !Array.isArray(data.dimensions)),
  );
  if (Array.isArray(data.dimensions)) {
    const dimensions = data.dimensions.filter(isRecord);
    const others = data.dimensions.filter((d) => !isRecord(d));
    const counts = new Map<string, number>();
    for (const d of dimensions) {
      const readiness = pick(d, READINESS_KEYS)?.[1] ?? 'not stated';
      counts.set(readiness, (counts.get(readiness) ?? 0) + 1);
    }
    const summary = [...counts].map(([readiness, n]) => `${n} ${datum(readiness, 20)}`).join(', ');
    const total = mapTotal(data, dimensions.length);
    lines.push(
      total === 0
        ? 'Market map: no dimensions in this answer.'
        : `Market map: ${shownOf(dimensions.length, total, 'dimensions', elsewhere(data.filters), summary && ` (${summary}), by layer`)}.`,
    );
    const shared = sharedFigures(dimensions);
    const said = legend(shared);
    if (said) lines.push(said);
    const unshown: Member[] = [];
    const headed = new Set<unknown>();
    for (const [layer, members] of groupByLayer(dimensions, data.layers)) {
      if (members.length === 0) continue;
      headed.add(layer);
      lines.push(`Layer ${layer === undefined ? 'not stated' : datum(layer, 40)} (${members.length}):`);
      for (const d of members) {
        const { line, rest } = renderDimension(d, shared);
        lines.push(line);
        const id = pick(d, ID_KEYS);
        // Keyed by the dimension's id, so the reader knows whose members these are.
        if (Object.keys(rest).length > 0) unshown.push({ ...(id ? { [id[0]]: id[1] } : {}), ...rest });
      }
    }
    saidAbove(fenced, counts, total, headed, generation !== undefined);
    if (unshown.length > 0) fenced.dimension_members_not_shown_above = unshown;
    if (others.length > 0) fenced.dimensions_that_are_not_objects = others;
  }
  if (Object.keys(fenced).length > 0)
    lines.push(`Other market-map data (upstream data):\n${fencedData(fenced, 2_500)}`);
  return lines.length > 0 ? lines.join('\n') : 'The market map is empty.';
}
