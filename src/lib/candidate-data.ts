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
 * Over 250 lines: two hand-written scanners (e-mail, phone) whose cases read best side by side.
 */

export type CandidateData = 'an e-mail address' | 'a phone number';

/** What `text` holds that is candidate data, or undefined. */
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

const DIGIT = 1;
const LETTER = 2;
const NUMBER = 4;
const SPACE = 8;
const classes = new Map<number, number>();

/** The classes of a character beyond ASCII, each tested once: a long text repeats few of them. */
function classOf(c: number): number {
  let bits = classes.get(c);
  if (bits === undefined) {
    const char = String.fromCodePoint(c);
    bits =
      (/\p{Nd}/u.test(char) ? DIGIT : 0) |
      (/[\p{L}\p{M}]/u.test(char) ? LETTER : 0) |
      (/\p{N}/u.test(char) ? NUMBER : 0) |
      (/\s/u.test(char) ? SPACE : 0);
    // Bounded, as the characters come from the caller.
    if (classes.size < 4_096) classes.set(c, bits);
  }
  return bits;
}

const isAsciiDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isAsciiLetter = (c: number) => c >= 0x61 && c <= 0x7a;
const isDigit = (c: number) => isAsciiDigit(c) || (c > 0x7f && (classOf(c) & DIGIT) !== 0);
const isLetter = (c: number) => isAsciiLetter(c) || (c > 0x7f && (classOf(c) & LETTER) !== 0);
const isWordChar = (c: number) =>
  isAsciiLetter(c) || isAsciiDigit(c) || (c > 0x7f && (classOf(c) & (LETTER | NUMBER)) !== 0);
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c > 0x7f && (classOf(c) & SPACE) !== 0);
const BRACKETS = new Set([...'()[]{}<>'].map((c) => c.codePointAt(0)!));
const isBracket = (c: number | undefined) => c !== undefined && BRACKETS.has(c);
// '.', and the ideographic full stop, which mail software also reads as a dot (U+FF61 folds to it).
const isDotSign = (c: number) => c === 0x2e || c === 0x3002;

// ---------------------------------------------------------------------------------------------
// E-mail addresses

const T = {
  Word: 0,
  At: 1,
  Dot: 2,
  /** Space or bracket: may stand around an `@`, `at`, `.` or `dot`. */
  Gap: 3,
  /** Hyphen or underscore: joins words (`jane-at-example-dot-com`, `my-company`). */
  Join: 4,
  Other: 5,
} as const;

interface Token {
  kind: (typeof T)[keyof typeof T];
  /**
   * Words: two or more letters, as a top-level domain is. Dots and at-signs: written in a way no plain
   * text would (a word, in brackets, with spaces).
   */
  flag: boolean;
  /** Words only: the word. */
  text?: string;
}

// Code file names after "at" ("good at next.js") read as text, not as an address.
const CODE_EXTENSIONS = new Set([
  'js',
  'jsx',
  'ts',
  'tsx',
  'py',
  'rs',
  'rb',
  'go',
  'sh',
  'md',
  'css',
  'html',
  'php',
  'sql',
]);

function emailTokens(points: readonly number[]): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < points.length;) {
    const c = points[i]!;
    if (isWordChar(c)) {
      let end = i;
      let letters = true;
      for (; end < points.length && isWordChar(points[end]!); end++)
        if (letters && !isLetter(points[end]!)) letters = false;
      // Only short words matter by their letters ("at", "dot", a code file extension).
      const word = end - i <= 4 ? String.fromCodePoint(...points.slice(i, end)) : '';
      const bracketed = isBracket(points[i - 1]) && isBracket(points[end]);
      if (word === 'at') tokens.push({ kind: T.At, flag: bracketed });
      else if (word === 'dot') tokens.push({ kind: T.Dot, flag: true });
      else tokens.push({ kind: T.Word, flag: letters && end - i >= 2, text: word });
      i = end;
      continue;
    }
    if (c === 0x40) tokens.push({ kind: T.At, flag: true });
    else if (isDotSign(c)) {
      const before = points[i - 1];
      const after = points[i + 1];
      const spaced =
        (before !== undefined && (isSpace(before) || isBracket(before))) ||
        (after !== undefined && (isSpace(after) || isBracket(after)));
      // "scale. Remote": a full stop ends a sentence, it does not join a domain.
      const endsSentence =
        before !== undefined && !isSpace(before) && !isBracket(before) && (after === undefined || isSpace(after));
      tokens.push(endsSentence ? { kind: T.Other, flag: false } : { kind: T.Dot, flag: spaced });
    } else if (isSpace(c) || isBracket(c)) tokens.push({ kind: T.Gap, flag: false });
    else if (c === 0x2d || c === 0x5f) tokens.push({ kind: T.Join, flag: false });
    else tokens.push({ kind: T.Other, flag: false });
    i++;
  }
  return tokens;
}

/**
 * A word, an at (sign or word), then a domain: words joined by hyphens, a dot (sign or word), a word
 * of two or more letters, and maybe more dots and words. Each at-sign looks back over gaps and
 * forward until its domain ends, so every token is visited a bounded number of times.
 */
function holdsEmail(points: readonly number[]): boolean {
  const tokens = emailTokens(points);
  const skipGaps = (k: number, step: 1 | -1) => {
    while (tokens[k]?.kind === T.Gap || tokens[k]?.kind === T.Join) k += step;
    return k;
  };
  for (let i = 0; i < tokens.length; i++) {
    const at = tokens[i]!;
    if (at.kind !== T.At || tokens[skipGaps(i - 1, -1)]?.kind !== T.Word) continue;
    let k = skipGaps(i + 1, 1);
    if (tokens[k]?.kind !== T.Word) continue;
    k++;
    while (tokens[k]?.kind === T.Join && tokens[k + 1]?.kind === T.Word) k += 2;
    let obfuscated = at.flag;
    for (;;) {
      const dot = skipGaps(k, 1);
      const word = skipGaps(dot + 1, 1);
      if (tokens[dot]?.kind !== T.Dot || tokens[word]?.kind !== T.Word) break;
      obfuscated ||= tokens[dot]!.flag;
      const label = tokens[word]!;
      if (label.flag && (obfuscated || !CODE_EXTENSIONS.has(label.text!))) return true;
      k = word + 1;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Phone numbers

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
function holdsPhone(points: readonly number[]): boolean {
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
