// The OpenAPI 3.1.0 description, generated from the same Zod schemas that validate requests and type responses.
import { z } from 'zod';
import { documentNamed } from '../reviews/catalogue.js';
import { InsightsDocument } from '../reviews/insights-document.js';
import { ROUTES } from '../reviews/links.js';
import { SearchResponse, SinceParams, SinceResponse } from '../reviews/responses.js';
import {
  AggregateRating,
  Business,
  JsonFeedDocument,
  Review,
  ReviewsDataset,
} from '../reviews/schemas.js';
import { SearchParams } from '../reviews/search.js';
import { ErrorBody } from './errors.js';

type JsonSchema = Record<string, unknown>;

const paths = {
  reviews: documentNamed('reviews').path,
  insights: documentNamed('insights').path,
  jsonFeed: documentNamed('jsonFeed').path,
  atomFeed: documentNamed('atomFeed').path,
  openapi: ROUTES.openapi,
};

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function withoutMeta(schema: JsonSchema): JsonSchema {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const components: Record<string, z.ZodType> = {
    Review, Business, AggregateRating, ReviewsDataset, SearchResponse, SinceResponse, ErrorBody,
    JsonFeed: JsonFeedDocument, Insights: InsightsDocument,
  };
  for (const [id, schema] of Object.entries(components)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, io: 'output' });
  return Object.fromEntries(Object.entries(schemas).map(([id, s]) => [id, withoutMeta(s as JsonSchema)]));
}

function parameterSchema(schema: z.ZodType): { schema: JsonSchema; description?: string } {
  const json = withoutMeta(z.toJSONSchema(schema, { io: 'output' }) as JsonSchema);
  const { description, ...rest } = json as { description?: string } & JsonSchema;
  return description ? { schema: rest, description } : { schema: rest };
}

const header = (description: string, schema: JsonSchema = { type: 'string' }) => ({ description, schema });

const cachingHeaders = {
  ETag: header('Strong validator, distinct per content-coding'),
  'Last-Modified': header('When the published data last changed'),
  'Cache-Control': header('Caching policy'),
  Vary: header('Always Accept-Encoding'),
  'Content-Encoding': header('br or gzip when negotiated from Accept-Encoding; absent for identity'),
};

const notModified = {
  description: 'Not Modified: the If-None-Match (or, without it, If-Modified-Since) validator matches; no body',
  headers: { ETag: cachingHeaders.ETag, 'Cache-Control': cachingHeaders['Cache-Control'], Vary: cachingHeaders.Vary },
};

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ref('ErrorBody') } } });

const conditionalParameters = [
  { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'ETags from earlier responses, or *; weak comparison' },
  { name: 'If-Modified-Since', in: 'header', required: false, schema: { type: 'string' }, description: 'HTTP-date; ignored when If-None-Match is present' },
  { name: 'Accept-Encoding', in: 'header', required: false, schema: { type: 'string' }, description: 'br and gzip are offered; q-values honoured' },
];

function document(summary: string, description: string, contentType: string, schema: JsonSchema) {
  return {
    get: {
      summary,
      description,
      parameters: conditionalParameters,
      responses: {
        '200': { description: 'OK', headers: cachingHeaders, content: { [contentType]: { schema } } },
        '304': notModified,
      },
    },
  };
}

export function buildOpenApiDocument(baseUrl: string): object {
  const searchParameters = Object.entries(SearchParams.shape).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    ...parameterSchema(schema),
  }));
  const sinceDate = parameterSchema(SinceParams.shape.date);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Reviews service',
      version: '1.0.0',
      description:
        'Public, read-only verified customer reviews of one home-services business, with sentiment insights, feeds, search, an MCP server and a WebSub hub. No authentication; an Authorization header is ignored. Every error body is { error, message, issues? }.',
    },
    servers: [{ url: baseUrl }],
    paths: {
      [paths.reviews]: document('Reviews dataset', 'Business metadata, aggregate rating and every verified review, newest first.', 'application/json', ref('ReviewsDataset')),
      [paths.insights]: document('Insights dataset', 'Aspect-based sentiment, entities, topics, FAQ and summary computed from the reviews.', 'application/json', ref('Insights')),
      [paths.jsonFeed]: document('JSON Feed 1.1', 'The 50 newest reviews. WebSub topic.', 'application/feed+json', ref('JsonFeed')),
      [paths.atomFeed]: document('Atom feed', 'The 50 newest reviews as an RFC 4287 Atom feed. WebSub topic.', 'application/atom+xml', { type: 'string' }),
      '/api/reviews/search': {
        get: {
          summary: 'Search reviews',
          description:
            'All filters combine with AND; results are newest first (date descending, then id descending). A repeated or unknown parameter is an error.',
          parameters: [...searchParameters, ...conditionalParameters],
          responses: {
            '200': { description: 'OK', headers: cachingHeaders, content: { 'application/json': { schema: ref('SearchResponse') } } },
            '304': notModified,
            '400': errorResponse('Invalid query parameters; `issues` names each'),
          },
        },
      },
      '/api/reviews/since/{date}': {
        get: {
          summary: 'Reviews dated on or after a date',
          description: 'Every verified review dated on or after the path date, newest first. Takes no query parameters.',
          parameters: [{ name: 'date', in: 'path', required: true, ...sinceDate }, ...conditionalParameters],
          responses: {
            '200': { description: 'OK', headers: cachingHeaders, content: { 'application/json': { schema: ref('SinceResponse') } } },
            '304': notModified,
            '400': errorResponse('Malformed or impossible date, or a query parameter; `issues` names each'),
          },
        },
      },
      [paths.openapi]: {
        get: {
          summary: 'This description',
          responses: { '200': { description: 'OpenAPI 3.1.0 document', content: { 'application/json': { schema: { type: 'object' } } } }, '304': notModified },
        },
      },
    },
    components: { schemas: componentSchemas() },
  };
}
