// `npm run eval`: the analyzer against the labelled home-services sets (per-aspect P/R/F1, macro-F1, aspect polarity
// accuracy) and the general polarity against the UCI sentences; `--errors` lists the dev-set mistakes.
import { AspectId } from '../../reviews/schemas.js';
import { Analyzer } from '../analysis/analyzer.js';
import { trainAspectModel } from './learn-aspects.js';
import { ASPECT_THRESHOLD, examplesOf, loadLabelled, type Labelled } from './labelled.js';
import { evaluateUci } from './polarity/uci.js';

export interface SetScores {
  sentences: number;
  perAspect: { aspect: AspectId; precision: number; recall: number; f1: number; support: number }[];
  macroF1: number;
  polarityAccuracy: number;
  polarityJudged: number;
  errors: string[];
}

/** Scores items; `analyzerFor` gives the analyzer for each item (cross-validation swaps models per fold). */
function scoreSet(items: readonly Labelled[], analyzerFor: (index: number) => Analyzer): SetScores {
  const counts = new Map(AspectId.options.map((a) => [a, { tp: 0, fp: 0, fn: 0 }]));
  let polarityRight = 0;
  let polarityJudged = 0;
  const errors: string[] = [];
  items.forEach((item, index) => {
    const analysis = analyzerFor(index).analyze({ id: item.id, text: item.text });
    const predicted = new Map<AspectId, number>();
    for (const j of analysis.aspects) predicted.set(j.aspect, (predicted.get(j.aspect) ?? 0) + j.score);
    const gold = new Map(item.aspects.map((a) => [a.aspect, a.polarity]));
    const problems: string[] = [];
    for (const aspect of AspectId.options) {
      const c = counts.get(aspect)!;
      const p = predicted.get(aspect);
      const g = gold.get(aspect);
      if (p !== undefined && g !== undefined) {
        c.tp++;
        polarityJudged++;
        const label = p > 0 ? 'positive' : p < 0 ? 'negative' : 'neutral';
        if (label === g) polarityRight++;
        else problems.push(`${aspect}: ${label} (gold ${g})`);
      } else if (p !== undefined) {
        c.fp++;
        problems.push(`${aspect}: extra`);
      } else if (g !== undefined) {
        c.fn++;
        problems.push(`${aspect}: missed (gold ${g})`);
      }
    }
    if (problems.length) errors.push(`${item.id} ${problems.join('; ')} | ${item.text} | cues ${analysis.aspects.map((a) => `${a.aspect}:${a.cues.join(',')}`).join(' ')}`);
  });
  const perAspect = AspectId.options.map((aspect) => {
    const { tp, fp, fn } = counts.get(aspect)!;
    const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
    const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    return { aspect, precision, recall, f1, support: tp + fn };
  });
  return {
    sentences: items.length,
    perAspect,
    macroF1: perAspect.reduce((s, a) => s + a.f1, 0) / perAspect.length,
    polarityAccuracy: polarityJudged === 0 ? 0 : polarityRight / polarityJudged,
    polarityJudged,
    errors,
  };
}

const f = (x: number) => x.toFixed(3);

function printSet(name: string, scores: SetScores): void {
  process.stdout.write(`\n${name} (${scores.sentences} sentences)\n| aspect | precision | recall | F1 | support |\n|---|---|---|---|---|\n`);
  for (const a of scores.perAspect) process.stdout.write(`| ${a.aspect} | ${f(a.precision)} | ${f(a.recall)} | ${f(a.f1)} | ${a.support} |\n`);
  process.stdout.write(`| **macro** | | | **${f(scores.macroF1)}** | |\n`);
  process.stdout.write(`aspect polarity accuracy: ${f(scores.polarityAccuracy)} over ${scores.polarityJudged} correctly found aspects\n`);
}

/** Five folds by position: each sentence is scored by a model trained on the other four fifths. */
const FOLDS = 5;

export function crossValidated(items: readonly Labelled[]): SetScores {
  const examples = examplesOf(items);
  const analyzers = Array.from({ length: FOLDS }, (_, fold) => {
    const training = examples.filter((_, i) => i % FOLDS !== fold);
    return new Analyzer(null, { aspectModel: trainAspectModel(training, ASPECT_THRESHOLD, `fold ${fold}`) });
  });
  return scoreSet(items, (index) => analyzers[index % FOLDS]!);
}

if (process.argv[1]?.endsWith('/insights/training/eval.js')) {
  const dev = loadLabelled('eval/devset.jsonl');
  const test = loadLabelled('eval/testset.jsonl');
  const lexiconOnly = new Analyzer(null, { aspectModel: null });
  const shipped = new Analyzer(null);
  const devScores = crossValidated(dev);
  printSet('Development set (eval/devset.jsonl), lexicon + aspect model, 5-fold cross-validated', devScores);
  printSet('Held-out test set (eval/testset.jsonl), lexicon + aspect model trained on the whole development set', scoreSet(test, () => shipped));
  printSet('Development set, lexicon alone', scoreSet(dev, () => lexiconOnly));
  printSet('Held-out test set, lexicon alone', scoreSet(test, () => lexiconOnly));
  process.stdout.write('\nUCI sentences (sentiment package fixtures), a neutral answer counts as wrong\n| dataset | sentences | accuracy | neutral | trained on |\n|---|---|---|---|---|\n');
  for (const row of evaluateUci()) {
    process.stdout.write(`| ${row.dataset} | ${row.sentences} | ${f(row.accuracy)} | ${row.neutral} | ${row.trainedOn.join(', ') || 'nothing (lexicon and rules)'} |\n`);
  }
  if (process.argv.includes('--errors')) process.stdout.write(`\nDevelopment-set errors (cross-validated)\n${devScores.errors.join('\n')}\n`);
}
