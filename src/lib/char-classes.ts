/**
 * Which characters are digits, letters and spaces in any script, for the candidate-data scanners:
 * ASCII answered directly, the rest tested once each against Unicode's classes.
 */
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

export const isAsciiDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isAsciiLetter = (c: number) => c >= 0x61 && c <= 0x7a;
export const isDigit = (c: number) => isAsciiDigit(c) || (c > 0x7f && (classOf(c) & DIGIT) !== 0);
export const isLetter = (c: number) => isAsciiLetter(c) || (c > 0x7f && (classOf(c) & LETTER) !== 0);
export const isWordChar = (c: number) =>
  isAsciiLetter(c) || isAsciiDigit(c) || (c > 0x7f && (classOf(c) & (LETTER | NUMBER)) !== 0);
export const isSpace = (c: number) =>
  c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c > 0x7f && (classOf(c) & SPACE) !== 0);
const BRACKETS = new Set([...'()[]{}<>'].map((c) => c.codePointAt(0)!));
export const isBracket = (c: number | undefined) => c !== undefined && BRACKETS.has(c);
// '.', and the ideographic full stop, which mail software also reads as a dot (U+FF61 folds to it).
export const isDotSign = (c: number) => c === 0x2e || c === 0x3002;
