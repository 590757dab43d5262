// Scores of the analyzer on a labelled set: per-aspect precision, recall and F1, macro-F1 and aspect polarity
// accuracy, with 95% bootstrap intervals (the sentences resampled with replacement, a seeded generator, so that the
// same set and analyzer always print the same intervals).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AspectId } from '../../src/reviews/schemas.js';
import type { Analyzer, Label } from '../../src/insights/analysis/analyzer.js';
import { repoRoot, type Labelled } from './common.js';

/** How the analyzer did on one sentence, aspect by aspect. */
export interface Outcome {
  /** Per aspect (AspectId.options order): 1 found and gold, 2 found only, 3 gold only, 0 neither. */
  marks: Uint8Array;
  /** Gold aspects found whose polarity was right. */
  polarityRight: number;
  /** Whether the sentence's sentiment label was right; undefined when its gold sentiment is mixed or neutral. */
  sentimentRight: boolean | undefined;
  /** What went wrong, with the sentence and the cues that fired; undefined when nothing did. */
  error: string | undefined;
}

const FOUND_AND_GOLD = 1;
const FOUND_ONLY = 2;
const GOLD_ONLY = 3;

export interface AspectScore {
  aspect: AspectId;
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

export interface SetScores {
  sentences: number;
  perAspect: AspectScore[];
  macroF1: number;
  polarityAccuracy: number;
  polarityJudged: number;
  /** Sentence sentiment accuracy over the sentences whose gold sentiment is positive or negative. */
  sentimentAccuracy: number;
  sentimentJudged: number;
}

/** A figure and its 95% interval. */
export interface Interval {
  value: number;
  low: number;
  high: number;
}

export interface ScoresWithIntervals {
  scores: SetScores;
  f1: Record<AspectId, Interval>;
  macroF1: Interval;
  polarityAccuracy: Interval;
}

/** How one sentence's labels compare with what was found in it (each found aspect's polarity, the sentence's sentiment). */
function outcomeOf(item: Labelled, found: ReadonlyMap<AspectId, Label>, sentiment: string, cues: string): Outcome {
  const gold = new Map(item.aspects.map((a) => [a.aspect, a.polarity]));
  const marks = new Uint8Array(AspectId.options.length);
  let polarityRight = 0;
  const problems: string[] = [];
  AspectId.options.forEach((aspect, i) => {
    const p = found.get(aspect);
    const g = gold.get(aspect);
    if (p !== undefined && g !== undefined) {
      marks[i] = FOUND_AND_GOLD;
      if (p === g) polarityRight++;
      else problems.push(`${aspect}: ${p} (gold ${g})`);
    } else if (p !== undefined) {
      marks[i] = FOUND_ONLY;
      problems.push(`${aspect}: extra`);
    } else if (g !== undefined) {
      marks[i] = GOLD_ONLY;
      problems.push(`${aspect}: missed (gold ${g})`);
    }
  });
  const error = problems.length ? `${item.id} ${problems.join('; ')} | ${item.text} | cues ${cues}` : undefined;
  const sentimentRight =
    item.sentiment === 'positive' || item.sentiment === 'negative' ? sentiment === item.sentiment : undefined;
  return { marks, polarityRight, sentimentRight, error };
}

/** The outcome of each item; `analyzerFor` gives the analyzer for each item (cross-validation swaps models per fold). */
export function outcomesOf(items: readonly Labelled[], analyzerFor: (index: number) => Analyzer): Outcome[] {
  return items.map((item, index) => {
    const analysis = analyzerFor(index).analyze({ id: item.id, text: item.text });
    const score = new Map<AspectId, number>();
    for (const j of analysis.aspects) score.set(j.aspect, (score.get(j.aspect) ?? 0) + j.score);
    const found = new Map(
      [...score].map(([aspect, p]) => [aspect, p > 0 ? 'positive' : p < 0 ? 'negative' : 'neutral'] as const),
    );
    const cues = analysis.aspects.map((a) => `${a.aspect}:${a.cues.join(',')}`).join(' ');
    return outcomeOf(item, found, analysis.sentiment.label, cues);
  });
}

/**
 * A second labelling of the same sentences, in the same order (`firstLabelsOf` gives the first labels so), scored
 * against the first labels as if it were the analyzer.
 */
export function outcomesOfLabelling(first: readonly Labelled[], second: readonly Labelled[]): Outcome[] {
  return first.map((item, n) => {
    const other = second[n];
    if (other?.id !== item.id) throw new Error(`the second labelling's sentence ${n} is ${other?.id}, not ${item.id}`);
    return outcomeOf(
      item,
      new Map(other.aspects.map((a) => [a.aspect, a.polarity])),
      other.sentiment,
      'a second labeller',
    );
  });
}

/** Precision, recall and F1 from true positives, false positives and false negatives (0 where undefined). */
export function precisionRecallF1(
  tp: number,
  fp: number,
  fn: number,
): { precision: number; recall: number; f1: number } {
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

/** The scores of the outcomes at `picks` (every outcome once, by default). */
export function summarize(
  outcomes: readonly Outcome[],
  picks: ArrayLike<number> = outcomes.map((_, i) => i),
): SetScores {
  const aspects = AspectId.options.length;
  const tp = new Int32Array(aspects);
  const fp = new Int32Array(aspects);
  const fn = new Int32Array(aspects);
  let polarityRight = 0;
  let sentimentRight = 0;
  let sentimentJudged = 0;
  for (let k = 0; k < picks.length; k++) {
    const outcome = outcomes[picks[k]!]!;
    polarityRight += outcome.polarityRight;
    if (outcome.sentimentRight !== undefined) {
      sentimentJudged++;
      if (outcome.sentimentRight) sentimentRight++;
    }
    for (let i = 0; i < aspects; i++) {
      const mark = outcome.marks[i];
      if (mark === FOUND_AND_GOLD) tp[i]!++;
      else if (mark === FOUND_ONLY) fp[i]!++;
      else if (mark === GOLD_ONLY) fn[i]!++;
    }
  }
  const perAspect = AspectId.options.map((aspect, i) => ({
    aspect,
    ...precisionRecallF1(tp[i]!, fp[i]!, fn[i]!),
    support: tp[i]! + fn[i]!,
  }));
  const polarityJudged = tp.reduce((n, x) => n + x, 0);
  return {
    sentences: picks.length,
    perAspect,
    macroF1: perAspect.reduce((s, a) => s + a.f1, 0) / perAspect.length,
    polarityAccuracy: polarityJudged === 0 ? 0 : polarityRight / polarityJudged,
    polarityJudged,
    sentimentAccuracy: sentimentJudged === 0 ? 0 : sentimentRight / sentimentJudged,
    sentimentJudged,
  };
}

/** Resamples drawn for the intervals. */
export const BOOTSTRAP_SAMPLES = 1000;

/** mulberry32: a small seeded generator of numbers in [0, 1), so that intervals (and trained networks) are reproducible. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The 2.5th and 97.5th percentiles of `values`. */
function interval(value: number, values: number[]): Interval {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
  return { value, low: at(0.025), high: at(0.975) };
}

/** The scores with 95% percentile-bootstrap intervals over `samples` resamples of the sentences. */
export function withIntervals(
  outcomes: readonly Outcome[],
  samples = BOOTSTRAP_SAMPLES,
  seed = 1,
): ScoresWithIntervals {
  const scores = summarize(outcomes);
  const random = seeded(seed);
  const picks = new Int32Array(outcomes.length);
  const f1s = AspectId.options.map(() => [] as number[]);
  const macros: number[] = [];
  const polarities: number[] = [];
  for (let s = 0; s < samples; s++) {
    for (let k = 0; k < picks.length; k++) picks[k] = Math.floor(random() * outcomes.length);
    const resampled = summarize(outcomes, picks);
    resampled.perAspect.forEach((a, i) => f1s[i]!.push(a.f1));
    macros.push(resampled.macroF1);
    polarities.push(resampled.polarityAccuracy);
  }
  return {
    scores,
    f1: Object.fromEntries(
      AspectId.options.map((aspect, i) => [aspect, interval(scores.perAspect[i]!.f1, f1s[i]!)]),
    ) as Record<AspectId, Interval>,
    macroF1: interval(scores.macroF1, macros),
    polarityAccuracy: interval(scores.polarityAccuracy, polarities),
  };
}

/** The SHA-256 of a file of the repository, hex. */
export function fileHash(file: string): string {
  return createHash('sha256')
    .update(readFileSync(resolve(repoRoot, file)))
    .digest('hex');
}

/** The hash `training/eval/FROZEN.md` records for `file`, from its table row. */
export function recordedHash(file: string): string | undefined {
  const row = readFileSync(resolve(repoRoot, 'training/eval/FROZEN.md'), 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`| \`${file}\``));
  return row ? /`([0-9a-f]{64})`/.exec(row)?.[1] : undefined;
}
