// The word-order network: a second opinion beside the aspect regression (aspect-model.ts), which reads a sentence's
// words and word pairs but not their order beyond a pair, nor what a word means when the training sentences never
// used it. The network reads the sentence as fixed pre-trained word vectors (GloVe, word-vectors.json) and slides
// filters over every window of one, two and three words (a convolutional network, Kim 2014): each filter keeps its
// strongest window, and one logistic output per aspect weighs the filters. Its log-odds, times WORD_ORDER_WEIGHT, are
// added to the regression's; every decision can still be explained, by the windows whose filters weighed most.
// Trained by training/src/train-word-order.ts; this module only reads and applies the weights.
import vectorsFile from '../models/word-vectors.json' with { type: 'json' };

export const WORD_VECTOR_DIMENSIONS = 100;
/** The window widths, in words; each has FILTERS filters. */
export const WIDTHS = [1, 2, 3] as const;
export const FILTERS = 100;
/** How much the network's log-odds count beside the regression's (chosen on validation folds; docs/HISTORY.md). */
export const WORD_ORDER_WEIGHT = 0.5;
/** Each word's projections through every filter are kept for this many words, then the cache starts again. */
const CACHE_WORDS = 4096;

/** The (width, offset) blocks of a word's projection, in order: (1,0), (2,0), (2,1), (3,0), (3,1), (3,2). */
export const BLOCKS = WIDTHS.flatMap((width) => Array.from({ length: width }, (_, offset) => ({ width, offset })));
/** The first block of each width. */
export const FIRST_BLOCK = WIDTHS.map((width) => BLOCKS.findIndex((b) => b.width === width));

/**
 * A sentence's tokens as GloVe wrote its corpus: lowercased, words (with inner apostrophes and hyphens split off) and
 * each punctuation mark alone; "n't" is read as "not" ("didn't" → "did", "not"), other clitics stay apart ("'s").
 */
export function wordOrderTokens(text: string): string[] {
  const out: string[] = [];
  for (const [token] of text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .matchAll(/[\p{L}\p{N}]+(?:'[\p{L}]+)?|[^\s\p{L}\p{N}]/gu)) {
    const apostrophe = token.indexOf("'");
    if (apostrophe <= 0) out.push(token);
    else if (token.endsWith("n't")) {
      const stem = token.slice(0, -3);
      out.push(stem === 'ca' ? 'can' : stem === 'wo' ? 'will' : stem, 'not');
    } else out.push(token.slice(0, apostrophe), token.slice(apostrophe));
  }
  return out;
}

/** The shipped vectors: word → row, and each row's values (a signed byte times the row's scale). */
export class WordVectors {
  readonly index: ReadonlyMap<string, number>;
  private readonly bytes: Int8Array;
  private readonly scales: Float32Array;

  constructor(file: { words: string; scales: string; vectors: string } = vectorsFile) {
    this.index = new Map(file.words.split('\n').map((w, i) => [w, i]));
    const scales = Buffer.from(file.scales, 'base64');
    const bytes = Buffer.from(file.vectors, 'base64');
    this.scales = new Float32Array(scales.buffer, scales.byteOffset, scales.length / 4);
    this.bytes = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  }

  /** The row of each token, −1 for a word the vectors do not hold (it reads as zeros). */
  rows(tokens: readonly string[]): Int32Array {
    return Int32Array.from(tokens, (t) => this.index.get(t) ?? -1);
  }

  /** Row `row`'s vector into `into` (zeros for −1). */
  read(row: number, into: Float64Array): Float64Array {
    if (row < 0) return into.fill(0);
    const scale = this.scales[row]!;
    for (let d = 0; d < WORD_VECTOR_DIMENSIONS; d++) into[d] = this.bytes[row * WORD_VECTOR_DIMENSIONS + d]! * scale;
    return into;
  }
}

/** One trained network's weights (Float64Array in training, read from the shipped file's float32 when applied). */
export interface Network {
  /** Per block (BLOCKS order), FILTERS × WORD_VECTOR_DIMENSIONS weights, filter by filter. */
  conv: Float64Array;
  /** Per width, FILTERS biases. */
  convBias: Float64Array;
  /** Per aspect, one weight per filter of every width (WIDTHS.length × FILTERS). */
  out: Float64Array;
  outBias: Float64Array;
}

export const HIDDEN = WIDTHS.length * FILTERS;
const PROJECTION = BLOCKS.length * FILTERS;

/** Every block's projection of one word vector, into `into` (PROJECTION values). */
export function project(network: Network, vector: Float64Array, into: Float64Array | Float32Array): void {
  const { conv } = network;
  for (let j = 0; j < PROJECTION; j++) {
    let s = 0;
    const at = j * WORD_VECTOR_DIMENSIONS;
    for (let d = 0; d < WORD_VECTOR_DIMENSIONS; d++) s += conv[at + d]! * vector[d]!;
    into[j] = s;
  }
}

/**
 * The filters' values on a sentence whose words' projections are `projected` (one PROJECTION row each): for each
 * width and filter, the strongest window's value (ReLU; 0 when none is positive) into `hidden`, and where that
 * window starts into `at`. A sentence shorter than a width reads as padded with zero vectors.
 */
export function pool(
  network: Network,
  projected: readonly (Float64Array | Float32Array)[],
  hidden: Float64Array,
  at: Int32Array,
): void {
  const length = projected.length;
  const bias = network.convBias;
  for (let w = 0; w < WIDTHS.length; w++) {
    const width = WIDTHS[w]!;
    const first = w * FILTERS;
    const b0 = FIRST_BLOCK[w]! * FILTERS;
    const b1 = b0 + FILTERS;
    const b2 = b1 + FILTERS;
    const windows = Math.max(1, length - width + 1);
    for (let f = 0; f < FILTERS; f++) {
      let best = 0;
      let where = -1;
      for (let t = 0; t < windows; t++) {
        // The same sums in the same order as ever (bias, then each word's projection), so the same values bit for
        // bit; a word past the sentence's end adds nothing (a zero vector's projections are zeros).
        let s = bias[first + f]!;
        if (t < length) s += projected[t]![b0 + f]!;
        if (width > 1 && t + 1 < length) s += projected[t + 1]![b1 + f]!;
        if (width > 2 && t + 2 < length) s += projected[t + 2]![b2 + f]!;
        if (s > best) {
          best = s;
          where = t;
        }
      }
      hidden[first + f] = best;
      at[first + f] = where;
    }
  }
}

/** Each aspect's log-odds from the filters' values. */
export function outputs(network: Network, hidden: Float64Array, aspects: number, into: Float64Array): void {
  for (let a = 0; a < aspects; a++) {
    let z = network.outBias[a]!;
    // A filter no window moved (ReLU: 0) adds nothing.
    for (let h = 0; h < HIDDEN; h++) if (hidden[h] !== 0) z += network.out[a * HIDDEN + h]! * hidden[h]!;
    into[a] = z;
  }
}

export interface WordOrderFile {
  about: string;
  settings: Record<string, number | number[]>;
  /** The networks (one per seed) whose log-odds are averaged; each array base64 float32, little-endian. */
  networks: { conv: string; convBias: string; out: string; outBias: string }[];
}

type ShippedNetwork = WordOrderFile['networks'][number];

const float64 = (base64: string) => {
  const b = Buffer.from(base64, 'base64');
  return Float64Array.from(new Float32Array(b.buffer, b.byteOffset, b.length / 4));
};

/** A network as the file ships it, read back. */
export const readNetwork = (n: ShippedNetwork): Network => ({
  conv: float64(n.conv),
  convBias: float64(n.convBias),
  out: float64(n.out),
  outBias: float64(n.outBias),
});

/** A network's weights as the file ships them (float32: half the bytes of float64, and no decision changes). */
export const shippedNetwork = (n: Network): ShippedNetwork => {
  const base64 = (a: Float64Array) => Buffer.from(Float32Array.from(a).buffer).toString('base64');
  return { conv: base64(n.conv), convBias: base64(n.convBias), out: base64(n.out), outBias: base64(n.outBias) };
};

/** A window of words whose filters moved an aspect's log-odds, and by how much (already times WORD_ORDER_WEIGHT). */
export type Window = [string, number];

/** The shipped networks applied to sentences, each word's projections cached. */
export class WordOrderModel {
  private readonly networks: Network[];
  private readonly cache = new Map<string, Float32Array[]>();
  private readonly vector = new Float64Array(WORD_VECTOR_DIMENSIONS);
  private readonly hidden = new Float64Array(HIDDEN);
  private readonly at = new Int32Array(HIDDEN);
  private readonly z: Float64Array;

  constructor(
    file: WordOrderFile,
    private readonly vectors = new WordVectors(),
    private readonly aspects = 8,
  ) {
    this.networks = file.networks.map(readNetwork);
    this.z = new Float64Array(aspects);
  }

  private projections(word: string): Float32Array[] {
    let p = this.cache.get(word);
    if (!p) {
      if (this.cache.size >= CACHE_WORDS) this.cache.clear();
      this.vectors.read(this.vectors.index.get(word) ?? -1, this.vector);
      p = this.networks.map((n) => {
        const into = new Float32Array(PROJECTION);
        project(n, this.vector, into);
        return into;
      });
      this.cache.set(word, p);
    }
    return p;
  }

  /**
   * Each aspect's contribution to the log-odds of a sentence (the networks' mean times WORD_ORDER_WEIGHT) and, per
   * aspect when `windows` > 0, the `windows` windows that raised it most and those that lowered it most, each with
   * the sum of its filters' shares.
   */
  read(text: string, windows = 0): { logits: Float64Array; windows: Window[][] } {
    const tokens = wordOrderTokens(text);
    const words = tokens.map((t) => this.projections(t));
    const logits = new Float64Array(this.aspects);
    const shares = windows === 0 ? [] : Array.from({ length: this.aspects }, () => new Map<string, number>());
    const { hidden, at, z } = this;
    const weight = WORD_ORDER_WEIGHT / this.networks.length;
    this.networks.forEach((network, n) => {
      pool(
        network,
        words.map((p) => p[n]!),
        hidden,
        at,
      );
      outputs(network, hidden, this.aspects, z);
      for (let a = 0; a < this.aspects; a++) logits[a]! += weight * z[a]!;
      if (windows === 0) return;
      for (let h = 0; h < HIDDEN; h++) {
        if (at[h]! < 0) continue;
        const width = WIDTHS[Math.floor(h / FILTERS)]!;
        const span = tokens.slice(at[h], at[h]! + width).join(' ');
        if (!span) continue;
        for (let a = 0; a < this.aspects; a++)
          shares[a]!.set(span, (shares[a]!.get(span) ?? 0) + weight * network.out[a * HIDDEN + h]! * hidden[h]!);
      }
    });
    const round = (x: number) => Math.round(x * 1000) / 1000;
    // Each aspect's windows pushing it up, strongest first, then those pushing it down, strongest first.
    const strongest = (share: Map<string, number>, sign: number) =>
      [...share]
        .filter(([, s]) => Math.sign(s) === sign)
        .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]) || (x[0] < y[0] ? -1 : 1))
        .slice(0, windows)
        .map(([span, s]): Window => [span, round(s)]);
    return {
      logits,
      windows:
        windows === 0
          ? Array.from({ length: this.aspects }, () => [])
          : shares.map((share) => [...strongest(share, 1), ...strongest(share, -1)]),
    };
  }
}
