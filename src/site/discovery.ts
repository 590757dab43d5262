// What crawlers and language models start from: /llms.txt (the llms.txt convention), /robots.txt and /sitemap.xml.
import type { Links } from '../reviews/links.js';
import { MCP_TOOLS, permalink, ROUTES, SERVER_CARD_PATHS } from '../reviews/links.js';
import type { PublishedReview } from '../reviews/published.js';
import type { AggregateRating, Business } from '../reviews/schemas.js';
import { formatRating, plural } from './html.js';

/** Markdown text with the characters that would start markup escaped. */
const md = (text: string) => text.replace(/([\\`*_[\]<>#|])/g, '\\$1');

/** `summary`: the insights' editorial paragraph, when built. */
export function llmsTxt(links: Links, business: Business | null, aggregate: AggregateRating, summary?: string): string {
  const b = links.baseUrl;
  const name = business?.name ?? 'Customer reviews';
  const trades = [...new Set(business?.services.map((s) => s.category) ?? [])];
  const rating =
    aggregate.ratingValue === null
      ? 'No reviews yet'
      : `Rated ${formatRating(aggregate.ratingValue)} out of 5 from ${plural(aggregate.reviewCount, 'verified customer review')}`;
  const line = [
    rating,
    trades.length ? `${trades.join(', ')} services` : '',
    business?.areaServed.length ? `serving ${business.areaServed.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const link = (title: string, path: string, note: string) => `- [${md(title)}](${b}${path}): ${note}`;
  return [
    `# ${md(name)}`,
    '',
    `> ${md(line)}.`,
    '',
    `This is the public, read-only reviews service of ${md(name)}: every review is from a verified customer, and the insights (aspect-based sentiment, technicians, services, areas, topics, FAQ, summary) are computed from the reviews offline, each figure listing the reviews behind it. Nothing needs a key. Dates are YYYY-MM-DD; lists are newest first.`,
    ...(business?.services.length ? ['', `Services: ${business.services.map((s) => md(s.name)).join(', ')}.`] : []),
    ...(business?.telephone
      ? ['', `Contact: ${md(business.telephone)}${business.email ? `, ${md(business.email)}` : ''}.`]
      : []),
    ...(summary ? ['', `What customers say, in short: ${md(summary)}`] : []),
    '',
    '## Datasets',
    '',
    link('Reviews dataset', '/reviews.json', 'the business, its aggregate rating and every verified review (JSON)'),
    link(
      'Insights dataset',
      '/insights.json',
      'aspects, entities, topics, FAQ and an editorial summary, with the review ids and quotes behind each figure (JSON)',
    ),
    '',
    '## Feeds',
    '',
    link('JSON Feed', '/api/feed.json', 'the 50 newest reviews (JSON Feed 1.1); WebSub hub at /api/websub/hub'),
    link('Atom feed', '/feed.xml', 'the 50 newest reviews (Atom)'),
    '',
    '## API',
    '',
    link(
      'OpenAPI description',
      ROUTES.openapi,
      'every operation, including search (`/api/reviews/search?query=…&rating=…`) and the since-date listing (`/api/reviews/since/{date}`)',
    ),
    link('API reference', '/docs', 'the same description, for people'),
    link(
      'MCP server',
      ROUTES.mcp,
      `Model Context Protocol over streamable HTTP for AI assistants (revisions 2026-07-28 and 2025), no key; tools ${Object.values(
        MCP_TOOLS,
      )
        .map((t) => `\`${t}\``)
        .join(', ')}`,
    ),
    link(
      'MCP server card',
      SERVER_CARD_PATHS[0],
      'what the MCP server offers, without connecting (every tool, resource, template and prompt)',
    ),
    '',
    '## Optional',
    '',
    link('Home page', '/', 'the business, its rating, charts and the newest reviews'),
    link('Sitemap', '/sitemap.xml', 'every review page'),
    '',
  ].join('\n');
}

export function robotsTxt(links: Links): string {
  return [
    '# Everything here is public. Search answers and the since listings are the datasets cut many ways: read the',
    '# datasets instead. The MCP endpoint and the WebSub hub are for their protocols.',
    'User-agent: *',
    'Allow: /',
    'Disallow: /api/reviews/',
    `Disallow: ${ROUTES.mcp}`,
    `Disallow: ${ROUTES.hub}`,
    '',
    `Sitemap: ${links.baseUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

/** URLs per sitemap file (the sitemaps.org limit is 50,000). */
export const SITEMAP_URLS = 50_000;

const xmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** How many sitemap files the home page and these reviews need. */
export const sitemapParts = (reviews: number) => Math.max(1, Math.ceil((reviews + 1) / SITEMAP_URLS));

/** The whole sitemap when it fits in one file; otherwise an index of its parts (`?part=N`). */
export function sitemap(links: Links, reviews: readonly PublishedReview[], publishedAt: string | null): string {
  const parts = sitemapParts(reviews.length);
  if (parts === 1) return sitemapPart(links, reviews, publishedAt, 1);
  const entries = Array.from(
    { length: parts },
    (_, i) => `  <sitemap><loc>${xmlEscape(`${links.baseUrl}/sitemap.xml?part=${i + 1}`)}</loc></sitemap>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    '</sitemapindex>',
    '',
  ].join('\n');
}

/** Part `part` (1-based): the home page first, then the permalinks, newest first. */
export function sitemapPart(
  links: Links,
  reviews: readonly PublishedReview[],
  publishedAt: string | null,
  part: number,
): string {
  const url = (loc: string, lastmod: string | null) =>
    `  <url><loc>${xmlEscape(loc)}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;
  // Position 0 is the home page; position i the (i-1)th review.
  const from = (part - 1) * SITEMAP_URLS;
  const to = Math.min(reviews.length + 1, part * SITEMAP_URLS);
  const entries: string[] = [];
  for (let i = from; i < to; i++) {
    const review = reviews[i - 1];
    entries.push(review ? url(permalink(links, review.id), review.updatedAt) : url(`${links.baseUrl}/`, publishedAt));
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}
