// The learned decision of which aspects a sentence talks about: one logistic regression per aspect over its words,
// word pairs, character 4-grams of its longer words (misspellings share most of them) and what the lexicon found
// and judged in it, each with its own threshold. A sentence is also read part by part (its clauses, cut again at
// commas and other breaks): an aspect one part is clearly about is not drowned by the rest of a long sentence. Every
// decision can be shown: the probability, the threshold and the features that weighed most. The weights ship in
// models/aspect-model.json (written by training/src/train-aspects.ts); this module only reads and applies them. A second
// regression judges each found aspect positive or negative from the clause about it (its words, negations, the
// polarity model's lean, the lexicon's judgement).
import { AspectId } from '../../reviews/schemas.js';
import type { Window } from './word-order.js';

export interface AspectModel {
  about: string;
  /** Per aspect: a sentence is about it when the model's probability reaches this (chosen on validation folds). */
  thresholds: Record<string, number>;
  bias: Record<string, number>;
  weights: Record<string, Record<string, number>>;
  /** Whether a found aspect is judged positively: one regression for every aspect over its clause's features. */
  polarity: { bias: number; weights: Record<string, number> };
}

/** The logistic link: training and prediction must use the same one. */
export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** What a sentence offers the model: its tokens, the aspects the lexicon names in it, and those it judged. */
export interface SentenceEvidence {
  tokens: readonly string[];
  lexiconAspects: Iterable<string>;
  judgedAspects: Iterable<string>;
}

/** Words this long or longer also give their character 4-grams ("knowledgable" shares most of "knowledgeable"'s). */
const CHARACTER_GRAM_WORD = 6;
const CHARACTER_GRAM = 4;

/** The features of a sentence: words, adjacent pairs (numbers as "#"), `C:` character 4-grams, `LEX:` and `JUDGED:` aspects. */
export function aspectFeatures({ tokens, lexiconAspects, judgedAspects }: SentenceEvidence): string[] {
  const features = new Set<string>();
  tokens.forEach((t, i) => {
    features.add(t);
    if (i > 0) features.add(`${tokens[i - 1]} ${t}`);
    if (t.length >= CHARACTER_GRAM_WORD) {
      const bounded = `<${t}>`;
      for (let k = 0; k + CHARACTER_GRAM <= bounded.length; k++)
        features.add(`C:${bounded.slice(k, k + CHARACTER_GRAM)}`);
    }
  });
  for (const a of lexiconAspects) features.add(`LEX:${a}`);
  for (const a of judgedAspects) features.add(`JUDGED:${a}`);
  return [...features];
}

/**
 * A part of a sentence read alone counts with its log-odds lowered by this much (a part is shorter, so fewer words
 * speak against an aspect): chosen on the validation folds (docs/HISTORY.md).
 */
export const PART_DISCOUNT = 0.5;

/** One aspect's decision on a sentence, with the features that pushed it most either way. */
export interface AspectDecision {
  aspect: AspectId;
  probability: number;
  threshold: number;
  found: boolean;
  /** The part of the sentence (index) whose own reading gave the probability, when it beat the whole sentence's. */
  part?: number;
  /** The features with the largest weights for this aspect, strongest first: [feature, weight]. */
  reasons: [string, number][];
  /** What the word-order network added to the regression's log-odds (absent when the analyzer runs without it). */
  wordOrder?: number;
  /** The word windows whose filters moved the network's share most the decision's way, strongest first. */
  windows?: Window[];
}

/** The word-order network's reading of a sentence (word-order.ts): each aspect's share of the log-odds, and its windows. */
export interface WordOrderReading {
  logits: ArrayLike<number>;
  windows: Window[][];
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

/** One aspect's probability on some features (choosing the clause an aspect is judged in). */
export function aspectProbability(model: AspectModel, features: readonly string[], aspect: AspectId): number {
  const a = AspectId.options.indexOf(aspect);
  const table = featureTable(model);
  let z = model.bias[aspect] ?? 0;
  for (const f of features) z += table.get(f)?.[a] ?? 0;
  return sigmoid(z);
}

/** Every aspect's log-odds on some features, and the features the model knows with their weight rows. */
function margins(
  model: AspectModel,
  features: readonly string[],
): { z: number[]; weighed: (readonly [string, Float64Array])[] } {
  const table = featureTable(model);
  const z = AspectId.options.map((aspect) => model.bias[aspect] ?? 0);
  const weighed: (readonly [string, Float64Array])[] = [];
  for (const f of features) {
    const row = table.get(f);
    if (!row) continue;
    for (let a = 0; a < z.length; a++) z[a]! += row[a]!;
    weighed.push([f, row]);
  }
  return { z, weighed };
}

/**
 * The log-odds the decision is made on: the whole sentence's, or a part's less PART_DISCOUNT when that is higher.
 * Training chooses the thresholds on exactly this.
 */
export function sentenceMargin(
  sentence: number,
  parts: Iterable<number>,
): { margin: number; part: number | undefined } {
  let margin = sentence;
  let part: number | undefined;
  let i = 0;
  for (const z of parts) {
    if (z - PART_DISCOUNT > margin) [margin, part] = [z - PART_DISCOUNT, i];
    i++;
  }
  return { margin, part };
}

/**
 * Every aspect's decision on a sentence's features and its parts' (the analyzer gives none for a sentence of one
 * part: that part is the sentence, and less the discount it never decides), the word-order network's share added
 * when given, with the `reasons` strongest features of each found aspect (and of each aspect not found too, when
 * `explainAll`).
 */
export function decideAspects(
  model: AspectModel,
  features: readonly string[],
  parts: readonly (readonly string[])[] = [],
  reasons = 3,
  explainAll = false,
  wordOrder?: WordOrderReading,
): AspectDecision[] {
  const whole = margins(model, features);
  const read = parts.map((p) => margins(model, p));
  return AspectId.options.map((aspect, a) => {
    const { margin, part } = sentenceMargin(
      whole.z[a]!,
      read.map((p) => p.z[a]!),
    );
    const added = wordOrder?.logits[a] ?? 0;
    const probability = sigmoid(margin + added);
    const threshold = model.thresholds[aspect] ?? 0.5;
    const found = probability >= threshold;
    const decision: AspectDecision = {
      aspect,
      probability,
      threshold,
      found,
      ...(part === undefined ? {} : { part }),
      reasons: [],
    };
    if (reasons === 0 || (!found && !explainAll)) return decision;
    if (wordOrder) {
      decision.wordOrder = Math.round(added * 1000) / 1000;
      decision.windows = wordOrder.windows[a]!.filter(([, share]) => (found ? share > 0 : share < 0)).slice(0, reasons);
    }
    // A found aspect is explained by what spoke for it; one not found, by what spoke against it.
    decision.reasons = (part === undefined ? whole : read[part]!).weighed
      .filter(([, row]) => (found ? row[a]! > 0 : row[a]! < 0))
      .sort((x, y) => Math.abs(y[1][a]!) - Math.abs(x[1][a]!) || (x[0] < y[0] ? -1 : 1))
      .slice(0, reasons)
      .map(([f, row]): [string, number] => [f, row[a]!]);
    return decision;
  });
}

const NEGATION_SCOPE = 3;

/** Words that carry no opinion alone: in the polarity regression they only learn what the training sentences happened to say. */
const FUNCTION_WORDS = new Set(
  'a an the this that these those my our your his her their its i we you he she they it me us him them of to in on at for by with from into over about as and or so if then than is was were are be been am has had have do did does #'.split(
    ' ',
  ),
);

/** A feature with a value ("LEAN=-0.38"): its weight counts times the value. Words never hold "=". */
export const valued = (name: string, value: number) => `${name}=${Math.round(value * 1000) / 1000}`;

/** A feature's name and value: a plain feature counts once. */
export function featureValue(feature: string): [string, number] {
  const at = feature.indexOf('=');
  return at < 0 ? [feature, 1] : [feature.slice(0, at), Number(feature.slice(at + 1))];
}

/**
 * What a clause offers the polarity regression, whatever the aspect: its lean and its words (`¬` marks a negated one)
 * and pairs. Function words and negators are left out alone (a negator says nothing until it negates something), and
 * so are pairs of two function words: measured on the validation folds, they only learnt the training sentences.
 */
export function clausePolarityFeatures(
  tokens: readonly string[],
  lean: number,
  negators: ReadonlySet<string>,
): string[] {
  const features = new Set<string>([valued('LEAN', lean)]);
  let negated = 0;
  tokens.forEach((t, i) => {
    const word = negated > 0 ? `¬${t}` : t;
    if (!FUNCTION_WORDS.has(t) && !negators.has(t)) features.add(word);
    if (i > 0 && !(FUNCTION_WORDS.has(t) && FUNCTION_WORDS.has(tokens[i - 1]!))) features.add(`${tokens[i - 1]} ${t}`);
    negated = negators.has(t) ? NEGATION_SCOPE : Math.max(0, negated - 1);
  });
  return [...features];
}

/**
 * The features of one aspect in a clause: the clause's own, the sentence's lean and the lexicon's judgement of the
 * aspect, each word and lean also paired with the aspect ("cheap" judges a price well and a repair badly).
 */
export function aspectPolarityFeatures(
  clause: readonly string[],
  sentenceLean: number,
  lexiconScore: number | undefined,
  aspect: AspectId,
): string[] {
  const features = [...clause, valued('SENTENCE', sentenceLean)];
  if (lexiconScore !== undefined)
    features.push(valued('JUDGED', lexiconScore), valued(`${aspect}|JUDGED`, lexiconScore));
  for (const f of clause) if (!f.includes(' ')) features.push(`${aspect}|${f}`);
  return features;
}

const polarityTables = new WeakMap<AspectModel, Map<string, number>>();

/** Whether a found aspect reads positive, with the probability and the features that weighed most for the answer. */
export function decidePolarity(
  model: AspectModel,
  features: readonly string[],
  reasons = 3,
): { positive: boolean; probability: number; reasons: [string, number][] } {
  let table = polarityTables.get(model);
  if (!table) polarityTables.set(model, (table = new Map(Object.entries(model.polarity.weights))));
  const weighed = features.map((f): [string, number] => {
    const [name, value] = featureValue(f);
    return [f, (table.get(name) ?? 0) * value];
  });
  let z = model.polarity.bias;
  for (const [, w] of weighed) z += w;
  const probability = sigmoid(z);
  const positive = probability >= 0.5;
  if (reasons === 0) return { positive, probability, reasons: [] };
  const strongest = weighed
    .filter(([, w]) => (positive ? w > 0 : w < 0))
    .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]) || (x[0] < y[0] ? -1 : 1))
    .slice(0, reasons);
  return { positive, probability, reasons: strongest };
}
