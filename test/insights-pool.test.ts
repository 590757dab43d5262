// A first build's analyses spread over threads (src/insights/analysis-pool.ts): the same analyses, the same
// document and the same stored analyses as one thread makes, and a build that stops mid-way stops the pool.
import { describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { analyseInPool } from '../src/insights/analysis-pool.js';
import { InsightsEngine } from '../src/insights/engine.js';
import { compareNewestFirst, publishedFrom } from '../src/reviews/published.js';

const demo = generateDemo({ seed: 11, reviews: 400 });
const reviews = demo.reviews
  .filter((r) => r.verified)
  .map((r) => publishedFrom(r, '2026-11-01T00:00:00.000Z'))
  .sort(compareNewestFirst);
const input = { business: demo.business, reviews, asOf: null, generatedAt: '2026-11-01T00:00:00.000Z' };

describe('the analysis pool', () => {
  it('gives the document and the fresh analyses one thread gives, and leaves nothing for the build to analyse', async () => {
    const alone = await new InsightsEngine().build(input);

    const pooled = new InsightsEngine();
    const pending = pooled.toAnalyse(demo.business, reviews);
    expect(pending.length).toBe(alone.fresh.size);
    const progress: number[] = [];
    const analyses = await analyseInPool(demo.business, pending, {
      threads: 2,
      progress: async (n) => void progress.push(n),
    });
    expect(analyses.size).toBe(pending.length);
    expect(progress.at(-1)).toBe(pending.length);
    pooled.supply(demo.business, analyses, pending);
    const built = await pooled.build(input);

    expect(JSON.stringify(built.insights)).toBe(JSON.stringify(alone.insights));
    // Supplied analyses count as this build's own: they are the ones stored.
    expect([...built.fresh.keys()].sort()).toEqual([...alone.fresh.keys()].sort());
    for (const [id, keyed] of alone.fresh) expect(built.fresh.get(id)).toEqual(keyed);
    expect(pooled.toAnalyse(demo.business, reviews)).toEqual([]);
  });

  it('stops every thread when a progress report fails, and says why', async () => {
    const pending = new InsightsEngine().toAnalyse(demo.business, reviews);
    await expect(
      analyseInPool(demo.business, pending, {
        threads: 2,
        progress: async () => {
          throw new Error('the claim was lost');
        },
      }),
    ).rejects.toThrow('the claim was lost');
  });
});
