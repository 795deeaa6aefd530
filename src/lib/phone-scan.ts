/** Phone numbers in free text, as candidate-data.ts looks for them: groups of digits and what joins them. */
import { isDotSign, isAsciiDigit, isDigit, isLetter, isSpace } from './char-classes.js';

/** A run of digits, with what the phone rules need to know of it. */
interface Group {
  size: number;
  first: number;
  /** The value of its first four digits, and of its last two. */
  head: number;
  lastTwo: number;
  /** Glued to a letter before it (`web3`, `h100`, `c++11`): part of a word, not of a number. */
  gluedBefore: boolean;
  /** A letter right after it (`401k`, `1st`): a quantity, and the number ends there. */
  gluedAfter: boolean;
  /** A `+` right before it, not glued to a word: an international prefix. */
  plus: boolean;
  /** What comes before the next group: a lone `.`, up to three separators, or anything else. */
  gap: 'dot' | 'separators' | 'break';
  /** Whether that gap holds a space. */
  spacedGap: boolean;
}

const PHONE_SEPARATORS = new Set(
  [...' -./()_\u00B7\u2010\u2011\u2012\u2013\u2014\u2015\u2212'].map((c) => c.codePointAt(0)!),
);
const isPhoneSeparator = (c: number) => PHONE_SEPARATORS.has(c) || isSpace(c);

const digitValues = new Map<number, number>();

/** A digit's value in any script: decimal digits come in runs of ten, zero to nine, in every script. */
function digitValue(c: number): number {
  if (isAsciiDigit(c)) return c - 0x30;
  let value = digitValues.get(c);
  if (value === undefined) {
    let offset = 0;
    while (offset < 40 && isDigit(c - offset - 1)) offset++;
    // Bounded: one entry per decimal digit of Unicode (under a thousand).
    digitValues.set(c, (value = offset % 10));
  }
  return value;
}

function digitGroups(points: readonly number[]): Group[] {
  const groups: Group[] = [];
  for (let i = 0; i < points.length;) {
    if (!isDigit(points[i]!)) {
      i++;
      continue;
    }
    const start = i;
    let head = 0;
    let lastTwo = 0;
    for (; i < points.length && isDigit(points[i]!); i++) {
      const value = digitValue(points[i]!);
      if (i - start < 4) head = head * 10 + value;
      lastTwo = (lastTwo % 10) * 10 + value;
    }
    const before = points[start - 1];
    // "c++11", "c#10": the sign belongs to a word; "+1", "(+44", "tel:+1" are prefixes.
    const sign = before === 0x2b || before === 0x23;
    const signGlued =
      sign && start >= 2 && (isLetter(points[start - 2]!) || points[start - 2] === 0x2b || points[start - 2] === 0x23);
    let gapEnd = i;
    let spacedGap = false;
    for (; gapEnd < points.length && gapEnd - i <= 3 && isPhoneSeparator(points[gapEnd]!); gapEnd++)
      spacedGap ||= isSpace(points[gapEnd]!);
    const gapLength = gapEnd - i;
    const joined = gapLength >= 1 && gapLength <= 3 && gapEnd < points.length && isDigit(points[gapEnd]!);
    groups.push({
      size: i - start,
      first: digitValue(points[start]!),
      head,
      lastTwo,
      gluedBefore: (before !== undefined && isLetter(before)) || signGlued,
      gluedAfter: i < points.length && isLetter(points[i]!),
      plus: before === 0x2b && !signGlued,
      gap: joined ? (gapLength === 1 && isDotSign(points[i]!) ? 'dot' : 'separators') : 'break',
      spacedGap,
    });
  }
  return groups;
}

const isYear = (g: Group) => g.size === 4 && g.head >= 1900 && g.head <= 2099;
/**
 * Years, round amounts up to millions (`150000`, `2000`) and quantities (`401k`, `4k`): what
 * ordinary queries string together. A phone number's groups are seldom any of these.
 */
const isOrdinary = (g: Group) =>
  g.gluedAfter || isYear(g) || (g.size >= 4 && g.size <= 7 && g.first !== 0 && g.lastTwo === 0);
/** `8 11 17 21`, `16 18 20 22 2025`: a rising list of small numbers (versions), not a number in pairs. */
function isSmallList(chain: readonly Group[]): boolean {
  const small = chain.filter((g) => !isOrdinary(g));
  return small[0]!.first !== 0 && small.every((g, i) => g.size <= 2 && (i === 0 || g.head > small[i - 1]!.head));
}

function isPhone(chain: readonly Group[]): boolean {
  let digits = 0;
  let unordinary = 0;
  for (const g of chain) {
    digits += g.size;
    if (!isOrdinary(g)) unordinary += g.size;
  }
  if (chain[0]!.plus) return digits >= 7;
  if (chain.length === 1) return digits >= 10;
  // Six digits that are neither years nor amounts: "415 555 1987" is a number, "top 100 2025" is not.
  return digits >= 7 && unordinary >= 6 && !isSmallList(chain);
}

/**
 * Runs of digits joined by separators form a chain; a chain is a phone number by its digit count and
 * shape. Left out of every chain: version numbers (two to four groups joined by single dots, the
 * first of one digit or of two not starting with 0), digits glued to a word, and the digits joined
 * to those without a space (`c++11/14/17`, `x86-64`).
 */
export function holdsPhone(points: readonly number[]): boolean {
  const groups = digitGroups(points);
  const excluded = groups.map((g) => g.gluedBefore);
  for (let a = 0; a < groups.length;) {
    let b = a;
    while (groups[b]!.gap === 'dot' && b + 1 < groups.length) b++;
    const first = groups[a]!;
    if (b > a && b - a < 4 && (first.size === 1 || (first.size === 2 && first.first !== 0)))
      for (let k = a; k <= b; k++) excluded[k] = true;
    a = b + 1;
  }
  for (let k = 1; k < groups.length; k++) {
    const previous = groups[k - 1]!;
    if (excluded[k - 1] && previous.gap !== 'break' && !previous.spacedGap) excluded[k] = true;
  }
  let chain: Group[] = [];
  for (let k = 0; k < groups.length; k++) {
    const g = groups[k]!;
    if (!excluded[k]) chain.push(g);
    if (excluded[k] || g.gap === 'break' || g.gluedAfter || excluded[k + 1]) {
      if (chain.length > 0 && isPhone(chain)) return true;
      chain = [];
    }
  }
  return chain.length > 0 && isPhone(chain);
}
