// The mean star rating as the published documents print it: to two decimals. One definition for every document.

/**
 * The mean of `count` ratings (more than none) that add up to `sum`, to two decimals, an exact half cent rounded
 * up: scaling before dividing keeps 4.475 exact (dividing first would give 4.4749999… and print 4.47).
 */
export function meanRating(sum: number, count: number): number {
  return Math.round((sum * 100) / count) / 100;
}
