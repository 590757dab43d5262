// The labelled home-services sentences (eval/*.jsonl) and how they become training examples for the aspect model.
import { readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { AspectId } from '../../reviews/schemas.js';
import { Analyzer } from '../analysis/analyzer.js';
import type { TrainingExample } from './learn-aspects.js';

export interface Labelled {
  id: string;
  text: string;
  aspects: { aspect: AspectId; polarity: 'positive' | 'negative' | 'neutral' }[];
  sentiment: 'positive' | 'negative' | 'mixed' | 'neutral';
}

/** Chosen by five-fold cross-validation on the development set (npm run eval prints the folds' figures). */
export const ASPECT_THRESHOLD = 0.5;

/** The repository root, from the compiled module (dist/src/insights/training) or its source (src/insights/training). */
export const repoRoot = resolve(import.meta.dirname, import.meta.dirname.includes(`${sep}dist${sep}`) ? '../../../..' : '../../..');

export function loadLabelled(file: string): Labelled[] {
  return readFileSync(resolve(repoRoot, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Labelled);
}

/** One example per sentence: its features as the analyzer sees them, and its gold aspects. */
export function examplesOf(items: readonly Labelled[]): TrainingExample[] {
  const lexiconOnly = new Analyzer(null, { aspectModel: null });
  return items.map((item) => ({ features: lexiconOnly.features(item.text), aspects: new Set(item.aspects.map((a) => a.aspect)) }));
}
