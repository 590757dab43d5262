// The evaluation sets are what their rules say (the frozen test set unchanged since its hash was recorded, a
// labelled corpus of at least 2,000 valid sentences sharing none with it), and the scores' bootstrap intervals
// behave as intervals.
import { describe, expect, it } from 'vitest';
import { Analyzer } from '../src/insights/analysis/analyzer.js';
import { CORPUS, FROZEN_TEST_SET } from '../training/src/labelled.js';
import { loadLabelled, type Labelled } from '../training/src/labelled.js';
import { fileHash, outcomesOf, recordedHash, summarize, withIntervals } from '../training/src/scores.js';
import { AspectId } from '../src/reviews/schemas.js';

const POLARITIES = ['positive', 'negative', 'neutral'];
const SENTIMENTS = ['positive', 'negative', 'mixed', 'neutral'];
const normal = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

function expectValid(items: readonly Labelled[]): void {
  for (const item of items) {
    expect(item.text.length, item.id).toBeGreaterThan(0);
    expect(SENTIMENTS, item.id).toContain(item.sentiment);
    const aspects = item.aspects.map((a) => a.aspect);
    expect(new Set(aspects).size, `${item.id}: an aspect twice`).toBe(aspects.length);
    for (const a of item.aspects) {
      expect(AspectId.options, item.id).toContain(a.aspect);
      expect(POLARITIES, item.id).toContain(a.polarity);
    }
  }
  expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
}

describe('the evaluation sets', () => {
  const frozen = loadLabelled(FROZEN_TEST_SET);
  const corpus = CORPUS.flatMap((file) => loadLabelled(file));

  it('has the frozen test set exactly as training/eval/FROZEN.md records it', () => {
    expect(recordedHash(FROZEN_TEST_SET)).toMatch(/^[0-9a-f]{64}$/);
    expect(fileHash(FROZEN_TEST_SET)).toBe(recordedHash(FROZEN_TEST_SET));
    expect(frozen).toHaveLength(600);
    expectValid(frozen);
  });

  it('has a corpus of at least 2,000 valid, distinct sentences, none of them in the frozen test set', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(2000);
    expectValid(corpus);
    const texts = new Set(corpus.map((i) => normal(i.text)));
    expect(texts.size).toBe(corpus.length);
    expect(frozen.filter((i) => texts.has(normal(i.text))).map((i) => i.id)).toEqual([]);
    // Every aspect has both polarities, many times.
    for (const aspect of AspectId.options) {
      for (const polarity of ['positive', 'negative']) {
        expect(
          corpus.filter((i) => i.aspects.some((a) => a.aspect === aspect && a.polarity === polarity)).length,
          `${aspect} ${polarity}`,
        ).toBeGreaterThanOrEqual(20);
      }
    }
  });
});

describe('scores with bootstrap intervals', () => {
  const analyzer = new Analyzer(null);
  const outcomes = outcomesOf(loadLabelled(FROZEN_TEST_SET).slice(0, 150), () => analyzer);

  it('holds each figure inside its interval, and gives the same intervals for the same seed', () => {
    const first = withIntervals(outcomes, 300, 7);
    expect(withIntervals(outcomes, 300, 7)).toEqual(first);
    for (const x of [first.macroF1, first.polarityAccuracy, ...Object.values(first.f1)]) {
      expect(x.low).toBeLessThanOrEqual(x.value);
      expect(x.value).toBeLessThanOrEqual(x.high);
    }
    expect(first.macroF1.high - first.macroF1.low).toBeGreaterThan(0);
    expect(first.scores).toEqual(summarize(outcomes));
  });

  it('narrows as the sentences grow (four times the sentences: about half the width)', () => {
    const width = (x: { low: number; high: number }) => x.high - x.low;
    const one = withIntervals(outcomes, 400, 3);
    const four = withIntervals([...outcomes, ...outcomes, ...outcomes, ...outcomes], 400, 3);
    expect(four.scores.macroF1).toBeCloseTo(one.scores.macroF1, 10);
    expect(width(four.macroF1)).toBeLessThan(0.7 * width(one.macroF1));
  });
});
