// What the labelled sentences, the aspect learner and the scores share: the repository root the data is read from,
// a labelled sentence, and a training example. Kept apart so that none of those modules needs another.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AspectId } from '../../src/reviews/schemas.js';
import type { AspectPlace } from '../../src/insights/analysis/analyzer.js';

/** The repository root: the nearest folder above this module (training/src or its compiled dist/training/src) with a package.json. */
export const repoRoot = ((): string => {
  let dir = import.meta.dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${import.meta.dirname}`);
    dir = up;
  }
  return dir;
})();

export interface Labelled {
  id: string;
  text: string;
  aspects: { aspect: AspectId; polarity: 'positive' | 'negative' | 'neutral' }[];
  sentiment: 'positive' | 'negative' | 'mixed' | 'neutral';
}

export interface TrainingExample {
  features: string[];
  /** Each part's features, when the sentence has several: the decision also reads them alone. */
  parts: string[][];
  /** What the word-order network adds to each aspect's log-odds (AspectId order), from networks that did not see it. */
  wordOrder?: ArrayLike<number>;
  aspects: ReadonlySet<AspectId>;
  /** The gold aspects judged positive or negative, and where in the sentence the analyzer would judge them. */
  judged: { aspect: AspectId; positive: boolean; place: AspectPlace }[];
}
