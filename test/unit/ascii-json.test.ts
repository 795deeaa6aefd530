import { describe, expect, it } from 'vitest';
import { asciiJson, asciiJsonFromUtf8 } from '../../src/ascii-json.js';

/** The plain definition: every UTF-16 code unit beyond ASCII as its escape. */
const reference = (text: string) => text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const isAsciiText = (text: string) => /^[\x00-\x7f]*$/.test(text);

// Both sides of every edge of the UTF-8 sequence lengths, the surrogate range and the BMP, plus
// what JSON escapes itself and the line separators some parsers trip on.
const ALPHABET = ['a', ' ', '"', '\\', '\n', '\u007f', '\u0080', '£', 'é', '\u07ff', '\u0800', '–', '\u2028', '\ud7ff', '\ue000', '\ufeff', '\uffff', '\u{10000}', '😀', '\u{10ffff}'];

function randomText(length: number, seed: number): string {
  let state = seed;
  let text = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    text += ALPHABET[state % ALPHABET.length];
  }
  return text;
}

describe('asciiJsonFromUtf8', () => {
  it('escapes every character beyond ASCII, in blocks of any alignment, and parses to the same value', () => {
    for (let seed = 1; seed <= 300; seed++) {
      // Lengths up to a few blocks, so sequences straddle the 512-byte block edges.
      const value = { text: randomText((seed * 37) % 1500, seed), n: seed, list: [randomText(seed % 7, seed + 1)] };
      const json = JSON.stringify(value);
      const out = asciiJsonFromUtf8(Buffer.from(json))!;
      expect(isAsciiText(out)).toBe(true);
      expect(out).toBe(reference(json));
      expect(JSON.parse(out)).toEqual(value);
    }
  });

  it('reads ASCII as it is, and drops a leading byte order mark as TextDecoder does', () => {
    expect(asciiJsonFromUtf8(Buffer.from('{"a":"b"}'))).toBe('{"a":"b"}');
    expect(asciiJsonFromUtf8(Buffer.from('\ufeff{"a":"b"}'))).toBe('{"a":"b"}');
    expect(asciiJsonFromUtf8(Buffer.from('\ufeff{"a":"£"}'))).toBe('{"a":"\\u00a3"}');
    // Only a leading one: elsewhere it is a character like any other.
    expect(asciiJsonFromUtf8(Buffer.from('{"a":"\ufeff"}'))).toBe('{"a":"\\ufeff"}');
  });

  it('refuses bytes that are not well-formed UTF-8, so the caller decodes them with replacements', () => {
    const malformed = [
      [0x80], // a continuation byte alone
      [0xc0, 0xaf], // overlong two-byte form
      [0xc1, 0xbf],
      [0xe0, 0x80, 0xaf], // overlong three-byte form
      [0xed, 0xa0, 0x80], // an encoded surrogate
      [0xf0, 0x80, 0x80, 0xaf], // overlong four-byte form
      [0xf4, 0x90, 0x80, 0x80], // beyond U+10FFFF
      [0xf5, 0x80, 0x80, 0x80],
      [0xff],
      [0xc2, 0x41], // a lead byte without its continuation
      [0xe2, 0x82], // truncated at the end
      [0xf0, 0x9f, 0x98],
    ];
    for (const bytes of malformed) {
      // Far from the start too, past the first block checked whole.
      expect(asciiJsonFromUtf8(Buffer.from([0x22, ...bytes, 0x22]))).toBeUndefined();
      expect(asciiJsonFromUtf8(Buffer.concat([Buffer.from(`"${'x'.repeat(700)}£`), Buffer.from(bytes), Buffer.from('"')]))).toBeUndefined();
    }
  });

  it('converts a large body (beyond the reused buffer) and leaves earlier results intact', () => {
    const small = asciiJsonFromUtf8(Buffer.from('["£"]'));
    const large = JSON.stringify(['£–😀'.repeat(100_000)]);
    const out = asciiJsonFromUtf8(Buffer.from(large))!;
    expect(out).toBe(reference(large));
    expect(asciiJsonFromUtf8(Buffer.from('["€"]'))).toBe('["\\u20ac"]');
    expect(small).toBe('["\\u00a3"]');
  });
});

describe('asciiJson', () => {
  it('escapes every UTF-16 code unit beyond ASCII, lone surrogates too', () => {
    const value = { text: `${randomText(400, 7)}\ud800 lone`, ok: true };
    const json = JSON.stringify(value);
    expect(asciiJson(json)).toBe(reference(json));
    expect(JSON.parse(asciiJson(json))).toEqual(value);
    expect(asciiJson('"\ud800"')).toBe('"\\ud800"');
    expect(asciiJson('{"plain":1}')).toBe('{"plain":1}');
  });
});
