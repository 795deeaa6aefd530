import { describe, expect, it } from 'vitest';
import { escapeInvisible } from '../../../src/lib/text.js';

// The characters escapeInvisible must write out, as its own pattern names them.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\u2028\u2029]/u;

describe('escapeInvisible', () => {
  it('changes text exactly where it holds an invisible character, whichever path it takes', () => {
    const wrong: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const char = String.fromCharCode(c);
      const invisible = INVISIBLE.test(char) && char !== '\n' && char !== '\r' && char !== '\t';
      const text = `id ${char}x`;
      if ((escapeInvisible(text) !== text) !== invisible) wrong.push(c.toString(16));
    }
    expect(wrong).toEqual([]);
  });

  it('writes an invisible character as its escape and counts a run of them', () => {
    expect(escapeInvisible('job\u200B1')).toBe('job\\u200B1');
    expect(escapeInvisible('a\u{E0041}\u{E0042}\u{E0043}\u{E0044}b')).toBe('a[4 hidden characters]b');
    expect(escapeInvisible('plain £5–10 text')).toBe('plain £5–10 text');
  });
});
