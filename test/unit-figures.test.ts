// The figures the documents print (meanRating, round2, percent, count): rounding and formatting, exact halves included.
import { publishedReview } from './support/reviews.js';
import { describe, expect, it } from 'vitest';
import { count, percent, round2 } from '../src/insights/document/figures.js';
import { meanRating } from '../src/reviews/rating.js';
import type { PublishedReview } from '../src/reviews/published.js';

/** Reviews with these ratings; only the ratings matter to an average. */
function rated(...ratings: number[]): PublishedReview[] {
  return ratings.map((rating, i) =>
    publishedReview({
      id: `f-${i}`,
      date: '2024-01-01',
      rating,
      text: `Review ${i}.`,
      updatedAt: '2024-01-02T00:00:00.000Z',
    }),
  );
}

/** `n` ratings summing to `sum`: as many 5s as fit after a 1 for each, then the remainder on one review. */
function ratingsSumming(sum: number, n: number): number[] {
  const ratings = Array.from({ length: n }, () => 1);
  let left = sum - n;
  for (let i = 0; i < n && left > 0; i++) {
    const add = Math.min(4, left);
    ratings[i]! += add;
    left -= add;
  }
  if (left !== 0) throw new Error(`${n} ratings cannot sum to ${sum}`);
  return ratings;
}

describe('round2', () => {
  it.each([
    [3.14159, 3.14],
    [2.999, 3],
    [4, 4],
    [0.004, 0],
    [0.005, 0.01],
    [-1.234, -1.23],
    [1 / 3, 0.33],
  ])('rounds %f to %f', (x, rounded) => {
    expect(round2(x)).toBe(rounded);
  });
});

describe('percent', () => {
  it.each([
    [1, 3, 33],
    [2, 3, 67],
    [5, 5, 100],
    [0, 7, 0],
    [1, 200, 1],
    [1, 1000, 0],
  ])('gives %i of %i as %i%', (part, whole, expected) => {
    expect(percent(part, whole)).toBe(expected);
  });

  it('gives 0% of nothing rather than NaN', () => {
    expect(percent(0, 0)).toBe(0);
  });

  it('rounds an exact half up: 1 of 8 is 12.5%, printed 13%', () => {
    expect(percent(1, 8)).toBe(13);
    expect(percent(7, 200)).toBe(4);
  });

  // Computed as (part / whole) * 100, 23 of 40 would be 57.49999999999999 and print 57%; scaled first it is exact.
  it('rounds every exact half up alike: 23 of 40 is 57.5%, printed 58%', () => {
    expect(percent(23, 40)).toBe(58);
    expect(percent(29, 200)).toBe(15);
  });
});

describe('count', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1460, '1,460'],
    [1234567, '1,234,567'],
  ])('writes %i as %s', (n, text) => {
    expect(count(n)).toBe(text);
  });
});

/** The mean rating of reviews, as every document computes it: from their sum and count. */
const averageRating = (reviews: PublishedReview[]) =>
  meanRating(
    reviews.reduce((sum, r) => sum + r.rating, 0),
    reviews.length,
  );

describe('meanRating', () => {
  it('is the mean rating of the reviews', () => {
    expect(averageRating(rated(5))).toBe(5);
    expect(averageRating(rated(1, 2))).toBe(1.5);
    expect(averageRating(rated(5, 4, 4, 3, 5, 1))).toBe(3.67);
    expect(averageRating(rated(5, 4, 4))).toBe(4.33);
  });

  it('writes the mean with two decimals at most', () => {
    expect(averageRating(rated(5, 5, 4))).toBe(4.67);
    expect(averageRating(rated(...ratingsSumming(300, 70)))).toBe(4.29);
  });

  it('rounds an exact half cent up: 8 reviews summing 33 average 4.125, printed 4.13', () => {
    expect(averageRating(rated(...ratingsSumming(33, 8)))).toBe(4.13);
  });

  // Divided first, 40 reviews summing 179 would average 4.4749999… and print 4.47; scaled first it is exact.
  it('rounds every exact half cent up alike: 40 reviews summing 179 average 4.475, printed 4.48', () => {
    expect(averageRating(rated(...ratingsSumming(179, 40)))).toBe(4.48);
  });
});
