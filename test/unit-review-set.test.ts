// The published reviews kept in step by deltas: whatever the deltas, the set equals the reviews sorted afresh.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareNewestFirst, type PublishedReview } from '../src/reviews/published.js';
import { ReviewDeltas } from '../src/insights/deltas.js';
import { ReviewSet } from '../src/reviews/review-set.js';
import { publishedReview } from './support/reviews.js';

const review = (id: string, date: string, version = 0): PublishedReview =>
  publishedReview({
    id,
    date,
    text: `${id} v${version}`,
    author: 'A B.',
    updatedAt: `2026-01-01T00:00:0${version % 10}.000Z`,
  });

describe('ReviewSet', () => {
  it('keeps the reviews newest first, date then id, through upserts and removals', () => {
    const set = new ReviewSet();
    expect(
      set
        .apply({
          reset: true,
          upsert: [review('a', '2025-01-01'), review('c', '2025-03-01'), review('b', '2025-01-01')],
          remove: [],
        })
        .map((r) => r.id),
    ).toEqual(['c', 'b', 'a']);
    const next = set.apply({
      reset: false,
      upsert: [review('a', '2025-04-01', 1), review('d', '2025-02-01')],
      remove: ['c'],
    });
    expect(next.map((r) => [r.id, r.text])).toEqual([
      ['a', 'a v1'],
      ['d', 'd v0'],
      ['b', 'b v0'],
    ]);
    expect(set.has('c')).toBe(false);
    expect([...set.ids.keys()].sort()).toEqual(['a', 'b', 'd']);
  });

  it('returns a new array at every apply and leaves the ones it returned before as they were', () => {
    const set = new ReviewSet();
    const first = set.apply({ reset: true, upsert: [review('a', '2025-01-01')], remove: [] });
    const second = set.apply({ reset: false, upsert: [review('b', '2025-02-01')], remove: [] });
    expect(first.map((r) => r.id)).toEqual(['a']);
    expect(second.map((r) => r.id)).toEqual(['b', 'a']);
    expect(set.apply({ reset: false, upsert: [], remove: [] })).not.toBe(second);
  });

  it('equals a fresh sort of what the deltas leave, for any sequence of deltas (in place or sorted whole)', () => {
    const id = fc.constantFrom(...'abcdefghij');
    const date = fc.constantFrom('2025-01-01', '2025-01-02', '2025-02-01');
    const delta = fc.record({
      reset: fc.boolean(),
      upsert: fc.uniqueArray(fc.tuple(id, date, fc.nat(9)), { selector: ([i]) => i, maxLength: 6 }),
      remove: fc.uniqueArray(id, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(delta, { maxLength: 12 }), (deltas) => {
        const set = new ReviewSet();
        const model = new Map<string, PublishedReview>();
        for (const d of deltas) {
          const upsert = d.upsert.map(([i, dt, v]) => review(i, dt, v));
          const remove = d.remove.filter((r) => !d.upsert.some(([i]) => i === r));
          if (d.reset) model.clear();
          for (const r of remove) model.delete(r);
          for (const r of upsert) model.set(r.id, r);
          expect(set.apply({ reset: d.reset, upsert, remove })).toEqual([...model.values()].sort(compareNewestFirst));
        }
      }),
    );
  });

  it('follows any sequence of versions through the deltas the server sends the insights thread', async () => {
    const version = fc.uniqueArray(
      fc.tuple(fc.constantFrom(...'abcdefghij'), fc.constantFrom('2025-01-01', '2025-02-01'), fc.nat(3)),
      { selector: ([i]) => i, maxLength: 10 },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(version, { minLength: 1, maxLength: 10 }), fc.nat(9), async (versions, lostAt) => {
        const deltas = new ReviewDeltas();
        let thread = new ReviewSet();
        for (const [n, v] of versions.entries()) {
          // Now and then the thread is replaced: the next delta must send everything again.
          if (n === lostAt) {
            deltas.forget();
            thread = new ReviewSet();
          }
          // A record's updatedAt moves whenever its content does (the store stamps every write).
          const reviews = v
            .map(([i, dt, ver]) => review(i, dt, ver + (dt === '2025-02-01' ? 4 : 0)))
            .sort(compareNewestFirst);
          const delta = await deltas.next(reviews);
          if (!delta.reset) expect(delta.upsert.length + delta.remove.length).toBeLessThanOrEqual(20);
          expect(thread.apply(delta)).toEqual(reviews);
        }
      }),
    );
  });

  it('computes a delta again when the thread is replaced while it is being computed', async () => {
    const deltas = new ReviewDeltas();
    const reviews = Array.from({ length: 50_000 }, (_, i) =>
      review(`r${String(i).padStart(6, '0')}`, '2025-01-01', 0),
    ).sort(compareNewestFirst);
    await deltas.next(reviews);
    const changed = reviews.map((r, i) => (i === 0 ? { ...r, updatedAt: 'later' } : r));
    let pauses = 0;
    const delta = await deltas.next(changed, async () => {
      if (pauses++ === 0) deltas.forget();
    });
    expect(delta.reset).toBe(true);
    expect(delta.upsert).toHaveLength(50_000);
  });
});
