// Trains one word-order network (analysis/word-order.ts) on tokenised sentences and their aspects: the word vectors
// stay fixed, the filters and the output are learnt by Adam on mini-batches, with dropout on the filters' values.
// Every random choice (initial weights, batch order, dropout) comes from one seeded generator, and the arithmetic
// runs in a fixed order: the same sentences and seed give the same weights, bit for bit, on any machine.
import {
  BLOCKS,
  FILTERS,
  FIRST_BLOCK,
  HIDDEN,
  outputs,
  pool,
  project,
  WIDTHS,
  WORD_VECTOR_DIMENSIONS,
  type Network,
  type WordVectors,
} from '../../src/insights/analysis/word-order.js';
import { sigmoid } from '../../src/insights/analysis/aspect-model.js';
import { seeded } from './scores.js';

/** Chosen on cross-fitted folds of the training sentences (docs/HISTORY.md). */
export const WORD_ORDER_TRAINING = { epochs: 14, learningRate: 0.003, batch: 32, dropout: 0.5 } as const;

export interface WordOrderExample {
  /** Each token's row in the word vectors (−1 for a word they do not hold). */
  rows: Int32Array;
  /** 1 for each aspect (AspectId order) the sentence is about. */
  labels: Uint8Array;
}

/** A standard normal draw (Box–Muller). */
const normal = (random: () => number) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/** Initial weights: He-scaled normals for the filters and the output, zero biases. */
function initial(aspects: number, random: () => number): Network {
  const conv = new Float64Array(BLOCKS.length * FILTERS * WORD_VECTOR_DIMENSIONS);
  BLOCKS.forEach(({ width }, b) => {
    const scale = Math.sqrt(2 / (width * WORD_VECTOR_DIMENSIONS));
    for (let i = 0; i < FILTERS * WORD_VECTOR_DIMENSIONS; i++)
      conv[b * FILTERS * WORD_VECTOR_DIMENSIONS + i] = scale * normal(random);
  });
  const out = new Float64Array(aspects * HIDDEN).map(() => Math.sqrt(2 / HIDDEN) * normal(random));
  return { conv, convBias: new Float64Array(HIDDEN), out, outBias: new Float64Array(aspects) };
}

/** Adam's running moments for one array of weights. */
class Adam {
  private readonly first: Float64Array;
  private readonly second: Float64Array;
  constructor(private readonly weights: Float64Array) {
    this.first = new Float64Array(weights.length);
    this.second = new Float64Array(weights.length);
  }
  step(gradient: Float64Array, rate: number, t: number): void {
    const c1 = 1 - 0.9 ** t;
    const c2 = 1 - 0.999 ** t;
    for (let i = 0; i < gradient.length; i++) {
      const g = gradient[i]!;
      this.first[i] = 0.9 * this.first[i]! + 0.1 * g;
      this.second[i] = 0.999 * this.second[i]! + 0.001 * g * g;
      this.weights[i]! -= (rate * (this.first[i]! / c1)) / (Math.sqrt(this.second[i]! / c2) + 1e-8);
    }
  }
}

/** The weights' names in a network, the order their optimisers step in. */
const KEYS = ['conv', 'convBias', 'out', 'outBias'] as const;
const { dropout: DROPOUT } = WORD_ORDER_TRAINING;

/** What one example's pass reads and writes: the weights, the batch's gradients and buffers reused between examples. */
interface Pass {
  network: Network;
  gradients: Network;
  aspects: number;
  random: () => number;
  /** A word's vector, by its row (read once). */
  rowVector: (row: number) => Float64Array;
  hidden: Float64Array;
  at: Int32Array;
  kept: Float64Array;
  z: Float64Array;
  dz: Float64Array;
}

/** Zeroed gradients and the buffers of a pass, for `network`; each word's vector read once from `vectors`. */
function newPass(network: Network, aspects: number, vectors: WordVectors, random: () => number): Pass {
  const vector = new Float64Array(WORD_VECTOR_DIMENSIONS);
  const vectorsOf = new Map<number, Float64Array>();
  const rowVector = (row: number) => {
    let v = vectorsOf.get(row);
    if (!v) vectorsOf.set(row, (v = Float64Array.from(vectors.read(row, vector))));
    return v;
  };
  return {
    network,
    gradients: {
      conv: new Float64Array(network.conv.length),
      convBias: new Float64Array(HIDDEN),
      out: new Float64Array(network.out.length),
      outBias: new Float64Array(aspects),
    },
    aspects,
    random,
    rowVector,
    hidden: new Float64Array(HIDDEN),
    at: new Int32Array(HIDDEN),
    kept: new Float64Array(HIDDEN),
    z: new Float64Array(aspects),
    dz: new Float64Array(aspects),
  };
}

/** Fisher–Yates, in place. */
function shuffle(order: number[], random: () => number): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
}

/** The batch's gradients, from zero; returns `loss` with the batch's negative log-likelihoods added. */
function learnBatch(pass: Pass, examples: readonly WordOrderExample[], picks: readonly number[], loss: number): number {
  const { network, hidden, at, kept } = pass;
  for (const g of KEYS) pass.gradients[g].fill(0);
  // The filters change only between batches: each word is projected once per batch.
  const projected = new Map<number, Float64Array>();
  const projection = (row: number) => {
    let p = projected.get(row);
    if (!p) {
      p = new Float64Array(BLOCKS.length * FILTERS);
      project(network, pass.rowVector(row), p);
      projected.set(row, p);
    }
    return p;
  };
  for (const n of picks) {
    const { rows, labels } = examples[n]!;
    pool(network, Array.from(rows, projection), hidden, at);
    for (let h = 0; h < HIDDEN; h++) kept[h] = pass.random() < DROPOUT ? 0 : hidden[h]! / (1 - DROPOUT);
    outputs(network, kept, pass.aspects, pass.z);
    loss = outputGradients(pass, labels, picks.length, loss);
    filterGradients(pass, rows);
  }
  return loss;
}

/** The output layer's gradients of one example (of `count` in the batch); returns `loss` with its negative log-likelihood added. */
function outputGradients(
  { gradients, aspects, kept, z, dz }: Pass,
  labels: Uint8Array,
  count: number,
  loss: number,
): number {
  for (let a = 0; a < aspects; a++) {
    const p = sigmoid(z[a]!);
    loss -= Math.log(labels[a] ? Math.max(p, 1e-12) : Math.max(1 - p, 1e-12));
    dz[a] = (p - labels[a]!) / count;
    gradients.outBias[a]! += dz[a]!;
    for (let h = 0; h < HIDDEN; h++) gradients.out[a * HIDDEN + h]! += dz[a]! * kept[h]!;
  }
  return loss;
}

/** The filters' gradients of one example, back through the pooled positions its kept filters took. */
function filterGradients({ network, gradients, aspects, rowVector, at, kept, dz }: Pass, rows: Int32Array): void {
  for (let h = 0; h < HIDDEN; h++) {
    if (kept[h] === 0 || at[h]! < 0) continue;
    let dh = 0;
    for (let a = 0; a < aspects; a++) dh += dz[a]! * network.out[a * HIDDEN + h]!;
    dh /= 1 - DROPOUT;
    const w = Math.floor(h / FILTERS);
    const f = h % FILTERS;
    gradients.convBias[h]! += dh;
    for (let offset = 0; offset < WIDTHS[w]! && at[h]! + offset < rows.length; offset++) {
      const x = rowVector(rows[at[h]! + offset]!);
      const base = ((FIRST_BLOCK[w]! + offset) * FILTERS + f) * WORD_VECTOR_DIMENSIONS;
      for (let d = 0; d < WORD_VECTOR_DIMENSIONS; d++) gradients.conv[base + d]! += dh * x[d]!;
    }
  }
}

/**
 * One network trained on `examples` with `seed`. `progress` hears the mean loss of each epoch.
 */
export function trainNetwork(
  examples: readonly WordOrderExample[],
  vectors: WordVectors,
  seed: number,
  progress?: (epoch: number, loss: number) => void,
): Network {
  const { epochs, learningRate, batch } = WORD_ORDER_TRAINING;
  const aspects = examples[0]?.labels.length ?? 0;
  const random = seeded(seed);
  const network = initial(aspects, random);
  const pass = newPass(network, aspects, vectors, random);
  const optimisers = KEYS.map((k) => new Adam(network[k]));
  const order = examples.map((_, i) => i);
  let t = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffle(order, random);
    let loss = 0;
    for (let start = 0; start < order.length; start += batch) {
      loss = learnBatch(pass, examples, order.slice(start, start + batch), loss);
      t++;
      KEYS.forEach((k, i) => optimisers[i]!.step(pass.gradients[k], learningRate, t));
    }
    progress?.(epoch + 1, loss / order.length / Math.max(1, aspects));
  }
  return network;
}

/** The network's log-odds for each aspect of each example (no dropout). */
export function networkLogits(
  network: Network,
  examples: readonly WordOrderExample[],
  vectors: WordVectors,
): Float64Array[] {
  const vector = new Float64Array(WORD_VECTOR_DIMENSIONS);
  const projected = new Map<number, Float64Array>();
  const hidden = new Float64Array(HIDDEN);
  const at = new Int32Array(HIDDEN);
  return examples.map(({ rows, labels }) => {
    const words = Array.from(rows, (row) => {
      let p = projected.get(row);
      if (!p) {
        p = new Float64Array(BLOCKS.length * FILTERS);
        project(network, vectors.read(row, vector), p);
        projected.set(row, p);
      }
      return p;
    });
    pool(network, words, hidden, at);
    const z = new Float64Array(labels.length);
    outputs(network, hidden, labels.length, z);
    return z;
  });
}
