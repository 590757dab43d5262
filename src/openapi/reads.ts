// Path items of the read API: the public documents (from the catalogue), search, since and this description.
import { CACHE_CONTROL } from '../publishing/representation.js';
import type { DocumentName, PublicDocument } from '../reviews/catalogue.js';
import { ROUTES } from '../reviews/links.js';
import { SinceParams } from '../reviews/responses.js';
import { SearchParams } from '../reviews/search.js';
import { numericKeys, parseQuery, toIssues } from '../http/query.js';
import {
  cacheControl,
  conditionalParameters,
  errorContent,
  header,
  headerRef,
  NO_STORE,
  parameterSchema,
  pascalCase,
  responseRef,
  schemaRef,
  type OpenApiObject,
} from './components.js';
import type { Examples } from './examples.js';

const SEARCH_PATH = ROUTES.search;
const SINCE_PATH = ROUTES.since;

/** Headers of a 200 read: the validators and the caching policy it is served with. */
export function readHeaders(policy: OpenApiObject, lastModified = true): OpenApiObject {
  return {
    ETag: headerRef('ETag'),
    ...(lastModified ? { 'Last-Modified': headerRef('LastModified') } : {}),
    'Cache-Control': policy,
    Vary: headerRef('Vary'),
    'Content-Encoding': headerRef('ContentEncoding'),
  };
}

/**
 * What a document's 200 says beyond the common headers. /insights.json answers 200 even before its first build
 * (status "building", empty sections), and then tells the client when to come back instead of caching it.
 */
const BUILDING_HEADERS: Partial<Record<DocumentName, (policy: string) => OpenApiObject>> = {
  insights: (policy) => ({
    'Cache-Control': cacheControl(
      policy,
      `\`${policy}\`; \`no-store\` while \`status\` is \`building\` and no insights were ever built for this store`,
    ),
    'Retry-After': header(
      'Only while `status` is `building` and no insights were ever built for this store: seconds after which to ask again',
      { type: 'integer', minimum: 0 },
    ),
  }),
};

function documentPathItem(doc: PublicDocument, examples: Examples): OpenApiObject {
  const topic = doc.topic ? ' A WebSub topic: subscribe at the hub to have every change pushed.' : '';
  return {
    get: {
      operationId: `get${pascalCase(doc.name)}`,
      tags: [doc.kind === 'dataset' ? 'datasets' : 'feeds'],
      summary: doc.title,
      description: `${doc.description}${topic}`,
      parameters: conditionalParameters,
      responses: {
        '200': {
          description: 'The document',
          headers: {
            ...readHeaders(cacheControl(doc.cacheControl)),
            ...BUILDING_HEADERS[doc.name]?.(doc.cacheControl),
          },
          content: { [doc.mediaType]: { schema: schemaRef(doc.schemaName), examples: examples.documents[doc.name] } },
        },
        '304': responseRef('NotModified'),
        '431': responseRef('RequestHeaderFieldsTooLarge'),
      },
    },
  };
}

const invalid = (description: string, value: unknown) => ({
  description,
  headers: { 'Cache-Control': NO_STORE },
  content: { 'application/json': { ...errorContent['application/json'], example: value } },
});

function searchPathItem(examples: Examples): OpenApiObject {
  const parameterExamples: Record<string, unknown> = {
    rating: 5,
    min_rating: 3.5,
    since: '2025-01-01',
    until: '2025-12-31',
    query: 'water heater',
    mentions_technician: examples.technicianFirstName.toLowerCase(),
    mentions_service: examples.serviceId,
    limit: 20,
  };
  const parameters = Object.entries(SearchParams.shape).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    ...parameterSchema(schema),
    ...(name in parameterExamples ? { example: parameterExamples[name] } : {}),
  }));
  // The example 400 is what the real parser says about rating=9.
  const refused = parseQuery(SearchParams, numericKeys(SearchParams), { rating: '9' });
  return {
    get: {
      operationId: 'searchReviews',
      tags: ['search'],
      summary: 'Search reviews',
      description:
        'All filters combine with AND; results are newest first (date descending, then id descending). A repeated or unknown parameter, a number written other than as a plain decimal, an impossible date or `since` after `until` is 400. The HTTP twin of the MCP tool `search_reviews`.',
      parameters: [...parameters, ...conditionalParameters],
      responses: {
        '200': {
          description: 'Matching reviews: `count` returned, `total` matched before the limit',
          headers: readHeaders(cacheControl(CACHE_CONTROL.queries)),
          content: { 'application/json': { schema: schemaRef('SearchResponse'), example: examples.search } },
        },
        '304': responseRef('NotModified'),
        '400': invalid('Invalid query parameters; `issues` names each problem', {
          error: 'invalid_request',
          message: 'Invalid search parameters',
          issues: refused.ok ? [] : refused.issues,
        }),
        '429': responseRef('TooManyQueries'),
        '431': responseRef('RequestHeaderFieldsTooLarge'),
      },
    },
  };
}

function sincePathItem(examples: Examples): OpenApiObject {
  const refused = SinceParams.safeParse({ date: '2025-02-30' });
  return {
    get: {
      operationId: 'getReviewsSince',
      tags: ['search'],
      summary: 'Reviews dated on or after a date',
      description:
        'Every verified review dated on or after the path date, newest first. Takes no query parameters: any is 400.',
      parameters: [
        {
          name: 'date',
          in: 'path',
          required: true,
          ...parameterSchema(SinceParams.shape.date),
          example: examples.since.since,
        },
        ...conditionalParameters,
      ],
      responses: {
        '200': {
          description: 'The reviews, newest first',
          headers: readHeaders(cacheControl(CACHE_CONTROL.queries)),
          content: { 'application/json': { schema: schemaRef('SinceResponse'), example: examples.since } },
        },
        '304': responseRef('NotModified'),
        '400': {
          description:
            'Malformed or impossible date, or a query parameter (`issues` names each), or a path segment that is not valid percent-encoding',
          headers: { 'Cache-Control': header('`no-store`') },
          content: {
            'application/json': {
              schema: schemaRef('ErrorBody'),
              example: {
                error: 'invalid_request',
                message: 'Invalid since request',
                issues: refused.success ? [] : toIssues(refused.error),
              },
            },
          },
        },
        '414': {
          description: 'URI Too Long: the date segment is longer than 200 characters',
          headers: { 'Cache-Control': header('`no-store`') },
          content: {
            'application/json': {
              schema: schemaRef('ErrorBody'),
              example: { error: 'uri_too_long', message: 'A path segment is longer than any this API accepts' },
            },
          },
        },
        '429': responseRef('TooManyQueries'),
        '431': responseRef('RequestHeaderFieldsTooLarge'),
      },
    },
  };
}

function openapiPathItem(): OpenApiObject {
  return {
    get: {
      operationId: 'getOpenApiDocument',
      tags: ['meta'],
      summary: 'This description',
      description: 'The OpenAPI 3.1.0 description of the whole service, fixed for the life of the process.',
      parameters: conditionalParameters,
      responses: {
        '200': {
          description: 'The OpenAPI 3.1.0 document',
          headers: readHeaders(cacheControl(CACHE_CONTROL.static), false),
          content: { 'application/json': { schema: schemaRef('OpenApiDocument') } },
        },
        '304': responseRef('NotModified'),
        '431': responseRef('RequestHeaderFieldsTooLarge'),
      },
    },
  };
}

export function readPaths(documents: readonly PublicDocument[], examples: Examples): Record<string, OpenApiObject> {
  return {
    ...Object.fromEntries(documents.map((doc) => [doc.path, documentPathItem(doc, examples)])),
    [SEARCH_PATH]: searchPathItem(examples),
    [SINCE_PATH]: sincePathItem(examples),
    [ROUTES.openapi]: openapiPathItem(),
  };
}
