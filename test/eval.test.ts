// The engine's measured quality stays at its targets, and the shipped models are exactly what training produces.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trainAspectModel } from '../src/insights/training/learn-aspects.js';
import { crossValidated } from '../src/insights/training/eval.js';
import { ASPECT_THRESHOLD, examplesOf, loadLabelled } from '../src/insights/training/labelled.js';
import { evaluateUci } from '../src/insights/training/polarity/uci.js';

describe('evaluation targets', () => {
  it('reaches macro-F1 ≥ 0.90 and aspect polarity accuracy ≥ 0.90 on the development set, cross-validated', () => {
    const scores = crossValidated(loadLabelled('eval/devset.jsonl'));
    expect(scores.macroF1).toBeGreaterThanOrEqual(0.9);
    expect(scores.polarityAccuracy).toBeGreaterThanOrEqual(0.9);
  });

  it('reaches ≥ 0.85 sentence polarity accuracy on the UCI Yelp sentences, which it never trained on', () => {
    const yelp = evaluateUci().find((row) => row.dataset === 'yelp')!;
    expect(yelp.trainedOn).not.toContain('yelp');
    expect(yelp.accuracy).toBeGreaterThanOrEqual(0.85);
  });
});

describe('shipped models', () => {
  it('the aspect model is what `npm run train:aspects` produces from the development set', () => {
    const shipped = readFileSync(resolve(import.meta.dirname, '../src/insights/analysis/aspect-model.json'), 'utf8');
    const trained = trainAspectModel(examplesOf(loadLabelled('eval/devset.jsonl')), ASPECT_THRESHOLD, 'Trained by `npm run train:aspects` on eval/devset.jsonl');
    expect(`${JSON.stringify(trained)}\n`).toBe(shipped);
  });
});
