// For the business's own website: /badge.svg (the rating as a small image) and /embed (a page to frame).
import type { AggregateRating, Business, Review } from '../reviews/schemas.js';
import { escapeHtml, formatCount, formatRating, html, plural } from './html.js';
import { page, type SiteContext } from './layout.js';
import { reviewCard, stars } from './reviews-list.js';

/** Width of text in the badge's 11 px sans-serif, near enough to size its boxes (no font is measured). */
const textWidth = (text: string) =>
  Math.ceil(
    [...text].reduce((w, c) => w + (c === '★' ? 11 : /[ .,]/.test(c) ? 3.5 : /[A-Z0-9]/.test(c) ? 7.5 : 6.2), 0),
  );

export function badgeSvg(aggregate: AggregateRating): string {
  const label = 'reviews';
  const value =
    aggregate.ratingValue === null
      ? 'none yet'
      : `${formatRating(aggregate.ratingValue)}★ · ${formatCount(aggregate.reviewCount)}`;
  const title =
    aggregate.ratingValue === null
      ? 'No reviews yet'
      : `Rated ${formatRating(aggregate.ratingValue)} out of 5 from ${plural(aggregate.reviewCount, 'verified review')}`;
  const left = textWidth(label) + 12;
  const right = textWidth(value) + 12;
  const width = left + right;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" viewBox="0 0 ${width} 20" role="img" aria-label="${escapeHtml(title)}">
<title>${escapeHtml(title)}</title>
<clipPath id="r"><rect width="${width}" height="20" rx="3"/></clipPath>
<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#3f4a55"/><rect x="${left}" width="${right}" height="20" fill="#1b7a43"/></g>
<g fill="#fff" font-family="Verdana,DejaVu Sans,Geneva,sans-serif" font-size="11" text-anchor="middle">
<text x="${left / 2}" y="14">${label}</text>
<text x="${left + right / 2}" y="14">${escapeHtml(value)}</text>
</g>
</svg>
`;
}

/** The rating and the three newest reviews, linking to this site in a new tab (the page is framed elsewhere). */
export function embedPage(
  site: SiteContext,
  business: Business | null,
  aggregate: AggregateRating,
  newest: readonly Review[],
): string {
  const origin = site.links.baseUrl;
  const name = business?.name ?? 'Customer reviews';
  // Framed, it is still a page of its own to assistive technology: one main landmark, the business as its h1.
  const main = html`<main class="embed">
<h1 class="embed-head"><a href="${origin}/" target="_blank" rel="noopener">${name}</a></h1>
<p class="embed-rating">${aggregate.ratingValue === null ? 'No reviews yet' : html`${stars(aggregate.ratingValue)} <span class="rating-value" data-value="${aggregate.ratingValue}">${formatRating(aggregate.ratingValue)}</span> out of 5 · ${plural(aggregate.reviewCount, 'verified review')}`}</p>
<ol class="review-list">${newest.slice(0, 3).map((r) => html`<li>${reviewCard(business, r, { newTab: true, origin, brief: true, heading: 'h2' })}</li>`)}</ol>
<p class="embed-more"><a href="${origin}/" target="_blank" rel="noopener">Read every review</a></p>
</main>`;
  return page(site, {
    title: `${name}: reviews`,
    description: `The newest verified reviews of ${name}.`,
    canonical: `${origin}/embed`,
    noindex: true,
    business,
    main,
    bare: true,
  });
}
