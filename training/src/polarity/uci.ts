// The labelled UCI sentence files (Yelp, Amazon, IMDB; 1,000 each) that the `sentiment` dev package ships, and the
// held-out evaluation: every file is scored by a model whose training never saw it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import shippedModel from '../../../src/insights/models/polarity-model.json' with { type: 'json' };
import {
  baseLexiconOf,
  composeLexicon,
  fromFile,
  judge,
  type ModelFile,
  type PolarityModel,
} from '../../../src/insights/analysis/polarity/model.js';
import { Speller } from '../../../src/insights/analysis/polarity/spelling.js';
import { train, type LabelledSentence } from './learn.js';

export type UciDataset = 'yelp' | 'amazon' | 'imdb';

export interface UciScore {
  dataset: UciDataset;
  sentences: number;
  /** Share labelled right; a neutral answer counts as wrong, since every sentence is positive or negative. */
  accuracy: number;
  neutral: number;
  trainedOn: string[];
}

/** Training sets for the two files the production model learns from: the other non-Yelp file, so Yelp stays unseen. */
const HELD_OUT_TRAINING: Readonly<Record<'amazon' | 'imdb', UciDataset[]>> = { amazon: ['imdb'], imdb: ['amazon'] };

function fixturesDir(): string {
  // A dev dependency: evaluation and training need it, serving never does.
  return join(dirname(createRequire(import.meta.url).resolve('sentiment/package.json')), 'test', 'fixtures');
}

export function loadUci(dataset: UciDataset): LabelledSentence[] {
  const raw: unknown = JSON.parse(readFileSync(join(fixturesDir(), `${dataset}.json`), 'utf8'));
  if (!Array.isArray(raw)) throw new Error(`${dataset}.json: not an array`);
  const out: LabelledSentence[] = [];
  for (const item of raw as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { text, class: label } = item as { text?: unknown; class?: unknown };
    // The files end with an empty entry whose class is null.
    if (typeof text === 'string' && (label === 0 || label === 1)) out.push({ text, positive: label === 1 });
  }
  return out;
}

export function score(
  model: PolarityModel,
  sentences: readonly LabelledSentence[],
): { accuracy: number; neutral: number } {
  let right = 0;
  let neutral = 0;
  for (const s of sentences) {
    const { label } = judge(model, s.text);
    if (label === 'neutral') neutral++;
    else if ((label === 'positive') === s.positive) right++;
  }
  return { accuracy: Math.round((right / sentences.length) * 10000) / 10000, neutral };
}

/** Yelp with the production model; Amazon and IMDB each with a model trained, on the same base lexicon, without it. */
export function evaluate(
  production: PolarityModel,
  productionTrainedOn: string[],
  base: ReadonlyMap<string, number>,
): UciScore[] {
  const lexicon = composeLexicon(base);
  const scores: UciScore[] = [];
  const yelp = loadUci('yelp');
  scores.push({ dataset: 'yelp', sentences: yelp.length, ...score(production, yelp), trainedOn: productionTrainedOn });
  for (const dataset of ['amazon', 'imdb'] as const) {
    const trainedOn = HELD_OUT_TRAINING[dataset];
    if (trainedOn.includes(dataset)) throw new Error(`${dataset} would be evaluated on its own training data`);
    const model: PolarityModel = {
      lexicon,
      speller: new Speller(lexicon),
      learned: train(trainedOn.flatMap(loadUci), lexicon),
    };
    const test = loadUci(dataset);
    scores.push({ dataset, sentences: test.length, ...score(model, test), trainedOn: [...trainedOn] });
  }
  return scores;
}

/**
 * Accuracy on the UCI sentence files of the shipped model.json, each file scored by a model that never saw it: Yelp
 * with the shipped model (trained on Amazon + IMDB), Amazon with one trained on IMDB only, IMDB with one trained on
 * Amazon only.
 */
export function evaluateUci(): UciScore[] {
  const file: ModelFile = shippedModel;
  return evaluate(fromFile(file), file.trainedOn, baseLexiconOf(file));
}
