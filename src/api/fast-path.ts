// Requests answered before Fastify's routing and hooks, with the headers, metrics, limits and log line the route
// would have given them: a revalidation of a catalogue document that matches (304), a search whose answer this
// version already made, for a URL the route has seen, and a small POST a transport answers from its body (MCP's
// tools/call and lists; see EarlyPost). Anything else (a first search, a refusal, a 200 of a document, a server
// shutting down) goes to Fastify, which answers it as before.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Publisher } from '../publishing/publisher.js';
import type { Representation } from '../publishing/representation.js';
import { DOCUMENTS, type DocumentName } from '../reviews/catalogue.js';
import { ROUTES } from '../reviews/links.js';
import { bodyOfParts, decide, etagsOfRepresentation, notModifiedHeaders, okHeaders } from '../http/conditional.js';
import type { Limits } from '../http/limits.js';
import { EVERY_RESPONSE_HEADERS } from '../http/cors.js';
import { EARLY_BODY_MAX_BYTES, keepEarlyBody, type EarlyPost } from '../http/early-post.js';
import type { RequestMetrics, RouteSeries } from '../http/request-metrics.js';

export interface FastPathDeps {
  publisher: Publisher;
  /** The request metrics an answer adds to, and whether the server is shutting down (then Fastify answers). */
  operations: { readonly requests: RequestMetrics; readonly isClosing: boolean };
  /** Whether a request with this Host header is answered at all (the host check's verdict). */
  hostAnswered: (host: string | undefined) => boolean;
  limits: Limits;
  /**
   * The key a client is counted by, from the connection's address; undefined when the address a limit counts comes
   * from X-Forwarded-For (behind trusted proxies): then every search goes to Fastify, which reads it.
   */
  clientKey: ((address: string) => string) | undefined;
  log: FastifyBaseLogger;
}

/** The metric series of one route (a static path), by method. */
interface Series {
  get: RouteSeries;
  head: RouteSeries;
}

/**
 * Feed readers and caches mostly revalidate, and a 304 is a few headers; a repeated search is an answer already
 * encoded. Fastify's request objects, hooks and reply cost more than writing them: a 304 answered through Fastify
 * was 0.53× a bare node:http server sending the same bytes, and a cached search 0.25×, at 100k reviews.
 */
export class FastPath {
  private deps: FastPathDeps | undefined;
  private documents = new Map<string, { name: DocumentName } & Series>();
  private search: Series | undefined;
  private readonly posts = new Map<string, { answer: EarlyPost; series: RouteSeries }>();

  /** Starts answering (until then every request goes to Fastify). */
  enable(deps: FastPathDeps): void {
    const series = (path: string): Series => ({
      get: deps.operations.requests.series('GET', path),
      head: deps.operations.requests.series('HEAD', path),
    });
    this.documents = new Map(DOCUMENTS.map((d) => [d.path, { name: d.name, ...series(d.path) }]));
    this.search = series(ROUTES.search);
    this.deps = deps;
  }

  /** POSTs to `path` (exactly) are offered to `answer` once their body is read; after `enable`. */
  answerPosts(path: string, answer: EarlyPost): void {
    this.posts.set(path, { answer, series: this.deps!.operations.requests.series('POST', path) });
  }

  /** The server's request listener: this path first, then Fastify's `handler`. */
  listener(handler: RequestListener): RequestListener {
    return (request, response) => {
      if (request.method === 'POST') this.post(request, response, handler);
      else if (!this.answered(request, response)) handler(request, response);
    };
  }

  /**
   * A POST with a small body of stated length, to a path with an early answer, is read here and offered to it;
   * declined (or failing), it goes to Fastify with the bytes read, which its route's scope replays.
   */
  private post(request: IncomingMessage, response: ServerResponse, handler: RequestListener): void {
    const deps = this.deps;
    const post = request.url === undefined ? undefined : this.posts.get(request.url);
    const { headers } = request;
    if (
      !deps ||
      !post ||
      !(Number(headers['content-length']) <= EARLY_BODY_MAX_BYTES) ||
      headers['transfer-encoding'] !== undefined ||
      headers.expect !== undefined ||
      deps.operations.isClosing ||
      !deps.hostAnswered(headers.host)
    )
      return handler(request, response);
    const client = deps.clientKey?.(request.socket.remoteAddress ?? '');
    if (client === undefined) return handler(request, response);
    const started = performance.now();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => {
      const body = Buffer.concat(chunks);
      const declined = () => {
        keepEarlyBody(request, body);
        handler(request, response);
      };
      post.answer(request, body.toString('utf8'), client).then((parts) => {
        if (!parts) return declined();
        const { body, length } = bodyOfParts(parts);
        response.writeHead(200, {
          ...EVERY_RESPONSE_HEADERS,
          'content-type': 'application/json',
          'cache-control': 'no-store',
          'content-length': String(length),
        });
        if (Buffer.isBuffer(body)) response.end(body);
        else body.pipe(response);
        this.count(post.series, request, 200, started);
      }, declined);
    });
  }

  private answered(request: IncomingMessage, response: ServerResponse): boolean {
    const deps = this.deps;
    const { method, url, headers } = request;
    if (!deps || url === undefined || (method !== 'GET' && method !== 'HEAD')) return false;
    // A request with a body goes to Fastify, whose hook refuses a large one (here it would be read and dropped).
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
    if (deps.operations.isClosing || !deps.hostAnswered(headers.host)) return false;
    const started = performance.now();
    const document = this.documents.get(url);
    if (document) {
      if (headers['if-none-match'] === undefined && headers['if-modified-since'] === undefined) return false;
      const rep = deps.publisher.current().representations[document.name];
      if (!this.send(request, response, rep, true)) return false;
      this.count(document, request, response.statusCode, started);
      return true;
    }
    if (!url.startsWith(ROUTES.search) || (url.length > ROUTES.search.length && url[ROUTES.search.length] !== '?'))
      return false;
    const rep = deps.publisher.current().queries.peekUrl(url);
    if (rep === undefined || rep.deferred || deps.clientKey === undefined) return false;
    // Counted against the client's allowance as the route counts it; a client with no room left goes to the route,
    // which refuses it with its own 429.
    if (!deps.limits.take('queries', deps.clientKey(request.socket.remoteAddress ?? ''))) return false;
    this.send(request, response, rep, false);
    this.count(this.search!, request, response.statusCode, started);
    return true;
  }

  /** A 304 when the client's copy is current; otherwise a 200 unless `onlyNotModified`. Whether it answered. */
  private send(request: IncomingMessage, response: ServerResponse, rep: Representation, onlyNotModified: boolean) {
    const { coding, etag, notModified } = decide(request.headers, rep, etagsOfRepresentation(rep));
    if (notModified) {
      response.writeHead(304, notModifiedHeaders(rep, etag)).end();
      return true;
    }
    if (onlyNotModified) return false;
    response.writeHead(200, okHeaders(rep, coding, etag)).end((rep.variants[coding] ?? rep.variants.identity).body);
    return true;
  }

  private count(series: Series | RouteSeries, request: IncomingMessage, status: number, started: number): void {
    const ms = performance.now() - started;
    ('record' in series ? series : request.method === 'GET' ? series.get : series.head).record(status, ms / 1000);
    this.deps!.log.info({ method: request.method, url: request.url, status, ms: Math.round(ms) }, 'request');
  }
}
