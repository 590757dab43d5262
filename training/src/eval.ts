// `npm run eval`: the analyzer against the labelled home-services sets (per-aspect P/R/F1, macro-F1, aspect polarity
// accuracy; on the frozen test set with 95% bootstrap intervals, on the training sentences cross-validated), the
// second, blind labellings scored the same way against the first labels (how much a figure the labels can carry),
// and the general polarity against the UCI sentences; `--errors` lists the training sentences' mistakes
// (cross-validated). `npm run eval:nested` prints instead the nested validation figure every modelling choice is made
// on (8 minutes alone on two cores, about 18 beside another run); `--without-word-order` measures the regression
// alone. Wherever a training sentence is scored by a model that did not see it, the word-order network's share is
// its out-of-fold one (training/word-order-folds.ts), never the shipped networks', which trained on it.
import { Analyzer } from '../../src/insights/analysis/analyzer.js';
import type { AspectModel } from '../../src/insights/analysis/aspect-model.js';
import shippedAspectModel from '../../src/insights/models/aspect-model.json' with { type: 'json' };
import { trainAspectModel, trainChoosingThresholds, VALIDATION_FOLDS } from './learn-aspects.js';
import {
  aspectShare,
  examplesOf,
  firstLabelsOf,
  FROZEN_TEST_SET,
  loadLabelled,
  REVIEW_MIX_SETS,
  SECOND_PASSES,
  TRAINING_SETS,
  trainingSentences,
  type Labelled,
} from './labelled.js';
import { evaluateUci } from './polarity/uci.js';
import { OutOfFoldReader, outOfFoldWordOrder } from './word-order-folds.js';
import {
  fileHash,
  outcomesOf,
  outcomesOfLabelling,
  recordedHash,
  summarize,
  withIntervals,
  type Interval,
  type Outcome,
  type SetScores,
} from './scores.js';

const f = (x: number) => x.toFixed(3);

const sentimentLine = (scores: SetScores) =>
  `sentence sentiment accuracy: ${f(scores.sentimentAccuracy)} over ${scores.sentimentJudged} sentences labelled positive or negative\n`;

const missedLine = (missed: number) =>
  `sentences read without a word-order share (the analyzer cut a training text into sentences other than it): ${missed}\n`;

const withInterval = (x: Interval) => `${f(x.value)} [${f(x.low)}, ${f(x.high)}]`;

/** A set's scores with their 95% bootstrap intervals. */
function printWithIntervals(name: string, outcomes: readonly Outcome[]): void {
  const { scores, f1, macroF1, polarityAccuracy } = withIntervals(outcomes);
  process.stdout.write(
    `\n${name} (${scores.sentences} sentences; 95% intervals from a bootstrap of the sentences)\n| aspect | precision | recall | F1 [95% interval] | support |\n|---|---|---|---|---|\n`,
  );
  for (const a of scores.perAspect)
    process.stdout.write(
      `| ${a.aspect} | ${f(a.precision)} | ${f(a.recall)} | ${withInterval(f1[a.aspect])} | ${a.support} |\n`,
    );
  process.stdout.write(`| **macro** | | | **${withInterval(macroF1)}** | |\n`);
  process.stdout.write(
    `aspect polarity accuracy: ${withInterval(polarityAccuracy)} over ${scores.polarityJudged} correctly found aspects\n`,
  );
  process.stdout.write(sentimentLine(scores));
}

function printSet(name: string, scores: SetScores): void {
  process.stdout.write(
    `\n${name} (${scores.sentences} sentences)\n| aspect | precision | recall | F1 | support |\n|---|---|---|---|---|\n`,
  );
  for (const a of scores.perAspect)
    process.stdout.write(`| ${a.aspect} | ${f(a.precision)} | ${f(a.recall)} | ${f(a.f1)} | ${a.support} |\n`);
  process.stdout.write(`| **macro** | | | **${f(scores.macroF1)}** | |\n`);
  process.stdout.write(
    `aspect polarity accuracy: ${f(scores.polarityAccuracy)} over ${scores.polarityJudged} correctly found aspects\n`,
  );
  process.stdout.write(sentimentLine(scores));
}

/**
 * The whole analyzer on the training sentences, cross-validated: sentence n is scored with an aspect model trained on
 * the folds without it (n % folds). The thresholds are the shipped model's (chosen on the same folds), so this figure
 * is a little optimistic; the frozen test set's is the one to quote.
 */
export function crossValidated(
  items: readonly Labelled[],
  thresholds: Record<string, number>,
): SetScores & { errors: string[]; withoutWordOrder: number } {
  const examples = examplesOf(items);
  const wordOrder = new OutOfFoldReader();
  const analyzers = Array.from({ length: VALIDATION_FOLDS }, (_, fold) => {
    const training = examples.filter((_, i) => i % VALIDATION_FOLDS !== fold);
    return new Analyzer(null, { aspectModel: trainAspectModel(training, thresholds, `fold ${fold}`), wordOrder });
  });
  return { ...scoredByFolds(items, analyzers), withoutWordOrder: wordOrder.missed };
}

/** Item n scored by the analyzer of its fold (n % folds), with the mistakes listed. */
function scoredByFolds(items: readonly Labelled[], analyzers: readonly Analyzer[]): SetScores & { errors: string[] } {
  const outcomes = outcomesOf(items, (index) => analyzers[index % analyzers.length]!);
  return { ...summarize(outcomes), errors: outcomes.flatMap((o) => (o.error ? [o.error] : [])) };
}

const scoreSet = (items: readonly Labelled[], analyzer: Analyzer) => summarize(outcomesOf(items, () => analyzer));

/**
 * The figure modelling choices are made on, never the frozen set's: the sentences written with reviews' mix of
 * aspects (REVIEW_MIX_SETS), each scored by a whole analyzer trained without its outer fold (n % folds) on the other
 * folds and every later round, its thresholds chosen on inner validation folds of that training exactly as
 * `npm run train:aspects` chooses them, weighed to the aspect mix of all those sentences (as the shipped model's are;
 * the figures in docs/HISTORY.md were measured so).
 */
export function nestedValidation(withWordOrder = true): SetScores & { errors: string[]; withoutWordOrder: number } {
  const scored = trainingSentences(REVIEW_MIX_SETS);
  const rounds = trainingSentences(TRAINING_SETS.filter((set) => !REVIEW_MIX_SETS.includes(set)));
  const contributions = withWordOrder ? outOfFoldWordOrder() : undefined;
  const wordOrder = contributions ? new OutOfFoldReader(contributions) : null;
  const analyzers = Array.from({ length: VALIDATION_FOLDS }, (_, fold) => {
    const outerTraining = scored.filter((_, i) => i % VALIDATION_FOLDS !== fold);
    const { model } = trainChoosingThresholds(
      examplesOf([...outerTraining, ...rounds], contributions),
      aspectShare(scored),
      `outer fold ${fold}`,
    );
    return new Analyzer(null, { aspectModel: model, wordOrder });
  });
  return { ...scoredByFolds(scored, analyzers), withoutWordOrder: wordOrder?.missed ?? 0 };
}

const isMain = process.argv[1]?.endsWith('/training/src/eval.js');

if (isMain && process.argv.includes('--nested')) {
  const withWordOrder = !process.argv.includes('--without-word-order');
  const nested = nestedValidation(withWordOrder);
  const network = withWordOrder ? "with the word-order networks' out-of-fold share" : 'the aspect regression alone';
  printSet(
    `Nested validation: ${REVIEW_MIX_SETS.join(', ')}, ${VALIDATION_FOLDS} outer folds, the later rounds always in training, ${network}`,
    nested,
  );
  if (withWordOrder) process.stdout.write(missedLine(nested.withoutWordOrder));
  if (process.argv.includes('--errors'))
    process.stdout.write(`\nNested validation errors\n${nested.errors.join('\n')}\n`);
} else if (isMain) {
  const frozen = loadLabelled(FROZEN_TEST_SET);
  const shipped = new Analyzer(null);
  const hash = fileHash(FROZEN_TEST_SET);
  const recorded = recordedHash(FROZEN_TEST_SET);
  const frozenName = `Frozen test set (${FROZEN_TEST_SET}, sha256 ${hash}${hash === recorded ? '' : `, NOT the hash training/eval/FROZEN.md records: ${recorded ?? 'none'}`}), the shipped analyzer`;
  printWithIntervals(
    frozenName,
    outcomesOf(frozen, () => shipped),
  );
  printSet('Frozen test set, the lexicon alone', scoreSet(frozen, new Analyzer(null, { aspectModel: null })));
  for (const file of SECOND_PASSES) {
    const second = loadLabelled(file);
    printWithIntervals(
      `A second labeller (${file}, blind: the guidelines and the texts alone) against the first labels of the same ${second.length} sentences`,
      outcomesOfLabelling(firstLabelsOf(second), second),
    );
  }
  const training = trainingSentences();
  const cv = crossValidated(training, (shippedAspectModel as AspectModel).thresholds);
  printSet(`Training sentences (${TRAINING_SETS.join(', ')}), ${VALIDATION_FOLDS}-fold cross-validated`, cv);
  process.stdout.write(missedLine(cv.withoutWordOrder));
  process.stdout.write(
    '\nUCI sentences (sentiment package fixtures), a neutral answer counts as wrong\n| dataset | sentences | accuracy | neutral | trained on |\n|---|---|---|---|---|\n',
  );
  for (const row of evaluateUci()) {
    process.stdout.write(
      `| ${row.dataset} | ${row.sentences} | ${f(row.accuracy)} | ${row.neutral} | ${row.trainedOn.join(', ') || 'nothing (lexicon and rules)'} |\n`,
    );
  }
  if (process.argv.includes('--errors'))
    process.stdout.write(`\nTraining-sentence errors (cross-validated)\n${cv.errors.join('\n')}\n`);
}
