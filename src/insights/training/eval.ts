// `npm run eval`: the analyzer against the labelled home-services sets (per-aspect P/R/F1, macro-F1, aspect polarity
// accuracy; on the frozen test set and the corpus with 95% bootstrap intervals) and the general polarity against the
// UCI sentences; `--errors` lists the dev-set mistakes.
import { Analyzer } from '../analysis/analyzer.js';
import { trainAspectModel } from './learn-aspects.js';
import { ASPECT_THRESHOLD, examplesOf, loadLabelled, type Labelled } from './labelled.js';
import { evaluateUci } from './polarity/uci.js';
import { fileHash, outcomesOf, recordedHash, summarize, withIntervals, type Interval, type SetScores } from './scores.js';

/** The frozen test set: written and labelled before any tuning, never edited (eval/FROZEN.md). */
export const FROZEN_TEST_SET = 'eval/frozen-test.jsonl';
/** The labelled corpus (eval/README.md), for development. */
export const CORPUS = ['eval/corpus/hvac.jsonl', 'eval/corpus/plumbing.jsonl', 'eval/corpus/electrical.jsonl', 'eval/corpus/mixed.jsonl'];

const f = (x: number) => x.toFixed(3);

const withInterval = (x: Interval) => `${f(x.value)} [${f(x.low)}, ${f(x.high)}]`;

/** A set's scores with their 95% bootstrap intervals. */
function printWithIntervals(name: string, items: readonly Labelled[], analyzer: Analyzer): void {
  const { scores, f1, macroF1, polarityAccuracy } = withIntervals(outcomesOf(items, () => analyzer));
  process.stdout.write(`\n${name} (${scores.sentences} sentences; 95% intervals from a bootstrap of the sentences)\n| aspect | precision | recall | F1 [95% interval] | support |\n|---|---|---|---|---|\n`);
  for (const a of scores.perAspect) process.stdout.write(`| ${a.aspect} | ${f(a.precision)} | ${f(a.recall)} | ${withInterval(f1[a.aspect])} | ${a.support} |\n`);
  process.stdout.write(`| **macro** | | | **${withInterval(macroF1)}** | |\n`);
  process.stdout.write(`aspect polarity accuracy: ${withInterval(polarityAccuracy)} over ${scores.polarityJudged} correctly found aspects\n`);
}

function printSet(name: string, scores: SetScores): void {
  process.stdout.write(`\n${name} (${scores.sentences} sentences)\n| aspect | precision | recall | F1 | support |\n|---|---|---|---|---|\n`);
  for (const a of scores.perAspect) process.stdout.write(`| ${a.aspect} | ${f(a.precision)} | ${f(a.recall)} | ${f(a.f1)} | ${a.support} |\n`);
  process.stdout.write(`| **macro** | | | **${f(scores.macroF1)}** | |\n`);
  process.stdout.write(`aspect polarity accuracy: ${f(scores.polarityAccuracy)} over ${scores.polarityJudged} correctly found aspects\n`);
}

/** Five folds by position: each sentence is scored by a model trained on the other four fifths. */
const FOLDS = 5;

export function crossValidated(items: readonly Labelled[]): SetScores & { errors: string[] } {
  const examples = examplesOf(items);
  const analyzers = Array.from({ length: FOLDS }, (_, fold) => {
    const training = examples.filter((_, i) => i % FOLDS !== fold);
    return new Analyzer(null, { aspectModel: trainAspectModel(training, ASPECT_THRESHOLD, `fold ${fold}`) });
  });
  const outcomes = outcomesOf(items, (index) => analyzers[index % FOLDS]!);
  return { ...summarize(outcomes), errors: outcomes.flatMap((o) => (o.error ? [o.error] : [])) };
}

const scoreSet = (items: readonly Labelled[], analyzer: Analyzer) => summarize(outcomesOf(items, () => analyzer));

if (process.argv[1]?.endsWith('/insights/training/eval.js')) {
  const dev = loadLabelled('eval/devset.jsonl');
  const test = loadLabelled('eval/testset.jsonl');
  const lexiconOnly = new Analyzer(null, { aspectModel: null });
  const shipped = new Analyzer(null);
  const hash = fileHash(FROZEN_TEST_SET);
  const recorded = recordedHash(FROZEN_TEST_SET);
  const frozenName = `Frozen test set (${FROZEN_TEST_SET}, sha256 ${hash}${hash === recorded ? '' : `, NOT the hash eval/FROZEN.md records: ${recorded ?? 'none'}`}), the shipped analyzer`;
  printWithIntervals(frozenName, loadLabelled(FROZEN_TEST_SET), shipped);
  printWithIntervals(`Corpus (${CORPUS.join(', ')}), the shipped analyzer`, CORPUS.flatMap((file) => loadLabelled(file)), shipped);
  const devScores = crossValidated(dev);
  printSet('Development set (eval/devset.jsonl), lexicon + aspect model, 5-fold cross-validated', devScores);
  printSet('Held-out test set (eval/testset.jsonl), lexicon + aspect model trained on the whole development set', scoreSet(test, shipped));
  printSet('Development set, lexicon alone', scoreSet(dev, lexiconOnly));
  printSet('Held-out test set, lexicon alone', scoreSet(test, lexiconOnly));
  process.stdout.write('\nUCI sentences (sentiment package fixtures), a neutral answer counts as wrong\n| dataset | sentences | accuracy | neutral | trained on |\n|---|---|---|---|---|\n');
  for (const row of evaluateUci()) {
    process.stdout.write(`| ${row.dataset} | ${row.sentences} | ${f(row.accuracy)} | ${row.neutral} | ${row.trainedOn.join(', ') || 'nothing (lexicon and rules)'} |\n`);
  }
  if (process.argv.includes('--errors')) process.stdout.write(`\nDevelopment-set errors (cross-validated)\n${devScores.errors.join('\n')}\n`);
}
