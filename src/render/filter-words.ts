/**
 * Words in a search phrase that name a structured filter's value. Models send phrases like "remote
 * senior rust engineer" as `q`, which the API matches as text (every term must appear), so it finds
 * little; the same words as filters find the jobs. Only known filter values are read: the seniority
 * labels and skills the embedded data uses (the API's own), the two domains, `remote`, pay in USD a
 * year, and a country by its English name.
 */
import { extraSkills, roles } from '../contract/vocabulary.json';
import { escapeRegExp } from '../lib/text.js';
import { readPay } from './pay-words.js';
import { readPlaces } from './place-words.js';

const SENIORITY: Record<string, string> = {
  junior: 'junior',
  jr: 'junior',
  mid: 'mid',
  'mid-level': 'mid',
  'entry-level': 'junior',
  senior: 'senior',
  sr: 'senior',
  staff: 'staff',
  principal: 'principal',
  lead: 'lead',
};

const DOMAIN: Record<string, 'ai' | 'web3'> = { ai: 'ai', web3: 'web3', crypto: 'web3', blockchain: 'web3' };

const REMOTE = new Set(['remote']);

/**
 * Words that only make a phrase read as a sentence or a request ("who is hiring … right now?"):
 * dropped from the suggested `q`, where the API would need each of them in a job's text.
 */
const FILLER = new Set([
  'who',
  'what',
  'which',
  'where',
  'is',
  'are',
  'there',
  'any',
  'i',
  'im',
  'me',
  'my',
  'find',
  'show',
  'looking',
  'hiring',
  'recruiting',
  'companies',
  'open',
  'vacancies',
  'gigs',
  'right',
  'now',
  'a',
  'an',
  'the',
  'in',
  'for',
  'with',
  'and',
  'of',
  'at',
  'on',
  'job',
  'jobs',
  'role',
  'roles',
  'position',
  'positions',
  'opening',
  'openings',
  'opportunities',
]);

/**
 * A job's title names one engineer, and the API matches whole words: "engineers" finds no "Senior
 * Engineer", so the suggested `q` asks for the one.
 */
const singular = (word: string) => (/(?:er|or|ist)s$/.test(word) ? word.slice(0, -1) : word);

/** A phrase's words, each without its own punctuation ("sr.", "now?"); a skill's ("node.js", "c++") stays. */
const wordsOf = (text: string) =>
  text
    .split(/[\s,;/]+/)
    .map((raw) => raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}+#]+$/gu, '').replace(/'/g, ''))
    .filter(Boolean);

/**
 * Every skill name the embedded data uses, as the whole-word pattern of its lower-case form (a
 * skill may hold spaces or dots: "node.js"), longest first (so "llm apis" wins over "llm"). Built
 * once: every search with a `q` runs through them.
 */
const SKILLS: ReadonlyArray<readonly [RegExp, string]> = [
  ...new Set([...roles.ai, ...roles.web3].flatMap((role) => role.skills).concat(extraSkills)),
]
  .sort((a, b) => b.length - a.length)
  .map((skill) => [new RegExp(`(?<=[\\s,;/])${escapeRegExp(skill.toLowerCase())}(?=[\\s,;/])`), skill] as const);

export interface PhraseFilters {
  /** Whether the phrase names a filter value at all. */
  names: boolean;
  /**
   * Whether it names none but asks rather than names ("who is hiring engineers"): `rest` is then the
   * plainer `q` ("engineer").
   */
  asks: boolean;
  skills: string[];
  seniority_level?: string;
  remote_only?: true;
  domain?: 'ai' | 'web3';
  min_salary_usd?: number;
  max_salary_usd?: number;
  location_country?: string;
  /** What is left of the phrase once the filter words are taken out ('' when nothing is). */
  rest: string;
  /**
   * The phrase as text only, when that is another search worth trying: a skill it names may be a
   * title word ("security researchers": Security is a skill, and a title word of "Security
   * Researcher"). Its asking words out, each role singular; only where it names no filter that
   * text cannot find (pay, a country, remote, a domain).
   */
  text?: string;
  /** Region words taken out of the phrase (place-words.ts), to be said. */
  regions: string[];
}

/** The filters besides skills a phrase may name, in the order a suggested call lists them. */
const NAMED = [
  'seniority_level',
  'remote_only',
  'domain',
  'location_country',
  'min_salary_usd',
  'max_salary_usd',
] as const satisfies ReadonlyArray<keyof PhraseFilters>;

/** The filter values a phrase names, or undefined when it names none. */
export function filtersInPhrase(q: string): PhraseFilters | undefined {
  const found = readPhrase(q);
  return found.names ? found : undefined;
}

/** What a phrase names (its filter values) and what is left of it. */
export function readPhrase(q: string): PhraseFilters {
  // "entry level" is one word to read, as "entry-level" is.
  const phrase = q
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\b(entry|mid) level\b/g, '$1-level')
    .trim();
  // Pay and places first: an amount ("150k") or a country's name is never a skill or a word of q.
  const paid = readPay(` ${phrase} `);
  const { rest: placeless, country, regions } = readPlaces(paid.rest);
  const found: PhraseFilters = {
    names: false,
    asks: false,
    skills: [],
    rest: '',
    regions,
    ...paid.pay,
    ...(country === undefined ? {} : { location_country: country }),
  };
  let rest = placeless;
  // Skills first, whole words only, longest first: a skill may hold spaces or dots ("node.js").
  for (const [pattern, skill] of SKILLS) {
    if (pattern.test(rest)) {
      found.skills.push(skill);
      rest = rest.replace(pattern, ' ');
    }
  }
  const words: string[] = [];
  for (const word of wordsOf(rest)) {
    if (Object.hasOwn(SENIORITY, word) && found.seniority_level === undefined) found.seniority_level = SENIORITY[word];
    else if (REMOTE.has(word)) found.remote_only = true;
    else if (Object.hasOwn(DOMAIN, word) && found.domain === undefined) found.domain = DOMAIN[word];
    else if (!FILLER.has(word)) words.push(singular(word));
  }
  found.rest = words.join(' ');
  found.names = found.skills.length > 0 || NAMED.some((key) => found[key] !== undefined);
  found.asks = !found.names && found.rest !== '' && found.rest !== phrase;
  // Text finds what a title says (a skill, a seniority), not pay, a place, remote or a domain.
  const textFinds =
    found.regions.length === 0 && NAMED.every((key) => key === 'seniority_level' || found[key] === undefined);
  if (found.skills.length > 0 && textFinds) {
    const all = wordsOf(phrase);
    const text = all
      .filter((word) => !FILLER.has(word))
      .map(singular)
      .join(' ');
    if (text !== '' && text !== all.join(' ')) found.text = text;
  }
  return found;
}

/**
 * The arguments of the search to try instead: the filters the phrase names merged into `args`
 * (what the caller set itself stays as set), the rest of the phrase as `q`, and page 1.
 */
export function suggestedSearch(
  args: Readonly<Record<string, unknown>>,
  found: PhraseFilters,
): Record<string, unknown> {
  const { q: _q, page: _page, ...kept } = args;
  const skills = [...new Set([...(Array.isArray(args.skills) ? (args.skills as string[]) : []), ...found.skills])];
  return {
    ...(found.rest === '' ? {} : { q: found.rest }),
    ...kept,
    ...(skills.length > 0 ? { skills } : {}),
    ...Object.fromEntries(
      NAMED.filter((key) => found[key] !== undefined && args[key] === undefined).map((key) => [key, found[key]]),
    ),
  };
}
