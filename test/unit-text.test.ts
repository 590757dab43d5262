// Folding for matching (fold, technicianKeys): case and combining marks go, everything else stays.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold, technicianKeys } from '../src/reviews/text.js';

describe('fold', () => {
  it.each([
    ['Zoë', 'zoe'],
    ['CAFÉ', 'cafe'],
    ['Crème Brûlée', 'creme brulee'],
    ['Façade', 'facade'],
    ['Núñez', 'nunez'],
    ['Ærøskøbing Ōsaka', 'ærøskøbing osaka'],
    ['Ệ', 'e'],
    ['İstanbul', 'istanbul'],
    ['Ά', 'α'],
  ])('folds %j to %j', (text, folded) => {
    expect(fold(text)).toBe(folded);
  });

  it('gives the same result for precomposed and decomposed input', () => {
    expect(fold('Zo\u00eb')).toBe('zoe');
    expect(fold('Zoe\u0308')).toBe('zoe');
    expect(fold('Ma\u0301rti\u0301nez')).toBe(fold('Martínez'));
  });

  it('keeps letters that have no canonical decomposition (ß, ł, ø, æ): they are letters, not accents', () => {
    expect(fold('Straße')).toBe('straße');
    expect(fold('Łódź')).toBe('łodz');
    expect(fold('Ørsted')).toBe('ørsted');
  });

  it('keeps digits, punctuation, spaces and emoji as they are', () => {
    expect(fold('AC #2: 3-4 p.m., 😀  ok')).toBe('ac #2: 3-4 p.m., 😀  ok');
    expect(fold('')).toBe('');
  });

  it('leaves nothing to fold a second time, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(fold(fold(text))).toBe(fold(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves no upper-case letter and no combining mark, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (text) => {
        const folded = fold(text);
        expect(folded).not.toMatch(/\p{M}/u);
        expect(folded).toBe(folded.toLowerCase());
      }),
      { numRuns: 1000 },
    );
  });
});

describe('technicianKeys', () => {
  it('finds a technician by the folded full name and the folded first name', () => {
    expect(technicianKeys('Zoë Martínez')).toEqual(['zoe martinez', 'zoe']);
    expect(technicianKeys('José Luis Núñez')).toEqual(['jose luis nunez', 'jose']);
  });

  it('gives one key for a single name', () => {
    expect(technicianKeys('Madonna')).toEqual(['madonna']);
    expect(technicianKeys('ZOË')).toEqual(['zoe']);
  });

  it('ignores spaces around and between the parts of a name', () => {
    expect(technicianKeys('  Zoë   Martínez ')).toEqual(['zoe martinez', 'zoe']);
    expect(technicianKeys('Zoë\tMartínez')).toEqual(['zoe martinez', 'zoe']);
    expect(technicianKeys('  Zoë  ')).toEqual(['zoe']);
  });

  it('keys a name and its differently written twin alike', () => {
    expect(technicianKeys('ZOE MARTINEZ')).toEqual(technicianKeys('Zoë Martínez'));
    expect(technicianKeys('Zoe\u0308 Marti\u0301nez')).toEqual(technicianKeys('Zoë Martínez'));
  });
});
