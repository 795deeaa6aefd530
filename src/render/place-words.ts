/**
 * Places named in a search phrase: a country, read as location_country (ISO 3166-1 alpha-2, as the
 * spec has it), and regions, which no filter takes.
 */
import COUNTRIES from '../contract/countries.json';
import { escapeRegExp } from '../lib/text.js';

/**
 * Each code by its English name, lower-case, as Intl.DisplayNames gives it (current codes, names in
 * plain letters) and the names people also write (`usa`, `uk`, `turkey`): data, because building it
 * from Intl costs 20 ms at the first search. Georgia and Jersey are left out: in a phrase they are
 * US states.
 */
const CODES: Readonly<Record<string, string>> = COUNTRIES;

let countries: RegExp | undefined;

function countryPattern(): RegExp {
  if (countries) return countries;
  const names = Object.keys(CODES)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp);
  // "us" is the country only as "the US" or "in US"; "New Mexico" is a state.
  countries = new RegExp(`(?<=[\\s,;/])(?<!new )(?:${names.join('|')}|(?<=\\b(?:in|the) )us)(?=[\\s,;/?!.])`, 'g');
  return countries;
}

/**
 * Regions people name for where a job is. No filter takes one (location_country is one country),
 * and the API matches q against titles, companies and skills, which never say one: a region in q
 * only empties the search, so it is taken out, to be said.
 */
const REGIONS =
  /(?<=[\s,;/])(?:latin america|north america|south america|asia pacific|middle east|europe|emea|apac|asia|americas|latam|africa|oceania|nordics|scandinavia|eu)(?=[\s,;/?!.])/g;

/**
 * The one country `phrase` (lower-case, space-padded) names, and the regions, each taken out of
 * it; two or more countries are no one filter, and stay.
 */
export function readPlaces(phrase: string): { rest: string; country?: string; regions: string[] } {
  const pattern = countryPattern();
  const named = new Set(Array.from(phrase.matchAll(pattern), ([name]) => CODES[name] ?? 'US'));
  const [country] = named.size === 1 ? named : [];
  const rest = country === undefined ? phrase : phrase.replace(pattern, ' ');
  const regions = Array.from(rest.matchAll(REGIONS), ([region]) => region);
  return { rest: rest.replace(REGIONS, ' '), ...(country === undefined ? {} : { country }), regions };
}
