// A sentence is also read part by part (its clauses, cut again at commas and other breaks): the decision is made on
// the higher of the whole sentence's log-odds and each part's less PART_DISCOUNT, and an explanation names the part
// that decided.
import { describe, expect, it } from 'vitest';
import { Analyzer } from '../src/insights/analysis/analyzer.js';
import {
  aspectProbability,
  PART_DISCOUNT,
  decideAspects,
  sentenceMargin,
  type AspectModel,
} from '../src/insights/analysis/aspect-model.js';
import shipped from '../src/insights/models/aspect-model.json' with { type: 'json' };

const model = shipped as AspectModel;

describe('sentenceMargin', () => {
  it('is the sentence’s log-odds unless a part, less the discount, is higher; then that part’s', () => {
    expect(sentenceMargin(-1, [])).toEqual({ margin: -1, part: undefined });
    expect(sentenceMargin(-1, [-3, -1 + PART_DISCOUNT])).toEqual({ margin: -1, part: undefined });
    expect(sentenceMargin(-1, [-3, 2, 1])).toEqual({ margin: 2 - PART_DISCOUNT, part: 1 });
  });
});

describe('the analyzer reads a long sentence part by part', () => {
  // The regression alone: the word-order network reads the whole sentence and adds its share to whichever margin wins.
  const analyzer = new Analyzer(null, { wordOrder: null });
  const text =
    'The house is a 1920s bungalow with knob and tube in the attic, a panel somebody’s uncle put in and a garage that was added in the seventies without a permit; he had the diagnosis before I finished the story.';

  it('cuts the sentence at its clauses and at the commas inside them', () => {
    const [sentence] = analyzer.explain({ id: 'parts', text }).sentences;
    expect(sentence!.clauses.map((c) => c.text)).toHaveLength(2);
    expect(sentence!.parts).toEqual([
      'The house is a 1920s bungalow with knob and tube in the attic',
      'a panel somebody’s uncle put in and a garage that was added in the seventies without a permit',
      'he had the diagnosis before I finished the story',
    ]);
  });

  it('decides expertise on the part about it, and explains the decision with that part’s features', () => {
    const [sentence] = analyzer.explain({ id: 'parts', text }).sentences;
    const expertise = sentence!.model!.find((d) => d.aspect === 'expertise')!;
    expect(expertise.found).toBe(true);
    expect(expertise.part).toBe(2);
    const part = sentence!.parts[2]!;
    // The probability is the part's own, discounted, and higher than the whole sentence's.
    const partFeatures = analyzer.features(part);
    const partAlone = aspectProbability(model, partFeatures, 'expertise');
    const discounted = 1 / (1 + Math.exp(-(Math.log(partAlone / (1 - partAlone)) - PART_DISCOUNT)));
    expect(expertise.probability).toBeCloseTo(discounted, 6);
    expect(expertise.probability).toBeGreaterThan(aspectProbability(model, analyzer.features(text), 'expertise'));
    for (const [feature] of expertise.reasons) expect(partFeatures).toContain(feature);
    expect(sentence!.aspects.map((a) => [a.aspect, a.polarity])).toContainEqual(['expertise', 'positive']);
  });

  it('cuts a sentence of one clause at its commas, and finds the result said in one of its parts', () => {
    const [sentence] = analyzer.explain({
      id: 'commas',
      text: 'Came out on a Sunday, fixed the leak in twenty minutes, and charged a fair price.',
    }).sentences;
    expect(sentence!.clauses).toHaveLength(1);
    expect(sentence!.parts).toEqual([
      'Came out on a Sunday',
      'fixed the leak in twenty minutes',
      'and charged a fair price',
    ]);
    const quality = sentence!.model!.find((d) => d.aspect === 'quality')!;
    expect(quality.found).toBe(true);
    expect(sentence!.parts[quality.part!]).toBe('fixed the leak in twenty minutes');
    expect(sentence!.aspects.map((a) => a.aspect).sort()).toEqual(['price', 'quality', 'responsiveness']);
  });

  it('decides on the sentence alone when it has one part', () => {
    const one = 'He had the diagnosis before I finished the story.';
    const decisions = decideAspects(model, analyzer.features(one), [analyzer.features(one)]);
    expect(decisions.every((d) => d.part === undefined)).toBe(true);
    expect(analyzer.explain({ id: 'one', text: one }).sentences[0]!.model!.every((d) => d.part === undefined)).toBe(
      true,
    );
  });
});
