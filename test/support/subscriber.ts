// A real HTTPS WebSub subscriber on loopback (test CA): answers verifications and deliveries as told, records all.
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { makeTestPki } from './tls.js';
import { until } from './wait.js';

export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

export interface Behaviour {
  /** How to answer a GET with hub.mode subscribe/unsubscribe: echo the challenge (default), echo something else, or a status. */
  verify?: 'echo' | 'wrong-body' | { status: number };
  /** Status for each POST delivery in turn (the last repeats); 'hang' never answers. Default 200. */
  deliveries?: (number | 'hang')[];
}

export class Subscriber {
  readonly received: Received[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly posts = new Map<string, number>();
  private readonly hanging = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<Subscriber> {
    const pki = makeTestPki();
    const server = createServer({ key: pki.key, cert: pki.cert });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const subscriber = new Subscriber(server, (server.address() as { port: number }).port);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => subscriber.handle(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks), res));
    });
    return subscriber;
  }

  /** A callback URL on this subscriber; `path` names it, and may carry its own query string. */
  url(path: string, behaviour: Behaviour = {}, host = '127.0.0.1'): string {
    this.behaviours.set(path.split('?')[0]!, behaviour);
    return `https://${host}:${this.port}${path}`;
  }

  /** Changes how a callback answers from now on. */
  behave(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  requests(path: string, method?: 'GET' | 'POST'): Received[] {
    return this.received.filter((r) => r.path === path && (method === undefined || r.method === method));
  }

  async waitFor(test: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
    await until(() => test() || undefined, timeoutMs, what);
  }

  async close(): Promise<void> {
    for (const release of this.hanging) release();
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }

  private handle(method: string, rawUrl: string, headers: IncomingHttpHeaders, body: Buffer, res: import('node:http').ServerResponse): void {
    const url = new URL(rawUrl, 'https://subscriber');
    this.received.push({ method, path: url.pathname, query: url.searchParams, headers, body, at: Date.now() });
    const behaviour = this.behaviours.get(url.pathname) ?? {};
    if (method === 'GET') {
      const challenge = url.searchParams.get('hub.challenge') ?? '';
      const verify = behaviour.verify ?? 'echo';
      if (verify === 'echo') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(challenge);
      if (verify === 'wrong-body') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`${challenge}x`);
      return void res.writeHead(verify.status).end(challenge);
    }
    const n = this.posts.get(url.pathname) ?? 0;
    this.posts.set(url.pathname, n + 1);
    const plan = behaviour.deliveries ?? [200];
    const answer = plan[Math.min(n, plan.length - 1)]!;
    if (answer === 'hang') {
      this.hanging.add(() => res.destroy());
      return;
    }
    res.writeHead(answer).end();
  }
}
