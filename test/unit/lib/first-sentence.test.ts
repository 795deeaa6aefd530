import { describe, expect, it } from 'vitest';
import { firstSentence, quote } from '../../../src/lib/text.js';

describe('firstSentence', () => {
  it('keeps the first sentence of our own words', () => {
    expect(firstSentence('Find jobs. Use first for questions in words.')).toBe('Find jobs.');
    expect(firstSentence('One sentence, no stop')).toBe('One sentence, no stop');
  });

  it('closes a quote the cut leaves open, and only then', () => {
    const bridged = `Deployment's words: ${quote('How much people earn. Classes are never pooled.')}`;
    expect(firstSentence(bridged)).toBe(`Deployment's words: "How much people earn. …"`);
    const ours = `Ours first. Deployment's words: ${quote('Funding rounds. Newest first.')}`;
    expect(firstSentence(ours)).toBe('Ours first.');
  });

  it('does not take an escaped quote inside the quote for its end', () => {
    const bridged = `Deployment's words: ${quote('Say \\"hi\\". Then \\\\ more.')}`;
    expect(firstSentence(bridged)).toMatch(/ …"$/);
  });
});
