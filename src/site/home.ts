// The home page: the business, its rating, what customers say (charts, quotes, technicians, FAQ, summary), the
// reviews with search and pagination that work without JavaScript, and how machines read all of it.
import type { InsightsDocument } from '../reviews/insights-document.js';
import {
  isWebUrl,
  type AggregateRating,
  type Business,
  type Review,
  type VerificationSummary,
} from '../reviews/schemas.js';
import { verificationStatement } from '../reviews/verification.js';
import { VERIFICATION_PATH } from './verification-page.js';
import type { SearchParams } from '../reviews/search.js';
import { aspectChart, ratingDistributionChart, trendChart, type QuarterFigures } from './charts.js';
import { formatCount, formatDate, formatRating, html, plural, type Html } from './html.js';
import { businessJsonLd } from './jsonld.js';
import { page, type SiteContext } from './layout.js';
import { reviewCard, stars } from './reviews-list.js';

/** Reviews listed per page. */
export const PAGE_SIZE = 20;

/** The filters a visitor can set in the search form (the search API's, without its limit). */
export type Filters = Omit<Partial<SearchParams>, 'limit'>;

export interface Listing {
  /** The reviews of this page, newest first. */
  reviews: readonly Review[];
  /** Reviews listed across all pages. */
  total: number;
  page: number;
  pages: number;
  /** Set when the visitor searched. */
  filters?: Filters;
  /** Problems with the filters asked for (the page is then a 400). */
  problems?: string[];
}

export interface HomeData {
  business: Business | null;
  aggregate: AggregateRating;
  verification: VerificationSummary;
  /** The insights served with this version (status 'building' before the first build). */
  insights: InsightsDocument;
  quarters: readonly QuarterFigures[];
  /** The newest reviews, for the JSON-LD. */
  newest: readonly Review[];
}

export const FILTER_NAMES = [
  'query',
  'rating',
  'min_rating',
  'since',
  'until',
  'mentions_technician',
  'mentions_service',
] as const;

/** The query string of a page of this listing (filters kept). */
export function listingHref(filters: Filters | undefined, pageNumber: number): string {
  const params = new URLSearchParams();
  for (const name of FILTER_NAMES) {
    const value = filters?.[name];
    if (value !== undefined) params.set(name, String(value));
  }
  if (pageNumber > 1) params.set('page', String(pageNumber));
  const query = params.toString();
  return query ? `/?${query}` : '/';
}

/** Whether these filters (parsed, or `/`'s raw query) ask for a search: a filter left empty in the form asks nothing. */
export function isSearch(filters: Filters | undefined): boolean {
  return !!filters && FILTER_NAMES.some((name) => filters[name] !== undefined && filters[name] !== '');
}

function businessHeader(business: Business | null): Html {
  if (!business)
    return html`<section class="business"><h1>Customer reviews</h1><p>No business has been imported yet.</p></section>`;
  const trades = [...new Set(business.services.map((s) => s.category))];
  const address =
    business.address &&
    [
      business.address.streetAddress,
      business.address.addressLocality,
      business.address.addressRegion,
      business.address.postalCode,
    ]
      .filter(Boolean)
      .join(', ');
  return html`<section class="business" aria-labelledby="business-name">
<h1 id="business-name">${business.name}</h1>
${trades.length ? html`<p class="trades">${trades.map((t) => html`<span class="trade">${t}</span>`)}</p>` : ''}
${business.description ? html`<p>${business.description}</p>` : ''}
<ul class="contact">
${business.telephone ? html`<li>Phone: <a href="tel:${business.telephone.replace(/[^+\d]/g, '')}">${business.telephone}</a></li>` : ''}
${business.email ? html`<li>Email: <a href="mailto:${business.email}">${business.email}</a></li>` : ''}
${business.url && isWebUrl(business.url) ? html`<li>Website: <a href="${business.url}" rel="noopener">${business.url.replace(/^https?:\/\//, '').replace(/\/$/, '')}</a></li>` : ''}
${address ? html`<li>Address: ${address}</li>` : ''}
</ul>
${business.areaServed.length ? html`<p class="areas">Areas served: ${business.areaServed.join(', ')}</p>` : ''}
</section>`;
}

/** Under the rating: how many reviews are shown of how many received, whatever their rating, and the rule. */
function verificationNote(verification: VerificationSummary): Html {
  return html`<p class="verification-note" id="verification-note">${verificationStatement(verification)} <a href="${VERIFICATION_PATH}">How reviews are verified</a></p>`;
}

function ratingSection(aggregate: AggregateRating, verification: VerificationSummary): Html {
  if (aggregate.ratingValue === null)
    return html`<section id="rating" aria-labelledby="rating-heading"><h2 id="rating-heading">Rating</h2><p>No reviews yet.</p>${verification.received ? verificationNote(verification) : ''}</section>`;
  return html`<section id="rating" aria-labelledby="rating-heading">
<h2 id="rating-heading">Rating</h2>
<p class="headline"><span class="rating-value" data-value="${aggregate.ratingValue}">${formatRating(aggregate.ratingValue)}</span> <span class="out-of">out of 5</span> ${stars(aggregate.ratingValue)}
<span class="review-count" data-value="${aggregate.reviewCount}">from ${plural(aggregate.reviewCount, 'verified review')}</span></p>
${verificationNote(verification)}
${ratingDistributionChart(aggregate)}
</section>`;
}

function summarySection(insights: InsightsDocument): Html {
  if (insights.status !== 'ready' || !insights.summary.text) return html``;
  return html`<section id="summary" aria-labelledby="summary-heading">
<h2 id="summary-heading">In short</h2>
<p>${insights.summary.text}</p>
<p class="note">Written from the figures on this page, as of ${insights.asOf ? formatDate(insights.asOf.slice(0, 10)) : 'the last import'}.</p>
</section>`;
}

function quoteList(
  quotes: InsightsDocument['aspects'][number]['quotes']['positive'],
  kind: 'positive' | 'negative',
): Html {
  if (!quotes.length) return html``;
  return html`<h3>${kind === 'positive' ? 'Praise' : 'Criticism'}</h3>
<ul class="quotes ${kind}">${quotes.map(
    (q) =>
      html`<li><blockquote>“${q.text}”</blockquote> <a href="/reviews/${encodeURIComponent(q.reviewId)}">${q.rating}★, ${formatDate(q.date)}</a></li>`,
  )}</ul>`;
}

function aspectsSection(insights: InsightsDocument): Html {
  const aspects = insights.aspects.filter((a) => a.mentions > 0);
  if (!aspects.length) {
    return html`<section id="aspects" aria-labelledby="aspects-heading"><h2 id="aspects-heading">What customers say</h2><p>${insights.status === 'building' ? 'The analysis of the reviews is being built; it appears here shortly.' : 'Not enough reviews judge the work yet.'}</p></section>`;
  }
  return html`<section id="aspects" aria-labelledby="aspects-heading">
<h2 id="aspects-heading">What customers say</h2>
${aspectChart(aspects)}
<p class="note">Open an aspect for the words customers used.</p>
${aspects.map(
  (
    a,
  ) => html`<details class="aspect-quotes" id="aspect-${a.id}"><summary>${a.label}: ${a.positive} praise, ${a.negative} criticise (${plural(a.mentions, 'review')})</summary>
${quoteList(a.quotes.positive, 'positive')}${quoteList(a.quotes.negative, 'negative')}
<p><a href="/insights.json">Every review counted is listed in the insights dataset.</a></p>
</details>`,
)}
</section>`;
}

function trendSection(quarters: readonly QuarterFigures[]): Html {
  if (!quarters.length) return html``;
  return html`<section id="trend" aria-labelledby="trend-heading"><h2 id="trend-heading">Over time</h2>${trendChart(quarters)}</section>`;
}

function techniciansSection(insights: InsightsDocument): Html {
  const named = [...insights.entities.technicians]
    .sort((a, b) => b.mentions - a.mentions || a.name.localeCompare(b.name))
    .slice(0, 6);
  if (!named.length) return html``;
  return html`<section id="technicians" aria-labelledby="technicians-heading">
<h2 id="technicians-heading">Technicians customers name most</h2>
<ul class="technicians">${named.map(
    (t) =>
      html`<li><a href="${listingHref({ mentions_technician: t.name }, 1)}#reviews">${t.name}</a> <span>${plural(t.mentions, 'review')}, ${formatRating(t.averageRating)} ★ on average</span></li>`,
  )}</ul>
</section>`;
}

function faqSection(insights: InsightsDocument): Html {
  if (!insights.faq.length) return html``;
  return html`<section id="faq" aria-labelledby="faq-heading">
<h2 id="faq-heading">Questions customers ask</h2>
${insights.faq.map((item) => html`<details><summary>${item.question}</summary><p>${item.answer}</p></details>`)}
</section>`;
}

function option(value: string, label: string, selected: string | undefined): Html {
  return html`<option value="${value}"${selected === value ? html` selected` : ''}>${label}</option>`;
}

function searchForm(business: Business | null, filters: Filters | undefined): Html {
  const f = filters ?? {};
  return html`<form id="search" method="get" action="/" role="search" aria-label="Search the reviews">
<div class="field wide"><label for="q">Words in the review</label><input id="q" name="query" type="search" value="${f.query ?? ''}" maxlength="200" placeholder="e.g. water heater"></div>
<div class="field"><label for="stars">Stars</label><select id="stars" name="rating">${option('', 'Any', undefined)}${[5, 4, 3, 2, 1].map((r) => option(String(r), `${r} stars`, f.rating === undefined ? undefined : String(f.rating)))}</select></div>
<div class="field"><label for="tech">Technician</label><select id="tech" name="mentions_technician">${option('', 'Any', undefined)}${(business?.technicians ?? []).map((t) => option(t.name, t.name, f.mentions_technician))}</select></div>
<div class="field"><label for="service">Service</label><select id="service" name="mentions_service">${option('', 'Any', undefined)}${(business?.services ?? []).map((s) => option(s.id, s.name, f.mentions_service))}</select></div>
<div class="field"><label for="since">From</label><input id="since" name="since" type="date" value="${f.since ?? ''}"></div>
<div class="field"><label for="until">To</label><input id="until" name="until" type="date" value="${f.until ?? ''}"></div>
${f.min_rating !== undefined ? html`<input type="hidden" name="min_rating" value="${f.min_rating}">` : ''}
<div class="actions"><button type="submit">Search</button>${isSearch(filters) ? html` <a href="/#reviews">Clear</a>` : ''}</div>
</form>`;
}

function summaryLine(listing: Listing): string {
  if (listing.problems) return 'The search could not be run: see the problems above.';
  if (isSearch(listing.filters)) {
    if (listing.total === 0) return 'No review matches this search.';
    const first = (listing.page - 1) * PAGE_SIZE + 1;
    const range =
      listing.total > PAGE_SIZE
        ? `, showing ${formatCount(first)}–${formatCount(first + listing.reviews.length - 1)}`
        : '';
    return `${plural(listing.total, 'review')} ${listing.total === 1 ? 'matches' : 'match'}${range}, newest first.`;
  }
  if (listing.total === 0) return 'No reviews yet.';
  const first = (listing.page - 1) * PAGE_SIZE + 1;
  return `Showing ${formatCount(first)}–${formatCount(first + listing.reviews.length - 1)} of ${plural(listing.total, 'review')}, newest first.`;
}

function pagination(listing: Listing): Html {
  if (listing.pages <= 1) return html``;
  const { page: n, pages } = listing;
  return html`<nav class="pagination" aria-label="Pages of reviews">
${n > 1 ? html`<a rel="prev" href="${listingHref(listing.filters, n - 1)}#reviews">← Newer</a>` : html`<span class="disabled">← Newer</span>`}
<span class="position">Page ${formatCount(n)} of ${formatCount(pages)}</span>
${n < pages ? html`<a rel="next" href="${listingHref(listing.filters, n + 1)}#reviews">Older →</a>` : html`<span class="disabled">Older →</span>`}
</nav>`;
}

function reviewsSection(business: Business | null, listing: Listing): Html {
  return html`<section id="reviews" aria-labelledby="reviews-heading">
<h2 id="reviews-heading">${isSearch(listing.filters) ? 'Search results' : 'Newest reviews'}</h2>
${searchForm(business, listing.filters)}
${listing.problems ? html`<div class="problems" role="alert"><p>Please correct the search:</p><ul>${listing.problems.map((p) => html`<li>${p}</li>`)}</ul></div>` : ''}
<p id="results-summary" aria-live="polite">${summaryLine(listing)}</p>
<ol class="review-list">${listing.reviews.map((r) => html`<li>${reviewCard(business, r)}</li>`)}</ol>
${pagination(listing)}
</section>`;
}

function machinesSection(site: SiteContext): Html {
  const mcp = `${site.links.baseUrl}/mcp`;
  return html`<section id="for-machines" aria-labelledby="machines-heading">
<h2 id="machines-heading">For programs and assistants</h2>
<p>Everything on this page is open data, free to read without a key:</p>
<ul class="links">
<li><a href="/reviews.json">/reviews.json</a>: the business and every verified review</li>
<li><a href="/insights.json">/insights.json</a>: aspects, technicians, services, areas, topics, FAQ and summary, each figure with the reviews behind it</li>
<li><a href="/api/feed.json">JSON Feed</a> and <a href="/feed.xml">Atom feed</a> of the newest reviews, pushed to subscribers over WebSub</li>
<li><a href="/.well-known/openapi.json">OpenAPI 3.1 description</a> and the <a href="/docs">API reference</a>, including search</li>
<li><a href="/llms.txt">/llms.txt</a>: a summary for language models</li>
</ul>
<p>Connect an AI assistant: add <code>${mcp}</code> as a remote MCP server (streamable HTTP, no key), e.g. <code>claude mcp add --transport http reviews ${mcp}</code>. Its <a href="/.well-known/mcp/server-card">server card</a> lists every tool.</p>
</section>`;
}

function embedSection(site: SiteContext, business: Business | null, aggregate: AggregateRating): Html {
  const base = site.links.baseUrl;
  const name = business?.name ?? 'our customers';
  const alt =
    aggregate.ratingValue === null
      ? 'Customer reviews'
      : `Rated ${formatRating(aggregate.ratingValue)} out of 5 from ${plural(aggregate.reviewCount, 'review')}`;
  const snippet = `<a href="${base}/"><img src="${base}/badge.svg" alt="${alt}" height="28"></a>\n<iframe src="${base}/embed" title="Reviews of ${name}" width="100%" height="420" style="border:0;max-width:480px" loading="lazy"></iframe>`;
  return html`<section id="embed" aria-labelledby="embed-heading">
<h2 id="embed-heading">Show these reviews on your website</h2>
<p>Paste this where the badge and the newest reviews should appear; they stay up to date by themselves.</p>
<p><img src="/badge.svg" alt="${alt}" height="28"></p>
<pre><code id="embed-snippet">${snippet}</code></pre>
</section>`;
}

export function homePage(site: SiteContext, data: HomeData, listing: Listing): string {
  const { business, aggregate, insights } = data;
  const name = business?.name ?? 'Customer reviews';
  const searching = isSearch(listing.filters) || listing.problems !== undefined;
  const full = !searching && listing.page === 1;
  const rating =
    aggregate.ratingValue === null
      ? ''
      : `Rated ${formatRating(aggregate.ratingValue)} out of 5 from ${plural(aggregate.reviewCount, 'verified review')}. `;
  const main = full
    ? html`${businessHeader(business)}${ratingSection(aggregate, data.verification)}${summarySection(insights)}${aspectsSection(insights)}${trendSection(data.quarters)}${techniciansSection(insights)}${faqSection(insights)}${reviewsSection(business, listing)}${machinesSection(site)}${embedSection(site, business, aggregate)}`
    : html`<p class="back"><a href="/">← ${name}</a></p><h1>${name}: ${searching ? 'search the reviews' : `reviews, page ${listing.page}`}</h1>${reviewsSection(business, listing)}`;
  return page(site, {
    title: full
      ? `${name}: customer reviews`
      : searching
        ? `Search: ${name} reviews`
        : `${name}: reviews, page ${listing.page}`,
    description: `${rating}What customers of ${name} say about ${[...new Set(business?.services.map((s) => s.name) ?? [])].slice(0, 4).join(', ') || 'the work'}.`,
    canonical: `${site.links.baseUrl}${full ? '/' : listingHref(listing.filters, listing.page)}`,
    jsonLd: full ? businessJsonLd(site.links, business, aggregate, data.newest) : undefined,
    script: true,
    noindex: searching,
    business,
    main,
  });
}
