// The labelled home-services sentences (training/eval/*.jsonl) and how they become training examples for the aspect model.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AspectId } from '../../src/reviews/schemas.js';
import { foldedText } from '../../src/insights/analysis/fold.js';
import { Analyzer } from '../../src/insights/analysis/analyzer.js';
import { repoRoot, type Labelled, type TrainingExample } from './common.js';

export { repoRoot, type Labelled } from './common.js';

/** The frozen test set: written and labelled before any tuning, never edited, never trained on (training/eval/FROZEN.md). */
export const FROZEN_TEST_SET = 'training/eval/frozen-test.jsonl';
/** The labelled corpus (training/README.md). */
export const CORPUS = [
  'training/eval/corpus/hvac.jsonl',
  'training/eval/corpus/plumbing.jsonl',
  'training/eval/corpus/electrical.jsonl',
  'training/eval/corpus/mixed.jsonl',
  'training/eval/corpus/extra-quality-expertise.jsonl',
  'training/eval/corpus/extra-professionalism-communication.jsonl',
  'training/eval/corpus/extra-timing.jsonl',
  'training/eval/corpus/extra-mixed.jsonl',
  'training/eval/corpus/extra-2-quality.jsonl',
  'training/eval/corpus/extra-2-expertise.jsonl',
  'training/eval/corpus/extra-2-conduct.jsonl',
  'training/eval/corpus/extra-2-long.jsonl',
  'training/eval/corpus/extra-3-result.jsonl',
  'training/eval/corpus/extra-3-timing.jsonl',
  'training/eval/corpus/extra-3-conduct-price.jsonl',
  'training/eval/corpus/extra-3-explain.jsonl',
  'training/eval/corpus/extra-4-expertise.jsonl',
  'training/eval/corpus/extra-4-quality.jsonl',
  'training/eval/corpus/extra-4-conduct.jsonl',
  'training/eval/corpus/extra-4-polarity.jsonl',
  'training/eval/corpus/extra-5-lookalikes.jsonl',
  'training/eval/corpus/extra-5-multi.jsonl',
  'training/eval/corpus/extra-6-hvac-multi.jsonl',
  'training/eval/corpus/extra-6-plumbing-multi.jsonl',
  'training/eval/corpus/extra-6-electrical-multi.jsonl',
  'training/eval/corpus/extra-6-short.jsonl',
  'training/eval/corpus/extra-7-quality.jsonl',
  'training/eval/corpus/extra-7-expertise.jsonl',
  'training/eval/corpus/extra-7-conduct.jsonl',
  'training/eval/corpus/extra-7-reviews.jsonl',
  'training/eval/corpus/extra-7-varied.jsonl',
  'training/eval/corpus/extra-8-conduct.jsonl',
  'training/eval/corpus/extra-8-reviews.jsonl',
  'training/eval/corpus/extra-8-result.jsonl',
  'training/eval/corpus/extra-8-timing.jsonl',
  'training/eval/corpus/extra-9-reviews.jsonl',
  'training/eval/corpus/extra-9-implicit.jsonl',
  'training/eval/corpus/extra-10-expertise.jsonl',
  'training/eval/corpus/extra-10-technical.jsonl',
  'training/eval/corpus/extra-10-pairs.jsonl',
  'training/eval/corpus/extra-10-long.jsonl',
  'training/eval/corpus/extra-11-quality.jsonl',
  'training/eval/corpus/extra-11-professionalism.jsonl',
  'training/eval/corpus/extra-11-expertise.jsonl',
  'training/eval/corpus/extra-11-reviews.jsonl',
  'training/eval/corpus/extra-12-reviews.jsonl',
  'training/eval/corpus/extra-12-long.jsonl',
  'training/eval/corpus/extra-12-timing.jsonl',
  'training/eval/corpus/extra-12-short.jsonl',
  'training/eval/corpus/extra-13-reviews.jsonl',
  'training/eval/corpus/extra-13-work.jsonl',
  'training/eval/corpus/extra-13-trades.jsonl',
  'training/eval/corpus/extra-13-updates.jsonl',
];
/** What the aspect model learns from: the corpus and the two older sets. */
export const TRAINING_SETS = [...CORPUS, 'training/eval/devset.jsonl', 'training/eval/testset.jsonl'];
/**
 * The sets written with the mix of aspects reviews have (the first corpus and the two older sets); the later rounds
 * were aimed at the weak aspects and hold more of them. Thresholds are chosen for this mix.
 */
export const REVIEW_MIX_SETS = [
  'training/eval/corpus/hvac.jsonl',
  'training/eval/corpus/plumbing.jsonl',
  'training/eval/corpus/electrical.jsonl',
  'training/eval/corpus/mixed.jsonl',
  'training/eval/devset.jsonl',
  'training/eval/testset.jsonl',
];

/**
 * Second labellings, made blind (the guidelines and the texts alone) of the frozen test set and of 600 sentences drawn
 * at random from the review-mix sets: how far two labellers agree says how much of a figure the labels can carry.
 */
export const SECOND_PASSES = [
  'training/eval/second-pass/frozen-test.jsonl',
  'training/eval/second-pass/review-mix-sample.jsonl',
];

export function loadLabelled(file: string): Labelled[] {
  return readFileSync(resolve(repoRoot, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Labelled);
}

/**
 * One example per sentence: its features as the analyzer sees them, its gold aspects and where each is judged, and
 * what the word-order network adds to each aspect's log-odds when `wordOrder` holds it (by text; out-of-fold).
 */
export function examplesOf(
  items: readonly Labelled[],
  wordOrder?: ReadonlyMap<string, Float64Array>,
): TrainingExample[] {
  const lexiconOnly = new Analyzer(null, { aspectModel: null });
  return items.map((item) => {
    const view = lexiconOnly.trainingView(item.text);
    return {
      features: view.features,
      parts: view.parts,
      wordOrder: wordOrder?.get(item.text.trim()),
      aspects: new Set(item.aspects.map((a) => a.aspect)),
      judged: item.aspects.flatMap((a) =>
        a.polarity === 'neutral'
          ? []
          : [{ aspect: a.aspect, positive: a.polarity === 'positive', place: view.place(a.aspect) }],
      ),
    };
  });
}

/** The sentences of these sets, without any whose text is also in the frozen test set (one short sentence is). */
export function trainingSentences(sets: readonly string[] = TRAINING_SETS): Labelled[] {
  const frozen = new Set(loadLabelled(FROZEN_TEST_SET).map((item) => foldedText(item.text).trim()));
  return sets.flatMap((file) => loadLabelled(file)).filter((item) => !frozen.has(foldedText(item.text).trim()));
}

/** The sentences a second labelling labels again, with their first labels, in its order. */
export function firstLabelsOf(second: readonly Labelled[]): Labelled[] {
  const first = new Map([FROZEN_TEST_SET, ...REVIEW_MIX_SETS].flatMap(loadLabelled).map((item) => [item.id, item]));
  return second.map((item) => {
    const labelled = first.get(item.id);
    if (!labelled) throw new Error(`no first label for ${item.id}`);
    return labelled;
  });
}

/** Each aspect's share of these sentences: how many of them are about it. */
export function aspectShare(items: readonly Labelled[]): Record<AspectId, number> {
  const share = Object.fromEntries(AspectId.options.map((a) => [a, 0])) as Record<AspectId, number>;
  for (const item of items)
    for (const aspect of new Set(item.aspects.map((a) => a.aspect))) share[aspect] += 1 / items.length;
  return share;
}
