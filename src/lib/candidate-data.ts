/**
 * Candidate data must never be sent in public search query strings (spec, Authentication 4), so a
 * free-text argument bound for one is refused when it holds an e-mail address or a phone number,
 * also in the forms used to slip them past a filter: NFKC compatibility forms (`＠`, full-width
 * digits), invisible characters between characters, digits of any script, `at`/`dot` as words or
 * bracketed or hyphen-joined, and up to three separators between digits. Ordinary queries still
 * pass (years, amounts like `150000 200000` or `401k`, versions like `python 3.12`, `web3`, `h100`,
 * `good at next.js`); a seven-digit number beside a year or round amount, and spelled-out digits,
 * pass on purpose. Both scans are single passes with constant work per character (no
 * backtracking pattern sees the text), so the cost is linear in its length.
 */
import { holdsEmail } from './email-scan.js';
import { holdsPhone } from './phone-scan.js';

export type CandidateData = 'an e-mail address' | 'a phone number';

export function findCandidateData(text: string): CandidateData | undefined {
  const points = Array.from(normalise(text), (c) => c.codePointAt(0)!);
  if (holdsEmail(points)) return 'an e-mail address';
  if (holdsPhone(points)) return 'a phone number';
  return undefined;
}

function normalise(text: string): string {
  // Format characters (zero-width, bidi) go first: they would split a word or a number in two.
  return text
    .replace(/\p{Cf}/gu, '')
    .normalize('NFKC')
    .toLowerCase();
}
