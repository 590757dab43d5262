// A review as a card in lists (home page, embed), and the star rating as text and symbols.
import { ratingOnlyText } from '../reviews/documents.js';
import type { Business, Review } from '../reviews/schemas.js';
import { formatDate, html, type Html } from './html.js';

/** "★★★★☆", with the figure for screen readers. */
export function stars(rating: number): Html {
  return html`<span class="stars" role="img" aria-label="${rating} out of 5 stars">${'★'.repeat(Math.round(rating))}${'☆'.repeat(5 - Math.round(rating))}</span>`;
}

export const serviceName = (business: Business | null, id: string) =>
  business?.services.find((s) => s.id === id)?.name ?? id;

/** A review's heading: its own title, or who rated and for what. */
export function reviewHeading(business: Business | null, review: Review): string {
  if (review.title) return review.title;
  const service = review.services[0];
  return service ? `${serviceName(business, service)} — ${review.author}` : `Review by ${review.author}`;
}

/** Long texts are cut in lists; the permalink has the whole review. */
const LIST_TEXT_CHARS = 600;

/** Brief cards (the embed) cut sooner. */
const BRIEF_TEXT_CHARS = 220;

function excerpt(text: string, chars = LIST_TEXT_CHARS): { text: string; cut: boolean } {
  if (text.length <= chars) return { text, cut: false };
  const cut = text.lastIndexOf(' ', chars);
  return { text: `${text.slice(0, cut > 0 ? cut : chars)}…`, cut: true };
}

export interface CardOptions {
  /** Links open in a new browsing context (the embed, framed on another site). */
  newTab?: boolean;
  /** The origin to prefix links with (the embed is shown on another site); root-relative when absent. */
  origin?: string;
  /** A short card: the text cut sooner, no reply (the permalink has both). */
  brief?: boolean;
  /** The card's heading level: one below the heading of the list it is in. */
  heading?: 'h2' | 'h3';
}

export function reviewCard(business: Business | null, review: Review, options: CardOptions = {}): Html {
  const href = `${options.origin ?? ''}/reviews/${encodeURIComponent(review.id)}`;
  const target = options.newTab ? html` target="_blank" rel="noopener"` : '';
  const { text, cut } = excerpt(review.text, options.brief ? BRIEF_TEXT_CHARS : LIST_TEXT_CHARS);
  const people = review.technicians.length
    ? html`<span class="who">Technician${review.technicians.length > 1 ? 's' : ''}: ${review.technicians.join(', ')}</span>`
    : '';
  const services = review.services.length
    ? html`<span class="what">${review.services.map((id) => serviceName(business, id)).join(', ')}</span>`
    : '';
  const area = review.serviceArea ? html`<span class="where">in ${review.serviceArea}</span>` : '';
  const heading = options.heading ?? 'h3';
  return html`<article class="review" id="review-${review.id}">
<${heading}><a class="permalink" href="${href}"${target}>${reviewHeading(business, review)}</a></${heading}>
<p class="meta">${stars(review.rating)} <span class="author">${review.author}</span> · <time datetime="${review.date}">${formatDate(review.date)}</time></p>
<p class="text"${review.text ? html` lang="${review.language}"` : ''}>${review.text ? text : ratingOnlyText(review)}${cut ? html` <a href="${href}"${target}>Read the whole review</a>` : ''}${review.response && options.brief ? html` <a class="replied" href="${href}"${target}>The business replied</a>` : ''}</p>
${people || services || area ? html`<p class="tags">${services}${people}${area}</p>` : ''}
${review.response && !options.brief ? html`<div class="response"><p class="response-by">Reply from the business, <time datetime="${review.response.date}">${formatDate(review.response.date)}</time></p><p>${excerpt(review.response.text).text}</p></div>` : ''}
</article>`;
}
