// Revalidations of catalogue documents answered before Fastify's routing and hooks: a 304 for an If-None-Match or
// If-Modified-Since that matches, with the headers, metrics and log line the route would have given it. Anything
// else (a 200, a refusal, a server shutting down) goes to Fastify, which answers it as before.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Publisher } from '../publishing/publisher.js';
import type { Representation } from '../publishing/representation.js';
import { DOCUMENTS, type DocumentName } from '../reviews/catalogue.js';
import { decide, etagsOfRepresentation } from './conditional.js';
import { EVERY_RESPONSE_HEADERS } from './cors.js';
import type { Operations } from './operations.js';

export interface FastPathDeps {
  publisher: Publisher;
  operations: Operations;
  /** Whether a request with this Host header is answered at all (the host check's verdict). */
  hostAnswered: (host: string | undefined) => boolean;
  log: FastifyBaseLogger;
}

/** The headers of a 304 for each tag of a representation, made once. */
const headersByRepresentation = new WeakMap<Representation, Map<string, Readonly<Record<string, string>>>>();

function notModifiedHeaders(rep: Representation, etag: string): Readonly<Record<string, string>> {
  let byTag = headersByRepresentation.get(rep);
  if (!byTag) headersByRepresentation.set(rep, (byTag = new Map()));
  let fields = byTag.get(etag);
  if (!fields) {
    const made: Record<string, string> = { ...EVERY_RESPONSE_HEADERS, vary: 'Accept-Encoding', etag, 'cache-control': rep.cacheControl };
    if (rep.retryAfterSeconds !== undefined) made['retry-after'] = String(rep.retryAfterSeconds);
    byTag.set(etag, (fields = made));
  }
  return fields;
}

const DOCUMENT_PATHS: ReadonlyMap<string, DocumentName> = new Map(DOCUMENTS.map((d) => [d.path, d.name]));

/**
 * Feed readers and caches mostly revalidate, and a 304 is a few headers: Fastify's request objects, hooks and
 * reply cost more than writing them (a 304 answered through Fastify was 0.53× a bare node:http server sending the
 * same bytes, at 100k reviews).
 */
export class FastRevalidation {
  private deps: FastPathDeps | undefined;

  /** Starts answering (until then every request goes to Fastify). */
  enable(deps: FastPathDeps): void {
    this.deps = deps;
  }

  /** The server's request listener: this path first, then Fastify's `handler`. */
  listener(handler: RequestListener): RequestListener {
    return (request, response) => {
      if (!this.answered(request, response)) handler(request, response);
    };
  }

  private answered(request: IncomingMessage, response: ServerResponse): boolean {
    const deps = this.deps;
    const { method, url, headers } = request;
    if (!deps || (method !== 'GET' && method !== 'HEAD')) return false;
    if (headers['if-none-match'] === undefined && headers['if-modified-since'] === undefined) return false;
    const name = url === undefined ? undefined : DOCUMENT_PATHS.get(url);
    if (name === undefined || deps.operations.isClosing || !deps.hostAnswered(headers.host)) return false;
    const started = performance.now();
    const rep = deps.publisher.current().representations[name];
    const { etag, notModified } = decide(headers, rep, etagsOfRepresentation(rep));
    if (!notModified) return false;
    response.writeHead(304, notModifiedHeaders(rep, etag)).end();
    const ms = performance.now() - started;
    deps.operations.countRequest(method, url!, 304, ms / 1000);
    deps.log.info({ method, url, status: 304, ms: Math.round(ms) }, 'request');
    return true;
  }
}
