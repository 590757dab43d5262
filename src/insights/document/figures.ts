// How the insights write figures: rounding, percentages, counts in prose, quarters (average ratings: reviews/rating.ts).

export const round2 = (x: number) => Math.round(x * 100) / 100;

/** Whole percent of `part` in `whole` (0 of nothing), an exact half rounded up: 23 of 40 is 58%. */
export const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part * 100) / whole));

/** A count as prose shows it: 1,460. */
export const count = (x: number) => x.toLocaleString('en-US');

/** The calendar quarter of an ISO date: 2026-Q3. */
export const quarterOf = (date: string) => `${date.slice(0, 4)}-Q${Math.ceil(Number(date.slice(5, 7)) / 3)}`;
