// What an operator points a load balancer and Prometheus at: /healthz (the process answers), /readyz (it can
// serve: a view is built from a store that answered; 503 with the reason otherwise, and from the start of a
// shutdown; a store lost later is named in the body but keeps 200, since the data in memory is still served),
// and /metrics in Prometheus's text format (public unless METRICS_ALLOW or METRICS_TOKEN says who may read it).
// Figures kept elsewhere (view and insights build times, deliveries) are read at each scrape; requests, MCP calls
// and limit refusals are counted here.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { Publisher } from '../publishing/publisher.js';
import type { Store } from '../store/types.js';
import type { Config } from '../config.js';
import { sendError } from '../http/errors.js';
import type { LimitGroup } from '../http/limits.js';
import { METRICS_FORBIDDEN, metricsReader } from './metrics-access.js';
import { RequestMetrics } from '../http/request-metrics.js';

export const OPERATIONS_ROUTES = { health: '/healthz', ready: '/readyz', metrics: '/metrics' } as const;

/** How long /readyz waits for the store before it says the store does not answer. */
const STORE_CHECK_MS = 2000;

export interface OperationsOptions {
  operations: Operations;
  /** Who may read /metrics (see metrics-access.ts). */
  metricsAccess: Config['metrics'];
}

/** /healthz, /readyz and /metrics, and the hooks that count every request, as a Fastify plugin. */
export const operationsPlugin = fp<OperationsOptions>(
  async (app, { operations, metricsAccess }) => operations.register(app, metricsAccess),
  { name: 'operations' },
);

export class Operations {
  readonly registry = new Registry();
  private closing = false;
  /** Requests answered and their latency: written before the registry's metrics, where prom-client listed them. */
  readonly requests = new RequestMetrics();
  private readonly mcpCalls = new Counter({
    name: 'mcp_tool_calls_total',
    help: 'MCP tools/call requests, by tool',
    labelNames: ['tool'],
    registers: [this.registry],
  });
  private readonly refusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429, by group of routes',
    labelNames: ['group'],
    registers: [this.registry],
  });

  constructor(
    private readonly store: Store,
    private readonly publisher: Publisher,
  ) {
    collectDefaultMetrics({ register: this.registry });
    // A figure read from the store has no sample while the store does not answer: the scrape still succeeds, with
    // reviews_store_up 0 saying why.
    const fromStore = (collect: (g: Gauge) => Promise<void>) => async (g: Gauge) => {
      try {
        await collect(g);
      } catch {
        g.reset();
      }
    };
    const gauge = (
      name: string,
      help: string,
      collect: (g: Gauge) => void | Promise<void>,
      labelNames: string[] = [],
    ) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers: [this.registry],
        async collect() {
          await collect(this);
        },
      });
    gauge(
      'reviews_store_up',
      'Whether the store answers (1) or not (0); the last data is served either way',
      async (g) => g.set((await this.storeCheck()) === 'ok' ? 1 : 0),
    );
    gauge('reviews_data_revision', 'Store revision of the data served', (g) =>
      g.set(this.publisher.current().snapshot.version.revision),
    );
    gauge('reviews_published', 'Verified reviews served', (g) =>
      g.set(this.publisher.current().snapshot.reviews.length),
    );
    gauge('reviews_data_age_seconds', 'Seconds since the served data was published', (g) => {
      const publishedAt = this.publisher.current().snapshot.version.publishedAt;
      g.set(publishedAt ? (Date.now() - Date.parse(publishedAt)) / 1000 : 0);
    });
    gauge('reviews_view_build_seconds', 'How long the last data version took to be served, from noticing it', (g) =>
      g.set(this.publisher.lastViewMs / 1000),
    );
    gauge('insights_build_seconds', 'How long the last insights build of this process took in its thread', (g) =>
      g.set((this.publisher.lastInsightsBuild?.ms ?? 0) / 1000),
    );
    gauge(
      'insights_current',
      '1 when the insights served describe the data served, 0 while they lag an import',
      (g) => {
        const view = this.publisher.current();
        g.set(view.insights.source?.asOf === view.snapshot.version.publishedAt ? 1 : 0);
      },
    );
    gauge(
      'websub_subscriptions',
      'WebSub subscriptions, by state',
      fromStore(async (g) => {
        const { subscriptions } = await this.store.websub.stats();
        for (const [state, n] of Object.entries(subscriptions)) g.set({ state }, n);
      }),
      ['state'],
    );
    gauge(
      'websub_outbox_pending',
      'WebSub deliveries waiting in the outbox',
      fromStore(async (g) => g.set((await this.store.websub.stats()).pendingDeliveries)),
    );
  }

  /** Counts the deliveries of this process's hub, by outcome. */
  watchHub(hub: { readonly deliveries: Readonly<Record<string, number>> }): void {
    new Gauge({
      name: 'websub_deliveries_total',
      help: 'WebSub deliveries attempted by this process, by outcome (a counter: it only grows)',
      labelNames: ['outcome'],
      registers: [this.registry],
      collect() {
        for (const [outcome, n] of Object.entries(hub.deliveries)) this.set({ outcome }, n);
      },
    });
  }

  /** Reports the subscriptions/listen streams this process holds open. */
  watchListenStreams(open: () => number): void {
    new Gauge({
      name: 'mcp_listen_streams',
      help: 'MCP subscriptions/listen streams open in this process',
      registers: [this.registry],
      collect() {
        this.set(open());
      },
    });
  }

  mcpCall(tool: string): void {
    this.mcpCalls.inc({ tool });
  }

  refused(group: LimitGroup): void {
    this.refusals.inc({ group });
  }

  /** From now on /readyz answers 503: a load balancer stops sending requests before the server stops taking them. */
  shuttingDown(): void {
    this.closing = true;
  }

  /**
   * Why the server cannot serve now (undefined when it can), and whether the store answers. A store that stops
   * answering after the first view was built does not make the server unready: it still serves the last data, and
   * every replica of one database would go out of a load balancer's rotation at once, for an outage of all of them.
   */
  private async readiness(): Promise<{ reason?: string; store: string }> {
    if (this.closing) return { reason: 'shutting down', store: 'not checked' };
    const store = await this.storeCheck();
    try {
      this.publisher.current();
    } catch {
      return { reason: store === 'ok' ? 'no data version built yet' : store, store };
    }
    return { store };
  }

  /** `ok` when the store answers within STORE_CHECK_MS, otherwise what went wrong. */
  private async storeCheck(): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>(
      (done) =>
        (timer = setTimeout(() => done(`the store did not answer within ${STORE_CHECK_MS} ms`), STORE_CHECK_MS)),
    );
    return Promise.race([
      this.store.currentVersion().then(
        () => 'ok',
        (error: unknown) => `the store failed: ${error instanceof Error ? error.message : String(error)}`,
      ),
      timeout,
    ]).finally(() => clearTimeout(timer));
  }

  /** Whether the server is shutting down (readiness already says so). */
  get isClosing(): boolean {
    return this.closing;
  }

  /** `metricsAccess`: who may read /metrics (see metrics-access.ts). */
  register(app: FastifyInstance, metricsAccess: Config['metrics']): void {
    // While shutting down, every answer closes its connection, so no client sends its next request on a socket the
    // server is about to close: it connects again, and is refused once the server no longer listens.
    // Hooks that run on every request are plain callbacks (an async hook costs a promise and a turn each).
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (this.closing) reply.header('connection', 'close');
      done(null, payload);
    });
    app.addHook('onResponse', (request, reply, done) => {
      // The route's template, not the URL: one series per route, whatever clients ask for.
      this.requests
        .series(request.method, request.routeOptions.url ?? 'unmatched')
        .record(reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
    const json = (status: number, body: object) => ({ status, body: JSON.stringify(body) });
    const send = (reply: import('fastify').FastifyReply, { status, body }: { status: number; body: string }) =>
      reply
        .code(status)
        .header('cache-control', 'no-store')
        .header('content-type', 'application/json; charset=utf-8')
        .send(body);
    app.route({
      method: ['GET', 'HEAD'],
      url: OPERATIONS_ROUTES.health,
      handler: (_request, reply) => send(reply, json(200, { status: 'ok' })),
    });
    app.route({
      method: ['GET', 'HEAD'],
      url: OPERATIONS_ROUTES.ready,
      handler: async (_request, reply) => {
        const { reason, store } = await this.readiness();
        if (reason) return send(reply, json(503, { status: 'not_ready', reason }));
        return send(reply, json(200, { status: 'ready', version: this.publisher.current().snapshot.version, store }));
      },
    });
    const mayRead = metricsReader(metricsAccess);
    app.route({
      method: ['GET', 'HEAD'],
      url: OPERATIONS_ROUTES.metrics,
      ...(mayRead && {
        onRequest: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
          if (mayRead(request)) return done();
          void sendError(reply, 'forbidden', METRICS_FORBIDDEN);
        },
      }),
      handler: async (_request, reply) =>
        reply
          .header('cache-control', 'no-store')
          .header('content-type', this.registry.contentType)
          .send(`${this.requests.exposition()}\n\n${await this.registry.metrics()}`),
    });
  }
}
