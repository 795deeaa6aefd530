/**
 * What a job list with no results says: which filters were applied, and how to find values that do
 * match. It names only what is knowable (the arguments, and where valid values can be read); it
 * never guesses a label the API might accept.
 */
import { filtersInPhrase, readPhrase, suggestedSearch, type PhraseFilters } from './filter-words.js';
import { quote } from '../lib/text.js';

/** The arguments of search_jobs or list_jobs, as validated. */
export type JobListArgs = Readonly<Record<string, unknown>>;

/** Arguments that page or shape the answer rather than select jobs. */
const NOT_FILTERS = new Set(['page', 'per_page', 'include_predicted_salaries']);

/** Filters whose value must be one of the API's normalised labels, and where results show it. */
const LABELS: Record<string, string> = {
  seniority_level: 'the seniority label follows each job title that does not say it',
  company_type: "the company type follows the company's name, on its first job",
};

/** A phrase read as naming no filter: the text-only call's. */
const NO_FILTERS: PhraseFilters = { names: false, asks: false, skills: [], rest: '', regions: [] };

function shown(value: unknown): string {
  if (typeof value === 'string') return quote(value, 80);
  if (Array.isArray(value)) return `[${value.map(shown).join(', ')}]`;
  return String(value);
}

/** The search to try, as the call to make: `search_jobs {"skills":["Rust"],…}`. */
const searchCall = (args: JobListArgs, found: PhraseFilters) =>
  `search_jobs ${JSON.stringify(suggestedSearch(args, found))}`;

/** The search to try when `q` names filter values. */
export function phraseSuggestion(args: JobListArgs): string | undefined {
  const found = typeof args.q === 'string' ? filtersInPhrase(args.q) : undefined;
  return found ? searchCall(args, found) : undefined;
}

/** What to try when q, matched as text, may be what excludes every job. */
function textAdvice(q: string): string {
  const tryThis =
    q.trim().split(/\s+/).length > 1
      ? 'try fewer of its words, or each alone'
      : 'try a shorter or other form of the word (a stem, a singular)';
  return `q is matched as text (every word must appear in a title, company or skill): ${tryThis}.`;
}

export function renderNoMatch(args: JobListArgs): string {
  const filters = Object.entries(args).filter(([key, value]) => value !== undefined && !NOT_FILTERS.has(key));
  if (filters.length === 0) return 'No jobs at all: the API returned none with no filter applied.';
  const lines = [
    `No job matches all of these filters: ${filters.map(([key, value]) => `${key} ${shown(value)}`).join(', ')}.`,
  ];
  // A phrase that names filters, or only asks, gets the search to try: its filters as filters, the rest as q.
  const phrase = typeof args.q === 'string' ? readPhrase(args.q) : undefined;
  const retry = phrase?.names ? 'name filters' : phrase?.asks ? 'only ask' : undefined;
  if (retry && phrase) {
    const plain = phrase.text ? `; or, as text only: ${searchCall(args, { ...NO_FILTERS, rest: phrase.text })}` : '';
    const { regions } = phrase;
    const leftOut =
      regions.length === 0
        ? ''
        : ` (left out: ${regions.map((region) => JSON.stringify(region)).join(', ')}, ${regions.length > 1 ? 'regions' : 'a region'}: no filter takes one, location_country takes a country)`;
    lines.push(
      `q is matched as text (every word must appear in a title, company or skill), and some of its words ${retry}: try ${searchCall(args, phrase)}${leftOut}${plain}`,
    );
  }
  const labels = filters.map(([key]) => key).filter((key) => Object.hasOwn(LABELS, key));
  if (labels.length > 0) {
    lines.push(
      `${labels.join(' and ')} ${labels.length > 1 ? 'take' : 'takes'} the API's normalised labels, and a label it does not use matches nothing. ` +
        `To see the labels in use, search again without ${labels.length > 1 ? 'them' : 'it'} and read them in the results (${labels.map((key) => LABELS[key]).join('; ')}), or check what discover_api advertises.`,
    );
  }
  if (!retry) {
    if (typeof args.q === 'string') lines.push(textAdvice(args.q));
    // With q the only filter, its advice is the whole of it.
    if (filters.length > 1) lines.push('Drop or loosen one filter at a time to see which one excludes every job.');
    else if (typeof args.q !== 'string') lines.push('Loosen or drop this filter.');
  }
  return lines.join('\n');
}
