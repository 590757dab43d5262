// A review's own page (its permalink), and the page people get for what is not there.
import { permalink } from '../reviews/links.js';
import { ratingOnlyText } from '../reviews/documents.js';
import type { Business, Review } from '../reviews/schemas.js';
import { formatDate, html, type Html } from './html.js';
import { reviewJsonLd } from './jsonld.js';
import { page, type SiteContext } from './layout.js';
import { reviewHeading, serviceName, stars } from './reviews-list.js';

const paragraphs = (text: string): Html[] => text.split(/\n\s*\n/).map((p) => html`<p>${p}</p>`);

export function reviewPage(site: SiteContext, business: Business | null, review: Review): string {
  const name = business?.name ?? 'the business';
  const heading = reviewHeading(business, review);
  const techs = review.technicians.map(
    (t) => html`<li><a href="/?mentions_technician=${encodeURIComponent(t)}#reviews">${t}</a></li>`,
  );
  const services = review.services.map(
    (id) =>
      html`<li><a href="/?mentions_service=${encodeURIComponent(id)}#reviews">${serviceName(business, id)}</a></li>`,
  );
  const main = html`<p class="back"><a href="/">← All reviews of ${name}</a></p>
<article class="review single">
<h1>${heading}</h1>
<p class="meta">${stars(review.rating)} <span class="rating-text">${review.rating} out of 5</span> · by <span class="author">${review.author}</span> · <time datetime="${review.date}">${formatDate(review.date)}</time>${review.source ? html` · via ${review.source}` : ''}</p>
${review.text ? html`<div class="text" lang="${review.language}">${paragraphs(review.text)}</div>` : html`<p class="text rating-only">${ratingOnlyText(review)}</p>`}
${review.translation ? html`<section class="translation" lang="${review.translation.language}" aria-label="Translation"><p class="translation-by">Translated by ${review.source ?? 'the platform'}</p>${paragraphs(review.translation.text)}</section>` : ''}
<dl class="facts">
${techs.length ? html`<dt>Technician${techs.length > 1 ? 's' : ''}</dt><dd><ul class="inline">${techs}</ul></dd>` : ''}
${services.length ? html`<dt>Service${services.length > 1 ? 's' : ''}</dt><dd><ul class="inline">${services}</ul></dd>` : ''}
${review.serviceArea ? html`<dt>Area</dt><dd>${review.serviceArea}</dd>` : ''}
</dl>
${review.response ? html`<section class="response" aria-label="Reply from the business"><h2>Reply from ${name}</h2><p class="response-by"><time datetime="${review.response.date}">${formatDate(review.response.date)}</time></p>${paragraphs(review.response.text)}</section>` : ''}
</article>`;
  const words = review.text || ratingOnlyText(review);
  const excerpt = words.length > 150 ? `${words.slice(0, 150)}…` : words;
  return page(site, {
    title: `${heading} (${review.rating}★) — ${name}`,
    description: `${review.rating} out of 5 from ${review.author}, ${formatDate(review.date)}: ${excerpt}`,
    canonical: permalink(site.links, review.id),
    jsonLd: reviewJsonLd(site.links, business, review),
    business,
    main,
  });
}

/** A page for a 404 or a 400 (what is wrong, and where to go instead). */
export function problemPage(site: SiteContext, business: Business | null, title: string, explanation: string): string {
  return page(site, {
    title,
    description: explanation,
    canonical: `${site.links.baseUrl}/`,
    noindex: true,
    business,
    main: html`<h1>${title}</h1><p>${explanation}</p><p><a href="/">See every review of ${business?.name ?? 'the business'}</a>, or <a href="/#search">search them</a>.</p>`,
  });
}
