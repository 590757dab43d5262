// The shell every page shares: head (stylesheet, feeds, canonical link, JSON-LD), header, footer.
import type { Business } from '../reviews/schemas.js';
import type { Links } from '../reviews/links.js';
import { html, jsonScript, type Html } from './html.js';

/** The stylesheet, script and icon, at content-hashed paths (cached for good by browsers). */
export interface AssetPaths {
  css: string;
  js: string;
  icon: string;
}

export interface SiteContext {
  links: Links;
  assets: AssetPaths;
}

export interface PageParts {
  title: string;
  description: string;
  /** Absolute URL of this page. */
  canonical: string;
  jsonLd?: unknown;
  /** The page has its own script (the home page's search); other pages load none. */
  script?: boolean;
  /** Search engines should not index it (error pages, search results). */
  noindex?: boolean;
  business: Business | null;
  main: Html;
  /** The embed: no site header or footer. */
  bare?: boolean;
}

export function page(site: SiteContext, parts: PageParts): string {
  const name = parts.business?.name ?? 'Customer reviews';
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${parts.title}</title>
<meta name="description" content="${parts.description}">
${parts.noindex ? html`<meta name="robots" content="noindex">` : ''}
<meta name="color-scheme" content="light dark">
<link rel="canonical" href="${parts.canonical}">
<link rel="icon" href="${site.assets.icon}" type="image/svg+xml">
<link rel="stylesheet" href="${site.assets.css}">
<link rel="alternate" type="application/atom+xml" title="${name}: newest reviews (Atom)" href="/feed.xml">
<link rel="alternate" type="application/feed+json" title="${name}: newest reviews (JSON Feed)" href="/api/feed.json">
<link rel="alternate" type="application/json" title="Reviews dataset" href="/reviews.json">
<link rel="describedby" type="application/openapi+json" href="/.well-known/openapi.json">
<link rel="help" type="text/markdown" href="/llms.txt">
${parts.script ? html`<script src="${site.assets.js}" defer></script>` : ''}
${parts.jsonLd ? jsonScript(parts.jsonLd) : ''}
</head>
<body${parts.bare ? html` class="bare"` : ''}>
${
  parts.bare
    ? parts.main
    : html`<a class="skip" href="#main">Skip to content</a>
<header class="site"><a class="home" href="/">${name}</a> <span class="tagline">Verified customer reviews</span></header>
<main id="main">
${parts.main}
</main>
<footer class="site">
<p>Every review here is from a verified customer. The figures are computed from the reviews themselves, and each names the reviews behind it.</p>
<p><a href="/reviews.json">Reviews dataset</a> · <a href="/insights.json">Insights</a> · <a href="/feed.xml">Atom</a> · <a href="/api/feed.json">JSON Feed</a> · <a href="/docs">API reference</a> · <a href="/llms.txt">llms.txt</a></p>
</footer>`
}
</body>
</html>
`}`;
}
