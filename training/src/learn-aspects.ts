// Trains the aspect model (analysis/aspect-model.ts): one L2-regularised logistic regression per aspect (and one for
// the polarity of a found aspect), fitted by full-batch AdaGrad with no randomness (the same examples give the same
// weights), and each aspect's threshold chosen on validation folds: every training sentence is scored by a model that
// did not see it, and the threshold that gives those scores the best F1 is kept. The test set is never read here.
// Each plain feature enters the regression scaled by its naive-Bayes log-count ratio (NBSVM, Wang & Manning 2012): a
// feature that falls evenly in both classes starts near zero and one that falls in one class is cheap to weigh. The
// shipped weight is the learnt weight times that scale, so the analyzer applies a plain linear model.
import { AspectId } from '../../src/reviews/schemas.js';
import { chooseClause } from '../../src/insights/analysis/analyzer.js';
import { featureValue, sentenceMargin, sigmoid, type AspectModel } from '../../src/insights/analysis/aspect-model.js';
import type { TrainingExample } from './common.js';
import { precisionRecallF1 } from './scores.js';

export type { TrainingExample } from './common.js';

/** Chosen by five-fold cross-validation on the training sentences (docs/HISTORY.md has the runs). */
const EPOCHS = 400;
const LEARNING_RATE = 1;
/**
 * The L2 pull of each aspect's regression and of the polarity regression, apart: the aspect regressions do better
 * with less pull than the polarity regression, which loses accuracy when its pull is lightened (docs/HISTORY.md).
 */
const ASPECT_L2 = 0.00015;
const POLARITY_L2 = 0.00025;
/** The count added to each feature's count in each class before the log-count ratio (smoothing). */
const NB_SMOOTHING = 0.5;
/** Weights smaller than this are dropped from the shipped model: they change almost no decision. */
const PRUNE = 0.02;
/**
 * The thresholds tried, from 0.1 to 0.9 in steps of THRESHOLD_STEP; a range reaching lower chose no better
 * thresholds (docs/HISTORY.md).
 */
const THRESHOLD_STEP = 0.025;
export const VALIDATION_FOLDS = 5;

interface Fitted {
  weights: Float64Array;
  bias: number;
}

/** One example: the vocabulary indices of its features and each one's value (1 for a plain feature). */
interface Row {
  index: Int32Array;
  value: Float64Array;
}

/** The regression's log-odds for one example. */
function margin({ index, value }: Row, { weights, bias }: Fitted): number {
  let z = bias;
  for (let k = 0; k < index.length; k++) z += weights[index[k]!]! * value[k]!;
  return z;
}

function fit(rows: readonly Row[], y: readonly number[], size: number, l2: number): Fitted {
  const fitted: Fitted = { weights: new Float64Array(size), bias: 0 };
  const { weights } = fitted;
  const squared = new Float64Array(size).fill(1e-8);
  let squaredBias = 1e-8;
  const gradient = new Float64Array(size);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    gradient.fill(0);
    let gradientBias = 0;
    rows.forEach((row, n) => {
      const error = sigmoid(margin(row, fitted)) - y[n]!;
      for (let k = 0; k < row.index.length; k++) gradient[row.index[k]!]! += error * row.value[k]!;
      gradientBias += error;
    });
    for (let i = 0; i < size; i++) {
      const g = gradient[i]! / rows.length + l2 * weights[i]!;
      squared[i]! += g * g;
      weights[i]! -= (LEARNING_RATE * g) / Math.sqrt(squared[i]!);
    }
    const g = gradientBias / rows.length;
    squaredBias += g * g;
    fitted.bias -= (LEARNING_RATE * g) / Math.sqrt(squaredBias);
  }
  return fitted;
}

interface Encoded {
  vocabulary: string[];
  /** Feature → its index in `vocabulary`. */
  index: Map<string, number>;
  rows: Row[];
  /** 1 for a feature that carries a value ("LEAN=-0.4"): it is never scaled. */
  valued: Uint8Array;
}

/** Feature lists as rows of vocabulary indices and values ("LEAN=-0.4" is the feature LEAN with the value −0.4). */
function encode(lists: readonly (readonly string[])[]): Encoded {
  const parsed = lists.map((list) => list.map(featureValue));
  const vocabulary = [...new Set(parsed.flatMap((list) => list.map(([name]) => name)))].sort();
  const index = new Map(vocabulary.map((f, i) => [f, i]));
  const valued = new Uint8Array(vocabulary.length);
  lists.forEach((list, n) =>
    list.forEach((f, k) => {
      if (f.includes('=')) valued[index.get(parsed[n]![k]![0])!] = 1;
    }),
  );
  return {
    vocabulary,
    index,
    rows: parsed.map((list) => ({
      index: Int32Array.from(list, ([name]) => index.get(name)!),
      value: Float64Array.from(list, ([, value]) => value),
    })),
    valued,
  };
}

/** Each feature's scale for these examples and labels: |log(P(f | y=1) / P(f | y=0))|, smoothed; 1 for a valued one. */
function logCountRatios({ rows, valued }: Encoded, picks: readonly number[], y: readonly number[]): Float64Array {
  const positive = new Float64Array(valued.length).fill(NB_SMOOTHING);
  const negative = new Float64Array(valued.length).fill(NB_SMOOTHING);
  for (const n of picks) for (const i of rows[n]!.index) (y[n] ? positive : negative)[i]!++;
  const positiveTotal = positive.reduce((s, x) => s + x, 0);
  const negativeTotal = negative.reduce((s, x) => s + x, 0);
  return positive.map((p, i) =>
    valued[i] ? 1 : Math.abs(Math.log(p / positiveTotal / (negative[i]! / negativeTotal))),
  );
}

/** The regression fitted on the examples at `picks` with every feature scaled, its weights brought back to the plain features. */
function fitScaled(encoded: Encoded, picks: readonly number[], y: readonly number[], l2: number): Fitted {
  const scale = logCountRatios(encoded, picks, y);
  const scaled = picks.map((n) => {
    const { index, value } = encoded.rows[n]!;
    return { index, value: value.map((v, k) => v * scale[index[k]!]!) };
  });
  const fitted = fit(
    scaled,
    picks.map((n) => y[n]!),
    encoded.vocabulary.length,
    l2,
  );
  return { weights: fitted.weights.map((w, i) => w * scale[i]!), bias: fitted.bias };
}

const rounded = (x: number) => Math.round(x * 1000) / 1000;

/** The weights worth shipping, rounded: same training, same bytes. */
function kept(vocabulary: readonly string[], weights: Float64Array): Record<string, number> {
  const out: Record<string, number> = {};
  vocabulary.forEach((f, i) => {
    if (Math.abs(weights[i]!) >= PRUNE) out[f] = rounded(weights[i]!);
  });
  return out;
}

const labels = (examples: readonly TrainingExample[], aspect: AspectId) =>
  examples.map((e) => (e.aspects.has(aspect) ? 1 : 0));

const everyOne = (length: number) => Array.from({ length }, (_, n) => n);

export function trainAspectModel(
  examples: readonly TrainingExample[],
  thresholds: Record<string, number>,
  about: string,
): AspectModel {
  const encoded = encode(examples.map((e) => e.features));
  const { vocabulary } = encoded;
  const model: AspectModel = { about, thresholds, bias: {}, weights: {}, polarity: { bias: 0, weights: {} } };
  for (const aspect of AspectId.options) {
    const { weights, bias } = fitScaled(encoded, everyOne(examples.length), labels(examples, aspect), ASPECT_L2);
    model.bias[aspect] = rounded(bias);
    model.weights[aspect] = kept(vocabulary, weights);
  }
  // The polarity regression learns from each judged gold aspect in the clause the analyzer would judge it in,
  // chosen with the aspect weights just learnt.
  const judged = examples.flatMap((e) => e.judged);
  const polarity = encode(
    judged.map(({ aspect, place }) => place.polarityFeatures(chooseClause(place.candidates, model, aspect))),
  );
  const { weights, bias } = fitScaled(
    polarity,
    everyOne(judged.length),
    judged.map((j) => (j.positive ? 1 : 0)),
    POLARITY_L2,
  );
  model.polarity = { bias: rounded(bias), weights: kept(polarity.vocabulary, weights) };
  return model;
}

export interface Validation {
  /** Per aspect: the chosen threshold and the F1, precision and recall it gives on the validation folds. */
  perAspect: Record<AspectId, { threshold: number; f1: number; precision: number; recall: number }>;
  macroF1: number;
}

/** Each aspect's chosen threshold, as the model keeps them. */
const thresholdsOf = ({ perAspect }: Validation): Record<string, number> =>
  Object.fromEntries(AspectId.options.map((a) => [a, perAspect[a].threshold]));

/** How much a sentence about the aspect (positive) and one not about it (negative) count in a threshold's F1. */
export interface ClassWeights {
  positive: number;
  negative: number;
}

/**
 * The weights that bring an aspect's share of the training sentences (`trained`) to its share in reviews (`target`):
 * the later rounds of labelled data were written to hold more of the weak aspects than reviews do, and a threshold
 * chosen on their mix lets through more false positives than reviews' mix would (label-shift reweighting).
 */
export function classWeights(trained: number, target: number): ClassWeights {
  return { positive: target / trained, negative: (1 - target) / (1 - trained) };
}

function scored(probabilities: Float64Array, y: readonly number[], threshold: number, weights: ClassWeights) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  probabilities.forEach((p, n) => {
    if (p >= threshold && y[n]) tp++;
    else if (p >= threshold) fp++;
    else if (y[n]) fn++;
  });
  return precisionRecallF1(tp * weights.positive, fp * weights.negative, fn * weights.positive);
}

/** Feature lists as rows of a vocabulary already made (feature → index); features it does not hold are left out. */
function encodeIn(index: ReadonlyMap<string, number>, lists: readonly (readonly string[])[]): Row[] {
  return lists.map((list) => {
    const known = list.filter((f) => index.has(f));
    return { index: Int32Array.from(known, (f) => index.get(f)!), value: new Float64Array(known.length).fill(1) };
  });
}

/**
 * Each aspect's out-of-fold probabilities (example n is in fold n % folds), each the probability the analyzer decides
 * on: the sentence's or a part's, as sentenceMargin says, with the word-order network's share added.
 */
export function outOfFoldProbabilities(
  examples: readonly TrainingExample[],
  folds = VALIDATION_FOLDS,
): Record<AspectId, Float64Array> {
  const encoded = encode(examples.map((e) => e.features));
  const { rows } = encoded;
  const partRows = examples.map((e) => encodeIn(encoded.index, e.parts));
  const out = {} as Record<AspectId, Float64Array>;
  AspectId.options.forEach((aspect, a) => {
    const y = labels(examples, aspect);
    const outOfFold = new Float64Array(examples.length);
    for (let fold = 0; fold < folds; fold++) {
      const training = rows.flatMap((_, n) => (n % folds === fold ? [] : [n]));
      const fitted = fitScaled(encoded, training, y, ASPECT_L2);
      rows.forEach((row, n) => {
        if (n % folds === fold)
          outOfFold[n] = sigmoid(
            sentenceMargin(
              margin(row, fitted),
              partRows[n]!.map((p) => margin(p, fitted)),
            ).margin + (examples[n]!.wordOrder?.[a] ?? 0),
          );
      });
    }
    out[aspect] = outOfFold;
  });
  return out;
}

/**
 * Each aspect's threshold: the one whose out-of-fold F1 is best, the classes weighed to `targetShare` (the share of
 * sentences about each aspect expected in reviews) when given.
 */
export function chooseThresholds(
  examples: readonly TrainingExample[],
  targetShare?: Readonly<Record<AspectId, number>>,
  probabilities = outOfFoldProbabilities(examples),
): Validation {
  const perAspect = {} as Validation['perAspect'];
  for (const aspect of AspectId.options) {
    const y = labels(examples, aspect);
    const trained = y.reduce((s: number, v) => s + v, 0) / y.length;
    const weights = targetShare ? classWeights(trained, targetShare[aspect]) : { positive: 1, negative: 1 };
    const outOfFold = probabilities[aspect];
    let best = { threshold: 0.5, ...scored(outOfFold, y, 0.5, weights) };
    for (let step = 4; step <= 36; step++) {
      const threshold = rounded(step * THRESHOLD_STEP);
      const s = scored(outOfFold, y, threshold, weights);
      if (s.f1 > best.f1) best = { threshold, ...s };
    }
    perAspect[aspect] = best;
  }
  const macroF1 = AspectId.options.reduce((s, a) => s + perAspect[a].f1, 0) / AspectId.options.length;
  return { perAspect, macroF1 };
}

/**
 * What `npm run train:aspects` does with some examples: each aspect's threshold chosen on their validation folds
 * (weighed to `targetShare`), then the model trained on all of them with those thresholds.
 */
export function trainChoosingThresholds(
  examples: readonly TrainingExample[],
  targetShare: Readonly<Record<AspectId, number>>,
  about: string,
): { model: AspectModel; validation: Validation } {
  const validation = chooseThresholds(examples, targetShare);
  return { model: trainAspectModel(examples, thresholdsOf(validation), about), validation };
}
