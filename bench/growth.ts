// How each figure of the bench grows with the store: the rows measured at more than one size, side by side, and the
// factor from the smallest store to the largest beside the factor of reviews. A time or a memory that grows like the
// reviews follows the store; one that stays flat follows the change.

export interface Growth {
  measure: string;
  /** The figure at each size (the leading number of the row's value), by reviews. */
  values: Record<string, number>;
  /** Largest store's figure over the smallest's. */
  factor: number;
  /** Largest store's reviews over the smallest's. */
  reviewsFactor: number;
}

/** The leading number of a value cell ("1261 (124.22)", "5518 ms", "50256.5 KiB"), or undefined. */
function leadingNumber(cell: string): number | undefined {
  const match = /^-?\d+(\.\d+)?/.exec(cell.trim());
  return match ? Number(match[0]) : undefined;
}

/** The growth of every measure taken at two sizes or more, in the order the bench first printed them. */
export function growthOf(rows: readonly string[][]): Growth[] {
  const byMeasure = new Map<string, Map<number, number>>();
  for (const [reviews, measure, value] of rows) {
    const size = Number(reviews);
    const figure = leadingNumber(value ?? '');
    if (!Number.isFinite(size) || figure === undefined || measure === undefined) continue;
    let sizes = byMeasure.get(measure);
    if (!sizes) byMeasure.set(measure, (sizes = new Map()));
    sizes.set(size, figure);
  }
  const growth: Growth[] = [];
  for (const [measure, sizes] of byMeasure) {
    if (sizes.size < 2) continue;
    const ordered = [...sizes].sort(([a], [b]) => a - b);
    const [smallest, smallestValue] = ordered[0]!;
    const [largest, largestValue] = ordered.at(-1)!;
    growth.push({
      measure,
      values: Object.fromEntries(ordered.map(([size, value]) => [String(size), value])),
      factor: smallestValue === 0 ? Number.NaN : largestValue / smallestValue,
      reviewsFactor: largest / smallest,
    });
  }
  return growth;
}

/** The growth table in Markdown, one column per size. */
export function growthTable(growth: readonly Growth[]): string {
  const sizes = [...new Set(growth.flatMap((g) => Object.keys(g.values)))].sort((a, b) => Number(a) - Number(b));
  const head = `| measure | ${sizes.map((s) => Number(s).toLocaleString('en-US')).join(' | ')} | growth | reviews × |`;
  const rule = `|---|${sizes.map(() => '---|').join('')}---|---|`;
  const lines = growth.map(
    (g) =>
      `| ${g.measure} | ${sizes.map((s) => g.values[s] ?? '').join(' | ')} | ${g.factor.toFixed(2)}× | ${g.reviewsFactor.toFixed(0)}× |`,
  );
  return [head, rule, ...lines].join('\n');
}
