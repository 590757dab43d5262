// The API reference page: Swagger UI, from this origin's own copy, over /.well-known/openapi.json.
import { ROUTES } from '../reviews/links.js';
import type { Business } from '../reviews/schemas.js';
import type { Assets } from './assets.js';
import { html } from './html.js';

export function docsPage(assets: Assets, business: Business | null, baseUrl: string): string {
  const name = business?.name ?? 'Reviews service';
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference — ${name}</title>
<meta name="description" content="Every operation of the public reviews API of ${name}: datasets, feeds, search, MCP and WebSub.">
<link rel="canonical" href="${baseUrl}/docs">
<link rel="icon" href="${assets.paths.icon}" type="image/svg+xml">
<link rel="stylesheet" href="${assets.paths.swaggerCss}">
<link rel="stylesheet" href="${assets.paths.docsCss}">
<script src="${assets.paths.swaggerJs}" defer></script>
<script src="${assets.paths.docsJs}" defer></script>
</head>
<body>
<nav class="docs-nav" aria-label="Site"><a href="/">← ${name}</a> · <a href="${ROUTES.openapi}">OpenAPI description (JSON)</a></nav>
<div id="swagger-ui"></div>
<noscript><p>The reference needs JavaScript. The same description is at <a href="${ROUTES.openapi}">${ROUTES.openapi}</a>.</p></noscript>
</body>
</html>
`}`;
}
