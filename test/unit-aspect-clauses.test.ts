// A sentence of several clauses is also read clause by clause: the decision is made on the higher of the whole
// sentence's log-odds and each clause's less CLAUSE_DISCOUNT, and an explanation names the clause that decided.
import { describe, expect, it } from 'vitest';
import { Analyzer } from '../src/insights/analysis/analyzer.js';
import { aspectProbability, CLAUSE_DISCOUNT, decideAspects, sentenceMargin, type AspectModel } from '../src/insights/analysis/aspect-model.js';
import shipped from '../src/insights/analysis/aspect-model.json' with { type: 'json' };

const model = shipped as AspectModel;

describe('sentenceMargin', () => {
  it('is the sentence’s log-odds unless a clause, less the discount, is higher; then that clause’s', () => {
    expect(sentenceMargin(-1, [])).toEqual({ margin: -1, clause: undefined });
    expect(sentenceMargin(-1, [-3, -1 + CLAUSE_DISCOUNT])).toEqual({ margin: -1, clause: undefined });
    expect(sentenceMargin(-1, [-3, 2, 1])).toEqual({ margin: 2 - CLAUSE_DISCOUNT, clause: 1 });
  });
});

describe('the analyzer reads a long sentence clause by clause', () => {
  const analyzer = new Analyzer(null);
  const text =
    'The house is a 1920s bungalow with knob and tube in the attic, a panel somebody’s uncle put in and a garage that was added in the seventies without a permit; he had the diagnosis before I finished the story.';

  it('decides expertise on the clause about it, and explains the decision with that clause’s features', () => {
    const [sentence] = analyzer.explain({ id: 'clauses', text }).sentences;
    const expertise = sentence!.model!.find((d) => d.aspect === 'expertise')!;
    expect(expertise.found).toBe(true);
    expect(expertise.clause).toBe(1);
    const clause = sentence!.clauses[1]!.text;
    expect(clause).toMatch(/^he had the diagnosis before I finished the story/);
    // The probability is the clause's own, discounted, and higher than the whole sentence's.
    const clauseFeatures = analyzer.features(clause);
    const clauseAlone = aspectProbability(model, clauseFeatures, 'expertise');
    const discounted = 1 / (1 + Math.exp(-(Math.log(clauseAlone / (1 - clauseAlone)) - CLAUSE_DISCOUNT)));
    expect(expertise.probability).toBeCloseTo(discounted, 6);
    expect(expertise.probability).toBeGreaterThan(aspectProbability(model, analyzer.features(text), 'expertise'));
    for (const [feature] of expertise.reasons) expect(clauseFeatures).toContain(feature);
    expect(sentence!.aspects.map((a) => [a.aspect, a.polarity])).toContainEqual(['expertise', 'positive']);
  });

  it('decides on the sentence alone when it has one clause', () => {
    const one = 'He had the diagnosis before I finished the story.';
    const decisions = decideAspects(model, analyzer.features(one), [analyzer.features(one)]);
    expect(decisions.every((d) => d.clause === undefined)).toBe(true);
    expect(analyzer.explain({ id: 'one', text: one }).sentences[0]!.model!.every((d) => d.clause === undefined)).toBe(true);
  });
});
