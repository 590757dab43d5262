// A loopback listener for tests (HTTPS with the test CA, or plain HTTP): records every request, answers through a handler.
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { makeTestPki } from './tls.js';

export interface ReceivedRequest {
  method: string;
  /** The request target as received: path and query string, byte for byte. */
  target: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Date.now() when the whole body had arrived. */
  at: number;
}

/** Called once the whole request body has arrived; it must answer (or deliberately never answer). */
export type RequestHandler = (request: ReceivedRequest, response: ServerResponse) => void;

export class Listener {
  readonly received: ReceivedRequest[] = [];
  private readonly server: Server;
  private address: { origin: string; port: number } | undefined;

  /** Nothing listens until `listen()`; `Listener.start` does both. */
  constructor(
    private readonly handler: RequestHandler,
    readonly protocol: 'https' | 'http' = 'https',
  ) {
    if (protocol === 'https') {
      const pki = makeTestPki();
      this.server = createHttpsServer({ key: pki.key, cert: pki.cert });
    } else {
      this.server = createHttpServer();
    }
    this.server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const target = req.url ?? '/';
        const url = new URL(target, 'https://listener');
        const request = {
          method: req.method ?? 'GET',
          target,
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks),
          at: Date.now(),
        };
        this.received.push(request);
        this.handler(request, res);
      });
    });
  }

  static start(handler: RequestHandler, protocol: 'https' | 'http' = 'https'): Promise<Listener> {
    return new Listener(handler, protocol).listen();
  }

  /** Listens on 127.0.0.1 with an ephemeral port. */
  async listen(): Promise<this> {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    const { port } = this.server.address() as { port: number };
    this.address = { origin: `${this.protocol}://127.0.0.1:${port}`, port };
    return this;
  }

  get port(): number {
    return this.listening().port;
  }

  get origin(): string {
    return this.listening().origin;
  }

  /** A URL on this listener; `host` may be another name for loopback (localhost). */
  url(path: string, host = '127.0.0.1'): string {
    return `${this.protocol}://${host}:${this.port}${path}`;
  }

  /** The requests to `path` (without its query string), in arrival order. */
  requests(path: string, method?: string): ReceivedRequest[] {
    return this.received.filter((r) => r.path === path && (method === undefined || r.method === method));
  }

  async close(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }

  private listening(): { origin: string; port: number } {
    if (!this.address) throw new Error('the listener is not listening yet (await listen() first)');
    return this.address;
  }
}

/** Answers a WebSub verification GET by echoing its challenge. */
export function echoChallenge(request: ReceivedRequest, response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/plain' }).end(request.query.get('hub.challenge') ?? '');
}
