// The aggregation kept across builds: reviews are counted in and out as they change, and every document printed
// must be, byte for byte, the one an aggregation from nothing gives for the same reviews, whatever came before.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { Analyzer, type ReviewAnalysis } from '../src/insights/analysis/analyzer.js';
import { aggregate, Aggregation } from '../src/insights/document/aggregate.js';
import { compareNewestFirst, type PublishedReview, publishedFrom } from '../src/reviews/published.js';

const demo = generateDemo({ seed: 11, reviews: 400 });
const analyzer = new Analyzer(demo.business);
const published: PublishedReview[] = demo.reviews
  .filter((r) => r.verified)
  .map((r) => publishedFrom(r, '2026-11-01T00:00:00.000Z'))
  .sort(compareNewestFirst);
const meta = { generatedAt: '2026-11-01T00:00:00.000Z', lexiconVersion: 'test' };

const analysed = new WeakMap<PublishedReview, ReviewAnalysis>();
function analysisOf(review: PublishedReview): ReviewAnalysis {
  let analysis = analysed.get(review);
  if (!analysis) analysed.set(review, (analysis = analyzer.analyze(review)));
  return analysis;
}

/** The document of these reviews from nothing (listed in any order: the aggregation orders them). */
function fromNothing(reviews: Iterable<PublishedReview>): string {
  const list = [...reviews];
  return JSON.stringify(aggregate(demo.business, list, new Map(list.map((r) => [r.id, analysisOf(r)])), meta));
}

/** A kept aggregation and the reviews it should hold. */
class Kept {
  readonly aggregation = new Aggregation();
  readonly reviews = new Map<string, PublishedReview>();

  put(review: PublishedReview): void {
    this.reviews.set(review.id, review);
    this.aggregation.put(review, analysisOf(review));
  }

  remove(id: string): void {
    this.reviews.delete(id);
    this.aggregation.remove(id);
  }

  /** Moves to exactly these reviews, putting only what changed. */
  become(reviews: readonly PublishedReview[]): void {
    const ids = new Set(reviews.map((r) => r.id));
    for (const id of [...this.reviews.keys()]) if (!ids.has(id)) this.remove(id);
    for (const review of reviews) if (this.reviews.get(review.id) !== review) this.put(review);
  }

  document(): string {
    return JSON.stringify(this.aggregation.document(demo.business, meta));
  }
}

describe('a kept aggregation', () => {
  it('prints what an aggregation from nothing prints, through edits, deletions, additions and reverts', () => {
    const kept = new Kept();
    // A third of the texts rewritten (so topics and their counts move), one of them about urgent work.
    const rewrite = (r: PublishedReview, i: number) => ({
      ...r,
      text:
        i === 2
          ? `${r.text} The same day emergency visit was worth it.`
          : `Maintenance plan renewed. ${published[(i * 5) % published.length]!.text}`,
    });
    const edited = published.map((r, i) => (i % 3 === 2 ? rewrite(r, i) : r));
    const shrunk = edited.filter((_, i) => i % 7 !== 0);
    const grown = [
      {
        ...published[5]!,
        id: 'added-review',
        date: '2030-01-01',
        text: 'Water heater replaced the same day. Great water heater crew.',
      },
      ...shrunk,
    ];
    for (const reviews of [published, edited, shrunk, grown, published, []]) {
      kept.become(reviews);
      expect(kept.document()).toBe(fromNothing(reviews));
    }
  });

  it('re-picks the quotes when a quoted review goes or changes', () => {
    const kept = new Kept();
    kept.become(published);
    const before = JSON.parse(kept.document()) as { aspects: { quotes: { positive: { reviewId: string }[] } }[] };
    const quoted = before.aspects.flatMap((a) => a.quotes.positive.map((q) => q.reviewId));
    expect(quoted.length).toBeGreaterThan(0);
    // The strongest quotes lose their review, or its judgement turns: the next strongest must take their place.
    for (const id of quoted.slice(0, 4)) kept.remove(id);
    const turned = published.find((r) => r.id === quoted[4])!;
    if (turned)
      kept.put({
        ...turned,
        rating: 1,
        text: 'Late, rude and overpriced. The repair failed a day later.',
        updatedAt: '2026-11-02T00:00:00.000Z',
      });
    expect(kept.document()).toBe(fromNothing(kept.reviews.values()));
    expect(kept.document()).not.toContain(`"reviewId":"${quoted[0]}"`);
  });

  it('holds for any sequence of changes (property)', () => {
    const pool = published.slice(0, 160);
    const op = fc.oneof(
      fc.record({ kind: fc.constant('remove' as const), i: fc.nat(pool.length - 1) }),
      fc.record({ kind: fc.constant('restore' as const), i: fc.nat(pool.length - 1) }),
      fc.record({ kind: fc.constant('text' as const), i: fc.nat(pool.length - 1), from: fc.nat(pool.length - 1) }),
      fc.record({
        kind: fc.constant('rating' as const),
        i: fc.nat(pool.length - 1),
        rating: fc.integer({ min: 1, max: 5 }),
      }),
      fc.record({
        kind: fc.constant('date' as const),
        i: fc.nat(pool.length - 1),
        date: fc.constantFrom('2019-02-03', '2024-11-19', '2025-07-23', '2031-01-01'),
      }),
      fc.record({
        kind: fc.constant('area' as const),
        i: fc.nat(pool.length - 1),
        area: fc.constantFrom(undefined, 'Nowhere', demo.business.areaServed[0]!),
      }),
      fc.record({ kind: fc.constant('copy' as const), i: fc.nat(pool.length - 1), n: fc.nat(3) }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 6 }), (ops) => {
        const kept = new Kept();
        kept.become(pool);
        for (const o of ops) {
          const review = kept.reviews.get(pool[o.i]!.id) ?? pool[o.i]!;
          const changed = (patch: Partial<PublishedReview>) =>
            kept.put({ ...review, ...patch, updatedAt: `2026-11-02T00:00:0${ops.indexOf(o) % 10}.000Z` });
          if (o.kind === 'remove') kept.remove(review.id);
          else if (o.kind === 'restore') kept.put(pool[o.i]!);
          else if (o.kind === 'text') changed({ text: `${pool[o.from]!.text} Same day water heater swap.` });
          else if (o.kind === 'rating') changed({ rating: o.rating });
          else if (o.kind === 'date') changed({ date: o.date });
          else if (o.kind === 'area') changed({ serviceArea: o.area });
          else kept.put({ ...review, id: `${review.id}-copy-${o.n}` });
          expect(kept.document()).toBe(fromNothing(kept.reviews.values()));
        }
      }),
      { numRuns: 40, seed: 20261124 },
    );
  });
});
