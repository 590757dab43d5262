// The engine's measured quality holds on the frozen test set (a floor against regressions, not a target tuned on
// it), and the shipped models are exactly what training produces.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Analyzer } from '../src/insights/analysis/analyzer.js';
import { firstLabelsOf, FROZEN_TEST_SET, loadLabelled, SECOND_PASSES } from '../training/src/labelled.js';
import { evaluateUci } from '../training/src/polarity/uci.js';
import { outcomesOf, outcomesOfLabelling, summarize } from '../training/src/scores.js';
import { trainShippedPolarityModel } from '../training/src/polarity/train.js';
import { trainShippedAspectModel } from '../training/src/train-aspects.js';

describe('evaluation on the frozen test set', () => {
  it('keeps macro-F1 ≥ 0.89, every aspect ≥ 0.82, aspect polarity ≥ 0.93 and sentence sentiment ≥ 0.85 (measured 2026-11-29: 0.912, 0.859, 0.945, 0.882)', () => {
    const analyzer = new Analyzer(null);
    const scores = summarize(outcomesOf(loadLabelled(FROZEN_TEST_SET), () => analyzer));
    expect(scores.macroF1).toBeGreaterThanOrEqual(0.89);
    for (const aspect of scores.perAspect) expect(aspect.f1, aspect.aspect).toBeGreaterThanOrEqual(0.82);
    expect(scores.polarityAccuracy).toBeGreaterThanOrEqual(0.93);
    expect(scores.sentimentAccuracy).toBeGreaterThanOrEqual(0.85);
  });

  it('reaches ≥ 0.88 sentence polarity accuracy on the UCI Yelp sentences, which it never trained on (measured 2026-11-27: 0.882)', () => {
    const yelp = evaluateUci().find((row) => row.dataset === 'yelp')!;
    expect(yelp.trainedOn).not.toContain('yelp');
    expect(yelp.accuracy).toBeGreaterThanOrEqual(0.88);
  });
});

describe('second labellings', () => {
  it('label again, text for text, sentences of the frozen set and the review-mix sets, and agree with their first labels (measured 2026-11-28: macro-F1 0.989 and 0.971)', () => {
    for (const file of SECOND_PASSES) {
      const second = loadLabelled(file);
      const first = firstLabelsOf(second);
      expect(second.map((item) => item.text)).toEqual(first.map((item) => item.text));
      expect(new Set(second.map((item) => item.id)).size, file).toBe(second.length);
      expect(summarize(outcomesOfLabelling(first, second)).macroF1, file).toBeGreaterThanOrEqual(0.95);
    }
  });
});

describe('shipped models', () => {
  it('the polarity model is what `npm run train:polarity` produces from the lexicons and the Amazon and IMDB sentences', () => {
    const shipped = readFileSync(resolve(import.meta.dirname, '../src/insights/models/polarity-model.json'), 'utf8');
    expect(`${JSON.stringify(trainShippedPolarityModel().file)}\n`).toBe(shipped);
  });

  it(
    'the aspect model is what `npm run train:aspects` produces from the training sentences',
    { timeout: 900_000 },
    () => {
      const shipped = readFileSync(resolve(import.meta.dirname, '../src/insights/models/aspect-model.json'), 'utf8');
      expect(`${JSON.stringify(trainShippedAspectModel().model)}\n`).toBe(shipped);
    },
  );
});
