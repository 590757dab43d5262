// The read API: datasets, feeds, search, since and the OpenAPI description, all served from the current snapshot.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CACHE_CONTROL, type Published, type Publisher } from '../publisher.js';
import { paths, toPublic } from '../reviews/documents.js';
import { SinceParams } from '../reviews/responses.js';
import { SearchParams, searchKey } from '../reviews/search.js';
import type { DocumentName } from '../reviews/snapshot.js';
import { sendError } from './errors.js';
import { numericKeys, parseQuery, toIssues } from './query.js';
import { encodeRepresentation, sendRepresentation, type Representation } from './representation.js';

const DOCUMENT_PATHS: Record<DocumentName, string> = {
  reviews: paths.reviews,
  insights: paths.insights,
  jsonFeed: paths.jsonFeed,
  atomFeed: paths.atomFeed,
};

const SEARCH_NUMERIC = numericKeys(SearchParams);

function queryRepresentation(published: Published, key: string, render: () => unknown): Promise<Representation> {
  return published.queries.get(key, () =>
    encodeRepresentation(JSON.stringify(render()), {
      contentType: 'application/json',
      cacheControl: CACHE_CONTROL.queries,
      lastModified: published.lastModified,
      effort: 'fast',
    }),
  );
}

export function registerReadRoutes(app: FastifyInstance, publisher: Publisher, openapi: Representation): void {
  // GET and HEAD in one route: Fastify's generated HEAD route would add Content-Length: 0 to a 304.
  const read = (url: string, handler: (request: FastifyRequest, reply: FastifyReply) => unknown) =>
    app.route({ method: ['GET', 'HEAD'], url, handler });
  const readPaths = [...Object.values(DOCUMENT_PATHS), '/api/reviews/search', '/api/reviews/since/:date', paths.openapi];

  for (const [name, path] of Object.entries(DOCUMENT_PATHS) as [DocumentName, string][]) {
    read(path, (request, reply) => sendRepresentation(request, reply, publisher.current().representations[name]));
  }

  read('/api/reviews/search', async (request: FastifyRequest, reply: FastifyReply) => {
    const parsed = parseQuery(SearchParams, SEARCH_NUMERIC, request.query as Record<string, unknown>);
    if (!parsed.ok) return sendError(reply, 'invalid_request', 'Invalid search parameters', parsed.issues);
    const params = parsed.value;
    const published = publisher.current();
    const key = `search:${searchKey(params)}`;
    const rep = await queryRepresentation(published, key, () => {
      const result = published.snapshot.index.search(params);
      return { count: result.count, total: result.total, reviews: result.reviews.map(toPublic) };
    });
    return sendRepresentation(request, reply, rep);
  });

  read('/api/reviews/since/:date', async (request: FastifyRequest, reply: FastifyReply) => {
    const unknown = Object.keys(request.query as object);
    const parsed = SinceParams.safeParse({ date: (request.params as { date: string }).date });
    const issues = [
      ...(parsed.success ? [] : toIssues(parsed.error)),
      ...unknown.map((k) => ({ path: [k], message: `unknown parameter: ${k}`, code: 'unrecognized_keys' })),
    ];
    if (!parsed.success || issues.length) return sendError(reply, 'invalid_request', 'Invalid since request', issues);
    const since = parsed.data.date;
    const published = publisher.current();
    const rep = await queryRepresentation(published, `since:${since}`, () => {
      const reviews = published.snapshot.index.since(since);
      return { since, count: reviews.length, reviews: reviews.map(toPublic) };
    });
    return sendRepresentation(request, reply, rep);
  });

  read(paths.openapi, (request, reply) => sendRepresentation(request, reply, openapi));

  // Decided before the body is read: a write to a read path is 405 (with Allow), anything else unknown is 404.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404) return;
    const path = request.url.split('?')[0] ?? '';
    const known = readPaths.some((p) => (p.endsWith(':date') ? new RegExp(`^${p.slice(0, -5)}[^/]+$`).test(path) : p === path));
    if (!known) return sendError(reply, 'not_found', `Nothing at ${request.method} ${path}; the API is described at ${paths.openapi}`);
    reply.header('allow', 'GET, HEAD, OPTIONS');
    return sendError(reply, 'method_not_allowed', `${request.method} is not allowed on ${path}; this API is read-only`);
  });
}
