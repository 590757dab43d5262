// The polarity speller reads a misspelt opinion word as the word meant only when one word fits the slip, and never
// corrects a real English word.
import { describe, expect, it } from 'vitest';
import { Speller } from '../src/insights/analysis/polarity/spelling.js';

const lexicon = new Map([
  ['disappointing', -2.2],
  ['disappointed', -1.9],
  ['excellent', 3.2],
  ['fired', -2],
  ['hoping', 1.6],
  ['hopping', 1.6],
]);

describe('speller', () => {
  it('reads one slip: a letter undoubled, a vowel added or two neighbours swapped', () => {
    const speller = new Speller(lexicon);
    expect(speller.correct('excelent')).toBe('excellent');
    expect(speller.correct('excellant')).toBe('excellent');
    expect(speller.correct('disapointed')).toBe('disappointed');
  });

  it('reads letters doubled in the wrong places, however many', () => {
    const speller = new Speller(lexicon);
    expect(speller.correct('dissapointing')).toBe('disappointing');
    expect(speller.correct('dissapointed')).toBe('disappointed');
    expect(speller.correct('disapointting')).toBe('disappointing');
  });

  it('guesses nothing when two words fit, or when the spelling is itself a word', () => {
    const speller = new Speller(lexicon);
    expect(speller.correct('hhopinng')).toBeUndefined();
    expect(speller.correct('fried')).toBeUndefined();
    expect(speller.correct('appointed')).toBeUndefined();
  });
});
