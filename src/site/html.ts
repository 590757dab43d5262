// Safe HTML by construction: the `html` template escapes every interpolated value unless it is already Html.
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template may hold: text (escaped), numbers, markup made here, lists of them; nothing for null/false. */
export type Content = Html | string | number | null | undefined | false | readonly Content[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(value: Content): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return (value as readonly Content[]).map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Content[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Markup this code wrote itself (never text from the data). */
export const trusted = (markup: string) => new Html(markup);

/**
 * JSON inside `<script type="application/ld+json">`: `<` is escaped so no text in the data can close the element
 * (or open a comment); JSON parsers read \u003c as `<`.
 */
export function jsonScript(value: unknown): Html {
  return new Html(
    `<script type="application/ld+json">${JSON.stringify(value)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029')}</script>`,
  );
}

/** A number the way the pages show it: 1,234 and 4.6. */
export const formatCount = (n: number) => n.toLocaleString('en-US');
export const formatRating = (n: number) => n.toFixed(1);

/** "1 review", "2 reviews". */
export const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** 2026-11-05 → "5 November 2026" (the date as written, no time zone involved). */
export function formatDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
}
