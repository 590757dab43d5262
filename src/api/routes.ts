// The read API: the catalogue's documents, search, since and the OpenAPI description, all served from the current view.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Publisher } from '../publishing/publisher.js';
import type { Limits } from '../http/limits.js';
import { CACHE_CONTROL, encodeRepresentation, type Representation } from '../publishing/representation.js';
import type { View } from '../publishing/view.js';
import { DOCUMENTS } from '../reviews/catalogue.js';
import { ROUTES } from '../reviews/links.js';
import { searchResponse, SinceParams, type SearchResponse } from '../reviews/responses.js';
import { SearchParams, searchKey } from '../reviews/search.js';
import { sendComposed, sendRepresentation } from '../http/conditional.js';
import { notFound, sendError } from '../http/errors.js';
import { numericKeys, parseQuery } from '../http/query.js';
import { fastifyPath } from '../http/route-path.js';

const SEARCH_NUMERIC = numericKeys(SearchParams);

/** Fastify's form of a path template: `{date}` → `:date`. */
function queryRepresentation(view: View, key: string, render: () => SearchResponse): Promise<Representation> {
  return view.queries.get(key, () =>
    encodeRepresentation(JSON.stringify(render()), {
      contentType: 'application/json',
      cacheControl: CACHE_CONTROL.queries,
      lastModified: view.lastModified,
      effort: 'fast',
    }).then((rep) => ({ ...rep, lastModifiedShared: view.lastModifiedShared })),
  );
}

export interface ApiOptions {
  publisher: Publisher;
  /** The OpenAPI description, encoded once at start. */
  openapi: Representation;
  limits: Limits;
  /** The other paths served only to GET and HEAD (the pages), for the 405 answer. */
  pagePaths: readonly string[];
}

/** The read API, as a Fastify plugin. */
export const apiPlugin = fp<ApiOptions>(async (app, options) => registerReadRoutes(app, options), { name: 'api' });

function registerReadRoutes(app: FastifyInstance, { publisher, openapi, limits, pagePaths }: ApiOptions): void {
  // GET and HEAD in one route: Fastify's generated HEAD route would add Content-Length: 0 to a 304. Queries
  // (search, since) are limited per client; the documents, made once per version, are not.
  const read = (url: string, handler: (request: FastifyRequest, reply: FastifyReply) => unknown, limited = false) =>
    app.route({ method: ['GET', 'HEAD'], url: fastifyPath(url), handler, ...(limited ? limits('queries') : {}) });
  const readPaths = [...DOCUMENTS.map((d) => d.path), ROUTES.search, ROUTES.since, ROUTES.openapi, ...pagePaths];

  for (const document of DOCUMENTS) {
    read(document.path, (request, reply) =>
      sendRepresentation(request, reply, publisher.current().representations[document.name]),
    );
  }

  read(
    ROUTES.search,
    async (request: FastifyRequest, reply: FastifyReply) => {
      const parsed = parseQuery(SearchParams, SEARCH_NUMERIC, request.query as Record<string, unknown>);
      if (!parsed.ok) return sendError(reply, 'invalid_request', 'Invalid search parameters', parsed.issues);
      const params = parsed.value;
      const view = publisher.current();
      const key = `search:${searchKey(params)}`;
      const rep = await queryRepresentation(view, key, () => searchResponse(view.snapshot.index, params));
      view.queries.rememberUrl(request.url, key);
      return sendRepresentation(request, reply, rep);
    },
    true,
  );

  read(
    ROUTES.since,
    async (request: FastifyRequest, reply: FastifyReply) => {
      // The path date and the query string in one strict schema: an unknown parameter is an issue like a bad date.
      const parsed = parseQuery(SinceParams, new Set(), {
        ...(request.query as Record<string, unknown>),
        ...(request.params as { date: string }),
      });
      if (!parsed.ok) return sendError(reply, 'invalid_request', 'Invalid since request', parsed.issues);
      const view = publisher.current();
      const fields = {
        contentType: 'application/json',
        cacheControl: CACHE_CONTROL.queries,
        lastModified: view.lastModified,
        lastModifiedShared: view.lastModifiedShared,
      };
      return sendComposed(request, reply, fields, view.since.listing(parsed.value.date));
    },
    true,
  );

  read(ROUTES.openapi, (request, reply) => sendRepresentation(request, reply, openapi));

  // Decided before the body is read: a write to a read path is 405 (with Allow), anything else unknown is 404.
  const patterns = readPaths.map(
    (p) => new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
  );
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    // Answered here: a reply sent from a hook ends the request.
    const path = request.url.split('?')[0] ?? '';
    if (!patterns.some((p) => p.test(path))) return void notFound(request, reply);
    reply.header('allow', 'GET, HEAD, OPTIONS');
    void sendError(reply, 'method_not_allowed', `${request.method} is not allowed on ${path}; this API is read-only`);
  });
}
