// English idioms whose words say otherwise: the general polarity model reads them as wholes, so "to die for" is
// praise and "can't say enough good things" is not a denial of anything good. All but two were misread before.
import { describe, expect, it } from 'vitest';
import { textPolarity } from '../src/insights/analysis/polarity/index.js';

const label = (text: string) => textPolarity(text).label;

describe('general polarity of idioms', () => {
  it.each([
    "I can't say enough good things about them.",
    "You won't regret it!",
    "You can't beat the price.",
    "I couldn't ask for more.",
    'We could not be happier with the new unit.',
    "The result couldn't be better.",
    'Not bad at all.',
    'Not bad.',
    'Not too bad for a Saturday call-out.',
    'Not half bad, honestly.',
    "Can't complain.",
    "I wouldn't hesitate to call them again.",
    "I can't fault them.",
    'The dessert was to die for.',
    'At that price it was a steal.',
    'I was blown away.',
    'It hit the spot.',
    'Hiring them was a no brainer.',
    'These guys are the real deal.',
    'His diagnosis was spot on.',
    'He went the extra mile.',
    'They bent over backwards for us.',
    'A cut above the rest.',
    'Hats off to the crew.',
  ])('praises: %s', (text) => {
    expect(label(text)).toBe('positive');
  });

  it.each([
    'The place has gone downhill.',
    'It went downhill fast.',
    'The cleanup left a lot to be desired.',
    'Run of the mill.',
  ])('complains: %s', (text) => {
    expect(label(text)).toBe('negative');
  });

  it('still reads the same words outside the idioms', () => {
    expect(label('I would not recommend them.')).toBe('negative');
    expect(label("I can't say the work was good.")).toBe('negative');
    expect(label("He didn't steal anything, but he was rude.")).toBe('negative');
    expect(label('Not bad for the price, but the install was sloppy.')).toBe('negative');
    expect(label('That was a bad call.')).toBe('negative');
  });
});
