// Revalidations of catalogue documents answered before Fastify's routing and hooks: a 304 for an If-None-Match or
// If-Modified-Since that matches, with the headers, metrics and log line the route would have given it. Anything
// else (a 200, a refusal, a server shutting down) goes to Fastify, which answers it as before.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Publisher } from '../publishing/publisher.js';
import { DOCUMENTS, type DocumentName } from '../reviews/catalogue.js';
import { decide, etagsOfRepresentation, notModifiedHeaders } from '../http/conditional.js';
import type { RequestMetrics, RouteSeries } from '../http/request-metrics.js';

export interface FastPathDeps {
  publisher: Publisher;
  /** The request metrics a 304 adds to, and whether the server is shutting down (then Fastify answers). */
  operations: { readonly requests: RequestMetrics; readonly isClosing: boolean };
  /** Whether a request with this Host header is answered at all (the host check's verdict). */
  hostAnswered: (host: string | undefined) => boolean;
  log: FastifyBaseLogger;
}

/** A document this path answers for, with the metric series of its route (its path: a static route). */
interface Served {
  name: DocumentName;
  get: RouteSeries;
  head: RouteSeries;
}

/**
 * Feed readers and caches mostly revalidate, and a 304 is a few headers: Fastify's request objects, hooks and
 * reply cost more than writing them (a 304 answered through Fastify was 0.53× a bare node:http server sending the
 * same bytes, at 100k reviews).
 */
export class FastRevalidation {
  private deps: FastPathDeps | undefined;
  private served = new Map<string, Served>();

  /** Starts answering (until then every request goes to Fastify). */
  enable(deps: FastPathDeps): void {
    const series = (method: string, path: string) => deps.operations.requests.series(method, path);
    this.served = new Map(
      DOCUMENTS.map((d) => [d.path, { name: d.name, get: series('GET', d.path), head: series('HEAD', d.path) }]),
    );
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
    // A request with a body goes to Fastify, whose hook refuses a large one (here it would be read and dropped).
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    const served = url === undefined ? undefined : this.served.get(url);
    if (served === undefined || deps.operations.isClosing || !deps.hostAnswered(headers.host)) return false;
    const started = performance.now();
    const rep = deps.publisher.current().representations[served.name];
    const { etag, notModified } = decide(headers, rep, etagsOfRepresentation(rep));
    if (!notModified) return false;
    response.writeHead(304, notModifiedHeaders(rep, etag)).end();
    const ms = performance.now() - started;
    (method === 'GET' ? served.get : served.head).record(304, ms / 1000);
    deps.log.info({ method, url, status: 304, ms: Math.round(ms) }, 'request');
    return true;
  }
}
