// Aggregation with a text index kept across builds: the index only saves work, so every build gives the bytes a
// build from nothing gives, whatever happened to the reviews in between.
import { describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { Analyzer, type ReviewAnalysis } from '../src/insights/analysis/analyzer.js';
import { aggregate } from '../src/insights/document/aggregate.js';
import { TextIndex } from '../src/insights/document/text-index.js';
import type { PublishedReview } from '../src/reviews/published.js';

const demo = generateDemo({ seed: 11, reviews: 400 });
const analyzer = new Analyzer(demo.business);
const newestFirst = (a: PublishedReview, b: PublishedReview) => (a.date === b.date ? (a.id < b.id ? 1 : -1) : a.date < b.date ? 1 : -1);
const published: PublishedReview[] = demo.reviews
  .filter((r) => r.verified)
  .map(({ verified: _v, ...r }) => ({ ...r, updatedAt: '2026-11-01T00:00:00.000Z' }))
  .sort(newestFirst);
const meta = { generatedAt: '2026-11-01T00:00:00.000Z', lexiconVersion: 'test' };

const analysed = new WeakMap<PublishedReview, ReviewAnalysis>();
function analysisOf(review: PublishedReview): ReviewAnalysis {
  let analysis = analysed.get(review);
  if (!analysis) analysed.set(review, (analysis = analyzer.analyze(review)));
  return analysis;
}

function build(reviews: readonly PublishedReview[], texts?: TextIndex): string {
  const analyses = new Map(reviews.map((r) => [r.id, analysisOf(r)]));
  return JSON.stringify(aggregate(demo.business, reviews, analyses, meta, texts ? { texts } : {}));
}

describe('aggregate with a kept text index', () => {
  it('gives the same bytes as a build without one, through edits, deletions, additions and reverts', () => {
    const texts = new TextIndex();
    // A third of the texts rewritten (so topics and their counts move), one of them about urgent work.
    const rewrite = (r: PublishedReview, i: number) => ({ ...r, text: i === 2 ? `${r.text} The same day emergency visit was worth it.` : `Maintenance plan renewed. ${published[(i * 5) % published.length]!.text}` });
    const edited = published.map((r, i) => (i % 3 === 2 ? rewrite(r, i) : r));
    const shrunk = edited.filter((_, i) => i % 7 !== 0);
    const grown = [{ ...published[5]!, id: 'added-review', date: '2030-01-01', text: 'Water heater replaced the same day. Great water heater crew.' }, ...shrunk];
    for (const reviews of [published, edited, shrunk, grown, published, []]) {
      expect(build(reviews, texts)).toBe(build(reviews));
    }
  });
});
