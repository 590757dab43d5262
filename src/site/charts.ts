// Charts as inline SVG made on the server: no script, styled by the page's stylesheet (light and dark), each with a
// title, a description and a table of the same figures for readers that do not see it.
import type { AggregateRating } from '../reviews/schemas.js';
import type { AspectInsight } from '../reviews/insights-document.js';
import { formatCount, formatRating, html, type Html } from './html.js';

/** Drawn 360 wide, the narrowest phone: scaled up on wider screens, never down below readable text. */
const WIDTH = 360;

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((100 * part) / whole) : 0);
const num = (n: number) => Number(n.toFixed(1));

interface ChartParts {
  id: string;
  title: string;
  description: string;
  height: number;
  body: Html;
  /** The same figures as a table: a caption-less header row, then one row per item. */
  table: { head: string[]; rows: (string | number)[][] };
}

function figure({ id, title, description, height, body, table }: ChartParts): Html {
  return html`<figure class="chart" id="${id}">
<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="${id}-title ${id}-desc" focusable="false">
<title id="${id}-title">${title}</title>
<desc id="${id}-desc">${description}</desc>
${body}
</svg>
<details class="chart-figures"><summary>The figures</summary>
<table><thead><tr>${table.head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>${table.rows.map((row) => html`<tr>${row.map((cell, i) => (i === 0 ? html`<th scope="row">${cell}</th>` : html`<td>${cell}</td>`))}</tr>`)}</tbody></table>
</details>
</figure>`;
}

/** Horizontal bars of reviews per star rating, 5 stars first. */
export function ratingDistributionChart(aggregate: AggregateRating): Html {
  const rowHeight = 28;
  const labelWidth = 34;
  const valueWidth = 82;
  const barSpace = WIDTH - labelWidth - valueWidth;
  const total = aggregate.reviewCount;
  const most = Math.max(1, ...Object.values(aggregate.distribution));
  const stars = [5, 4, 3, 2, 1] as const;
  const rows = stars.map((star, i) => {
    const count = aggregate.distribution[String(star) as keyof AggregateRating['distribution']];
    const y = i * rowHeight;
    const width = num((barSpace * count) / most);
    return html`<g>
<text class="chart-label" x="0" y="${y + 18}">${star}★</text>
<rect class="chart-track" x="${labelWidth}" y="${y + 6}" width="${barSpace}" height="16" rx="3"/>
<rect class="chart-bar rating-${star}" x="${labelWidth}" y="${y + 6}" width="${width}" height="16" rx="3"/>
<text class="chart-value" x="${WIDTH}" y="${y + 18}" text-anchor="end">${formatCount(count)} (${percent(count, total)}%)</text>
</g>`;
  });
  const description = stars
    .map(
      (star) =>
        `${star} stars: ${formatCount(aggregate.distribution[String(star) as keyof AggregateRating['distribution']])}`,
    )
    .join('; ');
  return figure({
    id: 'chart-ratings',
    title: `How ${formatCount(total)} customers rated the business`,
    description: `Reviews per star rating. ${description}.`,
    height: stars.length * rowHeight,
    body: html`${rows}`,
    table: {
      head: ['Rating', 'Reviews', 'Share'],
      rows: stars.map((star) => {
        const count = aggregate.distribution[String(star) as keyof AggregateRating['distribution']];
        return [`${star} stars`, formatCount(count), `${percent(count, total)}%`];
      }),
    },
  });
}

/** One stacked bar per aspect: the share of its mentions that praise it, that are neutral and that criticise it. */
export function aspectChart(aspects: readonly AspectInsight[]): Html {
  const rowHeight = 44;
  const shown = aspects.filter((a) => a.mentions > 0);
  const rows = shown.map((aspect, i) => {
    const y = i * rowHeight;
    const pos = (WIDTH * aspect.positive) / aspect.mentions;
    const neg = (WIDTH * aspect.negative) / aspect.mentions;
    const neutral = WIDTH - pos - neg;
    return html`<g>
<text class="chart-label" x="0" y="${y + 14}">${aspect.label}</text>
<text class="chart-value" x="${WIDTH}" y="${y + 14}" text-anchor="end">${percent(aspect.positive, aspect.mentions)}% praise · ${percent(aspect.negative, aspect.mentions)}% criticise</text>
<rect class="chart-bar positive" x="0" y="${y + 20}" width="${num(pos)}" height="14"/>
<rect class="chart-bar neutral" x="${num(pos)}" y="${y + 20}" width="${num(neutral)}" height="14"/>
<rect class="chart-bar negative" x="${num(pos + neutral)}" y="${y + 20}" width="${num(neg)}" height="14"/>
</g>`;
  });
  return figure({
    id: 'chart-aspects',
    title: 'What customers praise and criticise',
    description: `For each aspect of the work, the share of the reviews that judge it positively (left, green) and negatively (right, red). ${shown
      .map(
        (a) =>
          `${a.label}: ${percent(a.positive, a.mentions)}% positive, ${percent(a.negative, a.mentions)}% negative of ${a.mentions}`,
      )
      .join('; ')}.`,
    height: Math.max(1, shown.length) * rowHeight,
    body: html`${rows}`,
    table: {
      head: ['Aspect', 'Reviews judging it', 'Positive', 'Negative'],
      rows: shown.map((a) => [
        a.label,
        formatCount(a.mentions),
        `${percent(a.positive, a.mentions)}%`,
        `${percent(a.negative, a.mentions)}%`,
      ]),
    },
  });
}

export interface QuarterFigures {
  /** e.g. 2026-Q3 */
  quarter: string;
  reviews: number;
  /** null for a quarter without reviews. */
  averageRating: number | null;
}

/** The average rating per quarter (a line, above) and the number of reviews per quarter (bars, below), oldest first. */
export function trendChart(quarters: readonly QuarterFigures[]): Html {
  const left = 26;
  const right = 8;
  const ratingTop = 10;
  const ratingHeight = 110;
  const volumeTop = ratingTop + ratingHeight + 22;
  const volumeHeight = 40;
  const height = volumeTop + volumeHeight + 22;
  const plotWidth = WIDTH - left - right;
  const step = plotWidth / Math.max(1, quarters.length);
  const most = Math.max(1, ...quarters.map((q) => q.reviews));
  const x = (i: number) => num(left + step * (i + 0.5));
  const yRating = (r: number) => num(ratingTop + ratingHeight * (1 - (r - 1) / 4));
  const grid = [1, 2, 3, 4, 5].map(
    (r) =>
      html`<line class="chart-grid" x1="${left}" x2="${WIDTH - right}" y1="${yRating(r)}" y2="${yRating(r)}"/><text class="chart-axis" x="${left - 6}" y="${yRating(r) + 4}" text-anchor="end">${r}★</text>`,
  );
  const bars = quarters.map((q, i) => {
    const h = num((volumeHeight * q.reviews) / most);
    return html`<rect class="chart-bar volume" x="${num(x(i) - step * 0.35)}" y="${num(volumeTop + volumeHeight - h)}" width="${num(step * 0.7)}" height="${h}"/>`;
  });
  // One line per run of quarters with reviews: a quarter without any breaks it.
  const runs: string[][] = [[]];
  quarters.forEach((q, i) => {
    if (q.averageRating === null) runs.push([]);
    else runs.at(-1)!.push(`${x(i)},${yRating(q.averageRating)}`);
  });
  const lines = runs
    .filter((run) => run.length > 1)
    .map((run) => html`<polyline class="chart-line" points="${run.join(' ')}"/>`);
  const points = quarters.flatMap((q, i) =>
    q.averageRating === null
      ? []
      : [html`<circle class="chart-point" cx="${x(i)}" cy="${yRating(q.averageRating)}" r="2.5"/>`],
  );
  // Years under their first quarter, every few years when there are many, so that labels (some 30 units wide) never
  // overlap; the first quarter shown is labelled too when the first such year is far enough from it.
  const yearEvery = Math.max(1, Math.ceil(30 / (step * 4)));
  const labelled = quarters.flatMap((q, i) =>
    q.quarter.endsWith('Q1') && Number(q.quarter.slice(0, 4)) % yearEvery === 0 ? [i] : [],
  );
  if (quarters.length && (labelled[0] ?? Infinity) * step >= 30) labelled.unshift(0);
  const labels = labelled.map(
    (i) =>
      html`<text class="chart-axis" x="${x(i)}" y="${height - 6}" text-anchor="middle">${quarters[i]!.quarter.slice(0, 4)}</text>`,
  );
  const last = quarters.findLast((q) => q.averageRating !== null);
  return figure({
    id: 'chart-trend',
    title: 'Rating over time',
    description: last
      ? `Average star rating per calendar quarter (line) and number of reviews per quarter (bars), from ${quarters[0]!.quarter} to ${quarters.at(-1)!.quarter}; the latest quarter with reviews, ${last.quarter}, averages ${formatRating(last.averageRating!)} stars over ${formatCount(last.reviews)} reviews.`
      : 'No reviews yet.',
    height,
    body: html`${grid}${lines}${points}<text class="chart-axis" x="${left}" y="${volumeTop - 6}">Reviews per quarter (most: ${formatCount(most)})</text>${bars}<line class="chart-grid" x1="${left}" x2="${WIDTH - right}" y1="${volumeTop + volumeHeight}" y2="${volumeTop + volumeHeight}"/>${labels}`,
    table: {
      head: ['Quarter', 'Reviews', 'Average rating'],
      rows: [...quarters]
        .reverse()
        .map((q) => [q.quarter, formatCount(q.reviews), q.averageRating === null ? '–' : q.averageRating.toFixed(2)]),
    },
  });
}

/** Reviews per calendar quarter, oldest first, every quarter from the first review's to the last's. */
export function quarterFigures(reviews: readonly { date: string; rating: number }[]): QuarterFigures[] {
  // Quarters counted from year 0: consecutive numbers for consecutive quarters.
  const quarterOf = (date: string) => Number(date.slice(0, 4)) * 4 + Math.floor((Number(date.slice(5, 7)) - 1) / 3);
  const byQuarter = new Map<number, { reviews: number; sum: number }>();
  let first = Infinity;
  let last = -Infinity;
  for (const review of reviews) {
    const q = quarterOf(review.date);
    const entry = byQuarter.get(q) ?? { reviews: 0, sum: 0 };
    entry.reviews++;
    entry.sum += review.rating;
    byQuarter.set(q, entry);
    first = Math.min(first, q);
    last = Math.max(last, q);
  }
  const quarters: QuarterFigures[] = [];
  for (let q = first; q <= last; q++) {
    const entry = byQuarter.get(q);
    quarters.push({
      quarter: `${Math.floor(q / 4)}-Q${(q % 4) + 1}`,
      reviews: entry?.reviews ?? 0,
      averageRating: entry ? Math.round((100 * entry.sum) / entry.reviews) / 100 : null,
    });
  }
  return quarters;
}
