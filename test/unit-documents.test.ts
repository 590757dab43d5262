// The reviews' JSON is encoded once per review object and assembled: the bytes must be those of encoding the whole.
import { describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { renderReviewsDataset, reviewsDataset, reviewsJson, toPublic } from '../src/reviews/documents.js';
import { compareNewestFirst, type PublishedReview } from '../src/reviews/published.js';

const demo = generateDemo({ seed: 5, reviews: 300 });
const reviews: PublishedReview[] = demo.reviews
  .filter((r) => r.verified)
  .map(({ verified: _v, ...r }) => ({ ...r, updatedAt: '2026-11-01T00:00:00.000Z' }))
  .sort(compareNewestFirst);

describe('assembled review JSON', () => {
  it('is byte for byte the JSON of the whole dataset, with and without a business, and with no reviews', () => {
    for (const [business, list] of [[demo.business, reviews], [null, reviews], [demo.business, []]] as const) {
      expect(renderReviewsDataset(business, list).toString('utf8')).toBe(JSON.stringify(reviewsDataset(business, list)));
    }
  });

  it('follows a new version of a review (a new object), and texts outside Latin-1', () => {
    const first = reviews.slice(0, 20);
    expect(Buffer.concat(reviewsJson(first)).toString('utf8')).toBe(JSON.stringify(first.map(toPublic)));
    const edited = [{ ...first[0]!, text: 'Zoë fixed it — “perfect” 👍 \u2028 done' }, ...first.slice(1)];
    expect(Buffer.concat(reviewsJson(edited)).toString('utf8')).toBe(JSON.stringify(edited.map(toPublic)));
    expect(Buffer.concat(reviewsJson([])).toString('utf8')).toBe('[]');
  });
});
