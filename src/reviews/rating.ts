// The mean star rating as the published documents print it: to two decimals. One definition for every document.

/** The mean of `count` ratings (more than none) that add up to `sum`, to two decimals. */
export function meanRating(sum: number, count: number): number {
  return Math.round((sum / count) * 100) / 100;
}
