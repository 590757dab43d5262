// Thresholds are chosen for the mix of aspects reviews have: when the training sentences hold more of an aspect than
// reviews do, its false positives weigh more and the chosen threshold rises.
import { describe, expect, it } from 'vitest';
import { aspectShare, REVIEW_MIX_SETS, TRAINING_SETS, trainingSentences } from '../training/src/labelled.js';
import { chooseThresholds, classWeights, type TrainingExample } from '../training/src/learn-aspects.js';
import { AspectId } from '../src/reviews/schemas.js';

/** Sentences about quality or nothing, with the out-of-fold probabilities a model gave them. */
function scoredExamples(scores: { about: boolean; probability: number }[]) {
  const examples: TrainingExample[] = scores.map(({ about }) => ({
    features: [],
    parts: [],
    aspects: new Set(about ? (['quality'] as const) : []),
    judged: [],
  }));
  const probabilities = Object.fromEntries(
    AspectId.options.map((a) => [a, Float64Array.from(scores, (s) => (a === 'quality' ? s.probability : 0))]),
  );
  return { examples, probabilities: probabilities as Record<AspectId, Float64Array> };
}

describe('choosing thresholds for reviews’ aspect mix', () => {
  it('weighs nothing when the training mix is the target', () => {
    expect(classWeights(0.2, 0.2)).toEqual({ positive: 1, negative: 1 });
    const { positive, negative } = classWeights(0.4, 0.2);
    expect(positive).toBeCloseTo(0.5);
    expect(negative).toBeCloseTo(0.8 / 0.6);
  });

  it('raises the threshold of an aspect the training sentences over-represent', () => {
    // Half the sentences are about quality; of the doubtful ones (0.4), most are not.
    const scores = [
      ...Array.from({ length: 40 }, () => ({ about: true, probability: 0.9 })),
      ...Array.from({ length: 10 }, () => ({ about: true, probability: 0.4 })),
      ...Array.from({ length: 12 }, () => ({ about: false, probability: 0.4 })),
      ...Array.from({ length: 38 }, () => ({ about: false, probability: 0.05 })),
    ];
    const { examples, probabilities } = scoredExamples(scores);
    const share = Object.fromEntries(AspectId.options.map((a) => [a, a === 'quality' ? 0.5 : 0.1])) as Record<
      AspectId,
      number
    >;
    const asTrained = chooseThresholds(examples, share, probabilities).perAspect.quality;
    const plain = chooseThresholds(examples, undefined, probabilities).perAspect.quality;
    expect(asTrained).toEqual(plain);
    // Counted plainly, taking the doubtful ones in is worth it: 10 more found for 12 false positives.
    expect(plain.threshold).toBeLessThanOrEqual(0.4);
    expect(plain.f1).toBeCloseTo(100 / 112);
    // In reviews, where one sentence in ten is about quality, those false positives cost more than the misses.
    const reviews = chooseThresholds(examples, { ...share, quality: 0.1 }, probabilities).perAspect.quality;
    expect(reviews.threshold).toBeGreaterThan(0.4);
    expect(reviews.precision).toBe(1);
  });

  it('takes the target mix from the sets written like reviews, a subset of the training sets', () => {
    expect(REVIEW_MIX_SETS.every((set) => TRAINING_SETS.includes(set))).toBe(true);
    const share = aspectShare(trainingSentences(REVIEW_MIX_SETS));
    for (const aspect of AspectId.options) {
      expect(share[aspect], aspect).toBeGreaterThan(0.05);
      expect(share[aspect], aspect).toBeLessThan(0.4);
    }
  });
});
