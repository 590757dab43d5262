// Deterministic training of the polarity model from labelled sentences: same sentences and lexicon → same weights.
import { extractFeatures } from '../../../src/insights/analysis/polarity/features.js';
import type { LearnedWeights } from '../../../src/insights/analysis/polarity/model.js';
import { Speller } from '../../../src/insights/analysis/polarity/spelling.js';

export interface LabelledSentence {
  readonly text: string;
  readonly positive: boolean;
}

// Strong pull towards the lexicon: with a few thousand sentences from other domains, free word weights learn the
// domain (phones, films) rather than the opinion, which measured worse on held-out data.
const MAIN = { l2: 0.03, epochs: 200, rate: 0.3 };
const FALLBACK = { l2: 0.003, epochs: 300, rate: 0.3 };
// Rounding and pruning keep model.json small and its bytes stable across platforms.
const DECIMALS = 1000;
const MIN_DELTA = 0.005;
const MIN_FALLBACK_WEIGHT = 0.02;

interface Row {
  readonly index: Int32Array;
  readonly value: Float64Array;
}

/**
 * Full-batch logistic regression with AdaGrad steps, each weight pulled (L2) towards its prior. Full batches and
 * a fixed visiting order make the result independent of anything but the input.
 */
function fit(
  rows: Row[],
  labels: Uint8Array,
  priors: Float64Array,
  opts: typeof MAIN,
): { bias: number; w: Float64Array } {
  const n = priors.length;
  const w = Float64Array.from(priors);
  const g2 = new Float64Array(n).fill(1e-8);
  const grad = new Float64Array(n);
  let bias = 0;
  let g2b = 1e-8;
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    grad.fill(0);
    let gb = 0;
    for (let r = 0; r < rows.length; r++) {
      const { index, value } = rows[r]!;
      let z = bias;
      for (let k = 0; k < index.length; k++) z += w[index[k]!]! * value[k]!;
      const err = 1 / (1 + Math.exp(-z)) - labels[r]!;
      for (let k = 0; k < index.length; k++) grad[index[k]!]! += err * value[k]!;
      gb += err;
    }
    for (let j = 0; j < n; j++) {
      const g = grad[j]! / rows.length + opts.l2 * (w[j]! - priors[j]!);
      g2[j]! += g * g;
      w[j]! -= (opts.rate * g) / Math.sqrt(g2[j]!);
    }
    gb /= rows.length;
    g2b += gb * gb;
    bias -= (opts.rate * gb) / Math.sqrt(g2b);
  }
  return { bias, w };
}

const round = (x: number): number => Math.round(x * DECIMALS) / DECIMALS;

function indexRows(features: { keys: string[]; values: number[]; priors: number[] }[]): {
  rows: Row[];
  names: string[];
  priors: Float64Array;
} {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const prior: number[] = [];
  const rows = features.map((f) => {
    const index = new Int32Array(f.keys.length);
    f.keys.forEach((key, k) => {
      let id = ids.get(key);
      if (id === undefined) {
        id = names.length;
        ids.set(key, id);
        names.push(key);
        prior.push(f.priors[k]!);
      }
      index[k] = id;
    });
    return { index, value: Float64Array.from(f.values) };
  });
  return { rows, names, priors: Float64Array.from(prior) };
}

export function train(sentences: readonly LabelledSentence[], lexicon: ReadonlyMap<string, number>): LearnedWeights {
  const speller = new Speller(lexicon);
  const extracted = sentences.map((s) => extractFeatures(s.text, lexicon, { allContent: true, speller }));
  const labels = Uint8Array.from(sentences, (s) => (s.positive ? 1 : 0));

  const main = indexRows(extracted);
  const fitted = fit(main.rows, labels, main.priors, MAIN);
  const deltas = new Map<string, number>();
  main.names.forEach((name, j) => {
    const delta = round(fitted.w[j]! - main.priors[j]!);
    if (Math.abs(delta) >= MIN_DELTA) deltas.set(name, delta);
  });

  // The fallback learns from every sentence's content words, not only from opinion-free ones: that measured better.
  const contentRows = extracted.map((f) => ({
    keys: f.content,
    values: f.content.map(() => 1),
    priors: f.content.map(() => 0),
  }));
  const fb = indexRows(contentRows);
  const fbFit = fit(fb.rows, labels, fb.priors, FALLBACK);
  const weights = new Map<string, number>();
  fb.names.forEach((name, j) => {
    const weight = round(fbFit.w[j]!);
    if (Math.abs(weight) >= MIN_FALLBACK_WEIGHT) weights.set(name, weight);
  });

  return { bias: round(fitted.bias), deltas, fallback: { bias: round(fbFit.bias), weights } };
}
