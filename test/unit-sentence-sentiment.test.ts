// A sentence's sentiment is what it says of the aspects it judges, each weighed as its clause, when it judges any;
// only a sentence that judges none falls back on the general polarity model's lean (which reads "leak" or "broken"
// as blame, though a sentence about the work names the fault it fixed).
import { describe, expect, it } from 'vitest';
import { Analyzer } from '../src/insights/analysis/analyzer.js';

const analyzer = new Analyzer(null);
const sentiment = (text: string) => analyzer.analyze({ id: 's', text }).sentiment;

describe('sentence sentiment', () => {
  it('follows the aspects a sentence judges, where the general lean reads the fault as blame', () => {
    for (const text of [
      'Fixed the leak fast.',
      'Came out on a Sunday, fixed the leak in twenty minutes, and charged a fair price.',
    ]) {
      const { sentences, analysis } = analyzer.explain({ id: 's', text });
      expect(
        sentences[0]!.clauses.every((c) => c.polarity < 0),
        `the lean of "${text}"`,
      ).toBe(true);
      expect(analysis.aspects.every((a) => a.polarity === 'positive')).toBe(true);
      expect(analysis.sentiment.label, text).toBe('positive');
    }
    expect(sentiment('The tech was rude and the bill was outrageous.').label).toBe('negative');
  });

  it('weighs each judged aspect as its clause: the one after a contrast word more', () => {
    const text = 'Showed up right on time, but left drywall dust all over the hallway.';
    const { aspects, sentiment: s } = analyzer.analyze({ id: 's', text });
    expect(aspects.map((a) => `${a.aspect} ${a.polarity}`).sort()).toEqual([
      'cleanliness negative',
      'punctuality positive',
    ]);
    const [good, bad] = [
      aspects.find((a) => a.polarity === 'positive')!.score,
      aspects.find((a) => a.polarity === 'negative')!.score,
    ];
    expect(s.score).toBeLessThan((good + bad) / 2);
    expect(s.score).toBeGreaterThan(bad);
  });

  it('takes the general lean when a sentence judges no aspect', () => {
    expect(analyzer.analyze({ id: 's', text: 'Highly recommend!' }).aspects).toEqual([]);
    expect(sentiment('Highly recommend!').label).toBe('positive');
    expect(sentiment('Never again.').label).toBe('negative');
  });
});
