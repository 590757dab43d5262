// A learned second opinion on which aspects a clause talks about: one logistic regression per aspect over its
// words and word pairs (and what the lexicon found). It adds aspects the lexicon missed; it never removes one. The
// weights ship in aspect-model.json (written by training/train-aspects.ts); this module only reads and applies them.
import { AspectId } from '../../reviews/schemas.js';

export interface AspectModel {
  about: string;
  /** A clause is about an aspect when the model's probability reaches this. */
  threshold: number;
  bias: Record<string, number>;
  weights: Record<string, Record<string, number>>;
}

/** The logistic link: training and prediction must use the same one. */
export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

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
