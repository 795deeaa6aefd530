/**
 * Pay named in a search phrase ("paying over 150k", "under 90k", "120k to 160k"), read as the
 * salary filters search_jobs takes: USD a year, a floor or a ceiling.
 */

/**
 * An amount of USD a year as people write it: `150k`, `$150k`, `$150,000`, `200k+`, `150k usd`. A
 * bare number is no amount, and another currency (`£150k`, `150k EUR`) is none either: the filters
 * compare USD, and no rate is invented here.
 */
const AMOUNT = String.raw`(?:\$(\d{2,3}),?(\d{3})|\$?(\d{2,3})k)(?:\s?usd)?(?!\s?(?:eur|euros?|gbp|pounds?|chf|cad|aud|jpy|yen|inr|sgd)\b)`;
const PER_YEAR = String.raw`(?:\s(?:a|per|\/)\s?(?:year|yr|annum))?`;
/** The words that may lead an amount: what pays it, then whether it is a floor or a ceiling. */
const PAYS = String.raw`(?:(?:that |which )?(?:pays?|paying|salary|salaries|compensation|comp)(?: of)?\s)?`;
const BOUND = String.raw`(?:(over|above|at least|more than|min|minimum|from|starting at|under|below|up to|at most|less than|max|maximum)\s)?`;
const PAY_RANGE = new RegExp(
  String.raw`(?<=\s)${PAYS}(?:between\s)?${AMOUNT}\s?(?:-|–|to|and)\s?${AMOUNT}${PER_YEAR}(?=[\s?!.,;])`,
);
const PAY_BOUND = new RegExp(String.raw`(?<=\s)${PAYS}${BOUND}${AMOUNT}(\+)?${PER_YEAR}(?=[\s?!.,;])`);
const CEILING = new Set(['under', 'below', 'up to', 'at most', 'less than', 'max', 'maximum']);

/** The USD a year one AMOUNT's groups (from `at`) name. */
const usd = (groups: ReadonlyArray<string | undefined>, at: number) =>
  groups[at + 2] !== undefined ? Number(groups[at + 2]) * 1000 : Number(groups[at]) * 1000 + Number(groups[at + 1]);

/**
 * Whether a match reads as pay: said so (`$`, `usd`, `+`, a year, pay words, over/under…), or a
 * bare `150k` ending the phrase; `10k users` is no salary.
 */
const saysPay = (match: RegExpExecArray, bound?: string) =>
  bound !== undefined ||
  /[$+]|usd|year|yr|annum|pay|salar|comp/.test(match[0]) ||
  /^[\s?!.]*$/.test(match.input.slice(match.index + match[0].length));

export interface Pay {
  min_salary_usd?: number;
  max_salary_usd?: number;
}

/**
 * The pay `phrase` (lower-case, space-padded) names, a range or a floor (the default) or a
 * ceiling, and what is left of it.
 */
export function readPay(phrase: string): { rest: string; pay: Pay } {
  const range = PAY_RANGE.exec(phrase);
  if (range && saysPay(range))
    return {
      rest: phrase.replace(range[0], ' '),
      pay: { min_salary_usd: usd(range, 1), max_salary_usd: usd(range, 4) },
    };
  const bound = PAY_BOUND.exec(phrase);
  if (!bound || !saysPay(bound, bound[1])) return { rest: phrase, pay: {} };
  const key = CEILING.has(bound[1] ?? '') ? 'max_salary_usd' : 'min_salary_usd';
  return { rest: phrase.replace(bound[0], ' '), pay: { [key]: usd(bound, 2) } };
}
