// Path items of the pages: the home page, review permalinks, the API reference, the badge and embed for the
// business's own site, and what crawlers and language models read first.
import { SearchParams } from '../reviews/search.js';
import { SERVER_CARD_PATHS } from '../reviews/links.js';
import { SITE_ROUTES } from '../site/routes.js';
import {
  cacheControl,
  conditionalParameters,
  errorContent,
  header,
  NO_STORE,
  parameterSchema,
  responseRef,
  RETRY_AFTER,
  type OpenApiObject,
} from './components.js';
import { readHeaders } from './reads.js';

const PAGE_CACHE = cacheControl('public, max-age=300');
const IMMUTABLE = cacheControl(
  'public, max-age=31536000, immutable',
  'Cached for good: the path changes with the content',
);
const SECURITY_HEADERS = {
  'Content-Security-Policy': header(
    "Nothing from another origin and no inline script; `frame-ancestors 'none'` (only /embed may be framed: `frame-ancestors *`)",
  ),
  'Referrer-Policy': header('`strict-origin-when-cross-origin`'),
  'X-Frame-Options': header('`DENY`, on every page but /embed'),
};

const NOT_FOUND: OpenApiObject = {
  description: 'No such file',
  headers: { 'Cache-Control': NO_STORE },
  content: errorContent,
};

/** A page that is HTML, with its error pages (HTML; JSON for a client that asks for JSON only). */
const problem = (description: string, headers: Record<string, OpenApiObject> = {}): OpenApiObject => ({
  description: `${description}. An HTML page saying so; a client whose Accept names JSON and not HTML gets the JSON error body.`,
  headers: { 'Cache-Control': NO_STORE, ...headers },
  content: { 'text/html': { schema: { type: 'string' } }, ...errorContent },
});

function read(
  operationId: string,
  summary: string,
  description: string,
  mediaType: string,
  options: {
    cache?: OpenApiObject;
    parameters?: OpenApiObject[];
    errors?: Record<string, OpenApiObject>;
    html?: boolean;
  } = {},
): OpenApiObject {
  return {
    get: {
      operationId,
      tags: ['pages'],
      summary,
      description,
      parameters: [...(options.parameters ?? []), ...conditionalParameters],
      responses: {
        '200': {
          description: summary,
          headers: { ...readHeaders(options.cache ?? PAGE_CACHE), ...(options.html ? SECURITY_HEADERS : {}) },
          content: { [mediaType]: { schema: { type: 'string' } } },
        },
        '304': responseRef('NotModified'),
        ...options.errors,
        '431': responseRef('RequestHeaderFieldsTooLarge'),
      },
    },
  };
}

/** The search filters `/` takes, as the search operation describes them (without its limit). */
const filterParameters = (): OpenApiObject[] =>
  Object.entries(SearchParams.shape)
    .filter(([name]) => name !== 'limit')
    .map(([name, schema]) => ({ name, in: 'query', required: false, ...parameterSchema(schema) }));

/** `/`: the newest reviews, a page at a time, or those matching the search filters. */
const homePage = (): OpenApiObject =>
  read(
    'getHomePage',
    'Home page',
    "The business, its rating with charts (rating distribution, aspects, trend), the FAQ and summary, the newest reviews 20 a page, and a search form. With search filters (those of /api/reviews/search, without `limit`) it lists the matching reviews instead. Empty filters are ignored, and so are parameters it does not know (campaign tags). The first page is made once per data version. With a filter that is not empty, a request counts against the client's search allowance (RATE_LIMIT_QUERIES_PER_MINUTE, shared with search and since).",
    'text/html',
    {
      html: true,
      parameters: [
        {
          name: 'page',
          in: 'query',
          required: false,
          description: 'Page of the listing, from 1',
          schema: { type: 'integer', minimum: 1 },
        },
        ...filterParameters(),
      ],
      errors: {
        '400': problem('A filter or the page number is invalid (the page shows the form and each problem)'),
        '404': problem('The page number is past the last page'),
        '429': problem(
          'More than RATE_LIMIT_QUERIES_PER_MINUTE searches from this client within a minute, on this page, search and since together (an IPv6 client counts by its /64)',
          { 'Retry-After': RETRY_AFTER },
        ),
      },
    },
  );

/** `/reviews/{id}`: one review's permalink. */
const reviewPage = (): OpenApiObject =>
  read(
    'getReviewPage',
    'Review page',
    "One published review: text, rating, date, technicians, services, area and the business's reply, with its schema.org `Review` as JSON-LD. The feeds' entries link here.",
    'text/html',
    {
      html: true,
      parameters: [
        {
          name: 'id',
          in: 'path',
          required: true,
          description: 'The review id',
          schema: { type: 'string', minLength: 1, maxLength: 200 },
        },
      ],
      errors: { '404': problem('No published review has this id') },
    },
  );

/** The other pages for people: the API reference, the badge and embed for the business's site, the verification rule. */
const otherPages = (): Record<string, OpenApiObject> => ({
  [SITE_ROUTES.docs]: read(
    'getApiReference',
    'API reference',
    'This description rendered for people by Swagger UI, served from this origin.',
    'text/html',
    { html: true },
  ),
  [SITE_ROUTES.badge]: read(
    'getBadge',
    'Rating badge',
    "A small SVG image of the aggregate rating and review count, for the business's own website.",
    'image/svg+xml',
    {
      cache: cacheControl('public, max-age=3600, stale-while-revalidate=86400'),
    },
  ),
  [SITE_ROUTES.embed]: read(
    'getEmbed',
    'Embeddable reviews',
    'The rating and the three newest reviews as a page to show in an iframe on another site (the only page that may be framed).',
    'text/html',
    { html: true },
  ),
  [SITE_ROUTES.verification]: read(
    'getVerificationPage',
    'How reviews are verified',
    'The verification rule explained for people, with how many reviews were received and published by source (the `verification` object of /reviews.json). The home page links here from under the rating.',
    'text/html',
    { html: true },
  ),
});

/** What crawlers and language models read first: llms.txt, robots.txt and the sitemap. */
const crawlerFiles = (): Record<string, OpenApiObject> => ({
  [SITE_ROUTES.llms]: read(
    'getLlmsTxt',
    'llms.txt',
    'A Markdown summary of the business and links to every dataset, feed, this description and the MCP endpoint (the llms.txt convention).',
    'text/markdown',
  ),
  [SITE_ROUTES.robots]: read('getRobotsTxt', 'robots.txt', "Crawling rules and the sitemap's address.", 'text/plain', {
    cache: cacheControl('public, max-age=3600'),
  }),
  [SITE_ROUTES.sitemap]: read(
    'getSitemap',
    'Sitemap',
    'The home page and every review page (sitemaps.org). Above 50,000 URLs, an index of parts, each at `?part=N`.',
    'application/xml',
    {
      parameters: [
        {
          name: 'part',
          in: 'query',
          required: false,
          description: 'A part of the sitemap, from 1, when it has an index',
          schema: { type: 'integer', minimum: 1 },
        },
      ],
      errors: { '404': NOT_FOUND },
    },
  ),
});

/** The MCP server card, under both of its names. */
const serverCards = (): Record<string, OpenApiObject> =>
  Object.fromEntries(
    SERVER_CARD_PATHS.map((path, i) => [
      path,
      read(
        i === 0 ? 'getMcpServerCard' : 'getMcpServerCardJson',
        i === 0 ? 'MCP server card' : 'MCP server card (.json name)',
        'What the MCP server at /mcp is and offers, readable without connecting (the MCP server-card extension, SEP-2127): name, version, the streamable-HTTP remote with its protocol versions, capabilities, and every tool, resource, template and prompt, as the server itself lists them. Both names serve the same card.',
        'application/json',
        { cache: cacheControl('public, max-age=3600') },
      ),
    ]),
  );

/** The stylesheets, scripts and icons the pages load. */
const assetFiles = (): OpenApiObject =>
  read(
    'getAsset',
    'Page asset',
    'Stylesheets, scripts and icons the pages load, at paths that change with their content.',
    '*/*',
    {
      cache: IMMUTABLE,
      parameters: [
        {
          name: 'file',
          in: 'path',
          required: true,
          description: 'The file name, with its content hash',
          schema: { type: 'string' },
        },
      ],
      errors: { '404': NOT_FOUND },
    },
  );

export function pagePaths(): Record<string, OpenApiObject> {
  return {
    [SITE_ROUTES.home]: homePage(),
    [SITE_ROUTES.review]: reviewPage(),
    ...otherPages(),
    ...crawlerFiles(),
    ...serverCards(),
    [SITE_ROUTES.asset]: assetFiles(),
  };
}
