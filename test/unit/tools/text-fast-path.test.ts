/**
 * sanitize and oneLine skip their Unicode-aware patterns for plain ASCII and for the characters
 * beyond it that the patterns leave alone. Whatever the input, the answer must be what the full
 * patterns give.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fencedData } from '../../../src/lib/fence.js';
import { oneLine, sanitize } from '../../../src/lib/text.js';

// oxlint-disable-next-line no-control-regex -- the reference sanitizer matches control characters by design
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\uFFF9-\uFFFB\uFFFE\uFFFF]|\p{Cf}/gu;
const fullSanitize = (text: string) => text.replace(UNSAFE, '');
const fullOneLine = (text: string, max: number) => {
  const folded = fullSanitize(text).replace(/\s+/g, ' ').trim();
  return folded.length > max ? `${folded.slice(0, max - 1)}…` : folded;
};

// Mostly the characters that decide between the two paths: ASCII words, spaces, tabs, newlines,
// controls, zero-width and bidi characters, non-breaking spaces and other letters.
// The edges of the safe characters beyond ASCII (text.ts) are in it, on both sides.
const tricky = fc.string({
  unit: fc.constantFrom(
    'a',
    'Z',
    '7',
    '-',
    ' ',
    '  ',
    '\t',
    '\n',
    '\r',
    '\u0000',
    '\u001b',
    '\u007f',
    '\u0085',
    '\u009f',
    '\u00a0',
    '\u00a1',
    '\u00ad',
    '\u024f',
    '\u0250',
    '\u200b',
    '\u200f',
    '\u2010',
    '\u2027',
    '\u2028',
    '\u2029',
    '\u202e',
    '\u202f',
    '\u205f',
    '\u209f',
    '\u20a0',
    '\u20c0',
    '\u20c1',
    '\ufeff',
    'é',
    '£',
    '€',
    '–',
    '漢',
  ),
  maxLength: 40,
});
const text = fc.oneof(tricky, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));

// fencedData's reading of one string value with the full patterns alone: bare when plain words, else JSON-quoted.
const PLAIN = /^[\p{L}\p{N}][\p{L}\p{N} _.,:;/()%$€£+&'’–-]*$/u;
const LOOKS_TYPED = /^(?:true|false|null|[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/i;
const fullFenced = (value: string) => {
  const clean = fullSanitize(value);
  const bare = PLAIN.test(clean) && !clean.endsWith(':') && !/:\s/.test(clean) && !LOOKS_TYPED.test(clean);
  const body = `k: ${bare ? clean : JSON.stringify(clean)}`;
  const fence = '`'.repeat(Math.max(2, ...Array.from(body.matchAll(/`+/g), (m) => m[0].length)) + 1);
  return `${fence}yaml\n${body}\n${fence}`;
};
const words = fc.string({
  unit: fc.constantFrom(
    'a',
    'Z',
    '7',
    ' ',
    ':',
    ',',
    '.',
    '-',
    "'",
    '’',
    '€',
    '"',
    '`',
    '``',
    '#',
    'é',
    '\u200b',
    '\n',
  ),
  maxLength: 30,
});

describe('the ASCII fast path', () => {
  it('fencedData quotes a string exactly when the full patterns say so, and fences past any backticks', () => {
    fc.assert(
      fc.property(fc.oneof(words, text), (value) => fencedData({ k: value }) === fullFenced(value)),
      { numRuns: 3000, seed: 42 },
    );
  });

  it('sanitize gives what the full pattern gives', () => {
    fc.assert(
      fc.property(text, (value) => sanitize(value) === fullSanitize(value)),
      { numRuns: 3000, seed: 42 },
    );
  });

  it('oneLine gives what the full patterns give, at any length limit', () => {
    fc.assert(
      fc.property(
        text,
        fc.integer({ min: 1, max: 50 }),
        (value, max) => oneLine(value, max) === fullOneLine(value, max),
      ),
      { numRuns: 3000, seed: 42 },
    );
  });

  it('keeps plain ASCII as it is, and still cleans what only looks plain', () => {
    expect(oneLine('Staff ML Engineer')).toBe('Staff ML Engineer');
    expect(oneLine(' Staff  ML\tEngineer ')).toBe('Staff ML Engineer');
    expect(oneLine('Staff\u200bML')).toBe('StaffML');
    expect(sanitize('a\u0007b\nc')).toBe('ab\nc');
  });
});
