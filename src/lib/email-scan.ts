/** E-mail addresses in free text, as candidate-data.ts looks for them: one pass over its tokens. */
import { isDotSign, isBracket, isLetter, isSpace, isWordChar } from './char-classes.js';

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
export function holdsEmail(points: readonly number[]): boolean {
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
