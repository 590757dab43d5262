// A learned second opinion on which aspects a clause talks about: one logistic regression per aspect over its
// words and word pairs (and what the lexicon found), trained on the labelled development set. It adds aspects the
// lexicon missed; it never removes one. Deterministic training; the weights ship in aspect-model.json.
import { AspectId } from '../reviews/schemas.js';

export interface AspectModel {
  about: string;
  /** A clause is about an aspect when the model's probability reaches this. */
  threshold: number;
  bias: Record<string, number>;
  weights: Record<string, Record<string, number>>;
}

export interface TrainingExample {
  features: string[];
  aspects: ReadonlySet<AspectId>;
}

const EPOCHS = 300;
const LEARNING_RATE = 0.5;
const L2 = 0.002;
/** Weights smaller than this are dropped from the shipped model: they change no decision. */
const PRUNE = 0.02;

/** Words and adjacent word pairs of a clause (numbers as "#"), and the aspects the lexicon found in it. */
export function aspectFeatures(tokens: readonly string[], lexiconAspects: Iterable<string>): string[] {
  const features = new Set<string>();
  tokens.forEach((t, i) => {
    features.add(t);
    if (i > 0) features.add(`${tokens[i - 1]} ${t}`);
  });
  for (const a of lexiconAspects) features.add(`LEX:${a}`);
  return [...features].sort();
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function trainAspectModel(examples: readonly TrainingExample[], threshold: number, about: string): AspectModel {
  const vocabulary = [...new Set(examples.flatMap((e) => e.features))].sort();
  const index = new Map(vocabulary.map((f, i) => [f, i]));
  const rows = examples.map((e) => e.features.map((f) => index.get(f)!));
  const model: AspectModel = { about, threshold, bias: {}, weights: {} };
  for (const aspect of AspectId.options) {
    const y = examples.map((e) => (e.aspects.has(aspect) ? 1 : 0));
    const w = new Float64Array(vocabulary.length);
    let b = 0;
    // Full-batch gradient descent: no randomness, so the same data gives the same weights.
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

/** Feature → its weight for each aspect, in AspectId order: one lookup per feature instead of one per aspect. */
const byFeature = new WeakMap<AspectModel, Map<string, Float64Array>>();

function featureTable(model: AspectModel): Map<string, Float64Array> {
  let table = byFeature.get(model);
  if (!table) {
    table = new Map();
    AspectId.options.forEach((aspect, a) => {
      for (const [f, w] of Object.entries(model.weights[aspect] ?? {})) {
        let row = table!.get(f);
        if (!row) table!.set(f, (row = new Float64Array(AspectId.options.length)));
        row[a] = w;
      }
    });
    byFeature.set(model, table);
  }
  return table;
}

/** Aspects the model finds in a clause, with their probability and the features that counted most. */
export function predictAspects(model: AspectModel, features: readonly string[]): { aspect: AspectId; probability: number; cues: string[] }[] {
  const table = featureTable(model);
  const rows = features.flatMap((f) => {
    const row = table.get(f);
    return row ? [[f, row] as const] : [];
  });
  const found: { aspect: AspectId; probability: number; cues: string[] }[] = [];
  AspectId.options.forEach((aspect, a) => {
    let z = model.bias[aspect] ?? 0;
    for (const [, row] of rows) z += row[a]!;
    const probability = sigmoid(z);
    if (probability < model.threshold) return;
    const cues = rows
      .filter(([, row]) => row[a]! > 0)
      .sort((x, y) => y[1][a]! - x[1][a]! || (x[0] < y[0] ? -1 : 1))
      .slice(0, 3)
      .map(([f]) => f);
    found.push({ aspect, probability, cues });
  });
  return found;
}
