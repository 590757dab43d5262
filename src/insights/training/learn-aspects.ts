// Trains the aspect model (analysis/aspect-model.ts): one logistic regression per aspect, full-batch gradient
// descent with no randomness, so the same examples give the same weights.
import { AspectId } from '../../reviews/schemas.js';
import { sigmoid, type AspectModel } from '../analysis/aspect-model.js';

export interface TrainingExample {
  features: string[];
  aspects: ReadonlySet<AspectId>;
}

const EPOCHS = 300;
const LEARNING_RATE = 0.5;
const L2 = 0.002;
/** Weights smaller than this are dropped from the shipped model: they change no decision. */
const PRUNE = 0.02;

export function trainAspectModel(examples: readonly TrainingExample[], threshold: number, about: string): AspectModel {
  const vocabulary = [...new Set(examples.flatMap((e) => e.features))].sort();
  const index = new Map(vocabulary.map((f, i) => [f, i]));
  const rows = examples.map((e) => e.features.map((f) => index.get(f)!));
  const model: AspectModel = { about, threshold, bias: {}, weights: {} };
  for (const aspect of AspectId.options) {
    const y = examples.map((e) => (e.aspects.has(aspect) ? 1 : 0));
    const w = new Float64Array(vocabulary.length);
    let b = 0;
    for (let epoch = 0; epoch < EPOCHS; epoch++) {
      const grad = new Float64Array(vocabulary.length);
      let gradB = 0;
      rows.forEach((row, n) => {
        let z = b;
        for (const i of row) z += w[i]!;
        const error = sigmoid(z) - y[n]!;
        for (const i of row) grad[i]! += error;
        gradB += error;
      });
      for (let i = 0; i < w.length; i++) w[i]! -= LEARNING_RATE * (grad[i]! / rows.length + L2 * w[i]!);
      b -= LEARNING_RATE * (gradB / rows.length);
    }
    model.bias[aspect] = Math.round(b * 1000) / 1000;
    const weights: Record<string, number> = {};
    vocabulary.forEach((f, i) => {
      if (Math.abs(w[i]!) >= PRUNE) weights[f] = Math.round(w[i]! * 1000) / 1000;
    });
    model.weights[aspect] = weights;
  }
  return model;
}

