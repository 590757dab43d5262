// `npm run train:aspects`: chooses each aspect's threshold on validation folds of the training sentences (the
// regression's out-of-fold probability with the word-order networks' out-of-fold share added, as the analyzer adds
// them; `npm run train:word-order` writes those shares first), trains the aspect model on all of them and writes
// src/insights/models/aspect-model.json (the frozen test set is never read but to leave out its sentences).
// Deterministic: same data, same bytes.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AspectId } from '../../src/reviews/schemas.js';
import type { AspectModel } from '../../src/insights/analysis/aspect-model.js';
import { trainChoosingThresholds, VALIDATION_FOLDS, type Validation } from './learn-aspects.js';
import { outOfFoldWordOrder } from './word-order-folds.js';
import { aspectShare, examplesOf, repoRoot, REVIEW_MIX_SETS, TRAINING_SETS, trainingSentences } from './labelled.js';

/** The labelled sets as the model names them: by their place in training/ (the model says where, not how it is kept). */
const named = (sets: readonly string[]) => sets.map((set) => set.replace(/^training\//, '')).join(', ');

export const ASPECT_MODEL_ABOUT = `Trained by \`npm run train:aspects\` on ${named(TRAINING_SETS)} (without the frozen test set's sentences); thresholds chosen on ${VALIDATION_FOLDS} validation folds with the word-order networks' out-of-fold share added, each aspect's sentences weighed to its share in ${named(REVIEW_MIX_SETS)}`;

/** The shipped aspect model, from the training sentences alone. */
export function trainShippedAspectModel(): { model: AspectModel; validation: Validation; sentences: number } {
  const examples = examplesOf(trainingSentences(), outOfFoldWordOrder());
  return {
    ...trainChoosingThresholds(examples, aspectShare(trainingSentences(REVIEW_MIX_SETS)), ASPECT_MODEL_ABOUT),
    sentences: examples.length,
  };
}

if (process.argv[1]?.endsWith('/training/src/train-aspects.js')) {
  const { model, validation, sentences } = trainShippedAspectModel();
  const json = `${JSON.stringify(model)}\n`;
  for (const target of ['src/insights/models/aspect-model.json', 'dist/src/insights/models/aspect-model.json'])
    writeFileSync(resolve(repoRoot, target), json);
  const f = (x: number) => x.toFixed(3);
  process.stdout.write(
    `${sentences} training sentences; the model alone on ${VALIDATION_FOLDS} validation folds, each aspect weighed to its share in reviews:\n| aspect | threshold | precision | recall | F1 |\n|---|---|---|---|---|\n`,
  );
  for (const a of AspectId.options) {
    const v = validation.perAspect[a];
    process.stdout.write(`| ${a} | ${v.threshold} | ${f(v.precision)} | ${f(v.recall)} | ${f(v.f1)} |\n`);
  }
  process.stdout.write(`| **macro** | | | | **${f(validation.macroF1)}** |\n`);
  process.stdout.write(
    `wrote src/insights/models/aspect-model.json (${Object.values(model.weights).reduce((n, w) => n + Object.keys(w).length, 0)} weights, ${(json.length / 1024).toFixed(0)} KiB)\n`,
  );
}
