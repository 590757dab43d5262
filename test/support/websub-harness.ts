// WebSub test harness: a hub server with demo data, hub requests, condition waits, and scriptable callback endpoints.
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { generateDemo } from '../../src/demo/generate.js';
import type { ImportedReview } from '../../src/reviews/schemas.js';
import type { Subscription } from '../../src/store/types.js';
import { startServer, type RunningServer } from './server.js';
import { hubRequest as hubAt, type HubAnswer } from './hub-subscribe.js';
import { makeTestPki } from './tls.js';
import { sleep, until } from './wait.js';

export type { HubAnswer };

/** Settings every WebSub test needs: loopback callbacks, quick retries and timeouts, no rate limit in the way. */
export const FAST_WEBSUB: Readonly<Record<string, string>> = Object.freeze({
  WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
  WEBSUB_RETRY_DELAYS_MS: '200,200',
  WEBSUB_TIMEOUT_MS: '5000',
  WEBSUB_RATE_LIMIT_PER_MINUTE: '1000',
});

export const demo = generateDemo({ seed: 21, reviews: 80 });

export interface HubServer extends RunningServer {
  hubUrl: string;
  topics: { atom: string; jsonFeed: string; reviews: string };
}

/** A server over a fresh SQLite file, already serving the small demo business (so later imports are changes). */
export async function startHubServer(dbPath: string, env: Record<string, string> = {}): Promise<HubServer> {
  const server = await startServer(dbPath, { ...FAST_WEBSUB, ...env });
  await server.store.applyImport({ business: demo.business, reviews: demo.reviews, replace: true });
  await server.app.publisher.refresh();
  return {
    ...server,
    hubUrl: `${server.url}/api/websub/hub`,
    topics: { atom: `${server.url}/feed.xml`, jsonFeed: `${server.url}/api/feed.json`, reviews: `${server.url}/reviews.json` },
  };
}

/** POSTs a form to the hub (or a raw body with a given Content-Type). */
export function hubRequest(server: HubServer, fields: Record<string, string>, raw?: { contentType: string; body: string }): Promise<HubAnswer> {
  return hubAt(server.url, fields, raw);
}

export function subscribe(server: HubServer, topic: string, callback: string, extra: Record<string, string> = {}): Promise<HubAnswer> {
  return hubRequest(server, { 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': callback, ...extra });
}

export function unsubscribe(server: HubServer, topic: string, callback: string): Promise<HubAnswer> {
  return hubRequest(server, { 'hub.mode': 'unsubscribe', 'hub.topic': topic, 'hub.callback': callback });
}

export { sleep };

/** Polls a condition (sync or async) until it holds, or fails naming what was awaited. */
export async function waitUntil(test: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  await until(async () => (await test()) || undefined, timeoutMs, what);
}

/** Waits until the stored subscription is in `state` ('removed': no row at all), and returns it. */
export async function waitForState(
  server: HubServer,
  topic: string,
  callback: string,
  state: Subscription['state'] | 'removed',
  timeoutMs = 10_000,
): Promise<Subscription | undefined> {
  let last: Subscription | undefined;
  await waitUntil(
    async () => {
      last = await server.store.websub.get(topic, callback);
      return state === 'removed' ? last === undefined : last?.state === state;
    },
    `${callback} to be ${state} (last seen: ${last?.state ?? 'no row'})`,
    timeoutMs,
  );
  return last;
}

let reviewCounter = 0;

/** A verified review newer than every demo review, so it lands at the top of both feeds and changes every topic. */
export function newReview(overrides: Partial<ImportedReview> = {}): ImportedReview {
  reviewCounter++;
  return {
    id: `ws-new-${process.pid}-${reviewCounter}`,
    date: '2026-12-01',
    rating: 5,
    text: `A brand new review number ${reviewCounter}.`,
    author: 'New C.',
    technicians: [],
    services: [],
    verified: true,
    ...overrides,
  };
}

/** Imports through the store and makes the server publish it at once (the hub announces changed topics). */
export async function importNow(server: HubServer, reviews: ImportedReview[] = [newReview()]): Promise<void> {
  await server.store.applyImport({ reviews, replace: false });
  await server.app.publisher.refresh();
}

/** The topic's current bytes as the server serves them, without any content-coding. */
export async function topicBytes(topic: string): Promise<{ body: Buffer; contentType: string | null }> {
  const response = await fetch(topic, { headers: { 'accept-encoding': 'identity' } });
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') };
}

export interface EndpointRequest {
  method: string;
  /** The request target as received: path and query string. */
  target: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

export type EndpointHandler = (request: EndpointRequest, response: ServerResponse) => void;

/** A loopback endpoint (HTTPS with the test CA, or plain HTTP) that records every request and answers by a handler. */
export class ScriptedEndpoint {
  readonly received: EndpointRequest[] = [];

  private constructor(
    private readonly server: HttpServer,
    readonly origin: string,
  ) {}

  static async start(handler: EndpointHandler, protocol: 'https' | 'http' = 'https'): Promise<ScriptedEndpoint> {
    const pki = makeTestPki();
    const server: HttpServer = protocol === 'https' ? createHttpsServer({ key: pki.key, cert: pki.cert }) : createHttpServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as { port: number }).port;
    const endpoint = new ScriptedEndpoint(server, `${protocol}://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const target = req.url ?? '/';
        const url = new URL(target, 'https://endpoint');
        const request = { method: req.method ?? 'GET', target, path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
        endpoint.received.push(request);
        handler(request, res);
      });
    });
    return endpoint;
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}

/** Answers a verification GET by echoing its challenge. */
export function echoChallenge(request: EndpointRequest, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/plain' }).end(request.query.get('hub.challenge') ?? '');
}
