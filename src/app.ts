// buildApp(config, deps): wires the store, the publisher and the HTTP routes into one Fastify instance.
import { createServer } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import type { Implementation } from '@modelcontextprotocol/server';
import type { Config } from './config.js';
import { boundConnections } from './http/connections.js';
import { registerCors } from './http/cors.js';
import { FastPath } from './api/fast-path.js';
import { hostCheck, registerHostCheck } from './http/host.js';
import { clientKeyOf, registerLimits } from './http/limits.js';
import { registerReadBodyLimit } from './http/read-body-limit.js';
import { Operations, operationsPlugin } from './operations/routes.js';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './http/errors.js';
import { buildOpenApiDocument } from './openapi/index.js';
import { apiPlugin } from './api/routes.js';
import { sitePlugin, SITE_ROUTES } from './site/routes.js';
import { ROUTES } from './reviews/links.js';
import { InsightsWorker } from './insights/build-worker.js';
import { RevokedSessions } from './mcp/revocations.js';
import { mcpPlugin } from './mcp/route.js';
import { serverInfo } from './mcp/tools.js';
import { Hub } from './websub/hub.js';
import { hubPlugin } from './websub/route.js';
import { Publisher } from './publishing/publisher.js';
import { CACHE_CONTROL, encodeRepresentation, type Representation } from './publishing/representation.js';
import { RepresentationWriter } from './store/representation-worker.js';
import type { Store } from './store/types.js';
import { Assets } from './site/assets.js';
import { SitePages } from './site/pages.js';
import type { View } from './publishing/view.js';

export interface AppDeps {
  store: Store;
  /** The logger root (createLogger); one is made when none is given. */
  logger?: Logger;
}

export interface App {
  http: FastifyInstance;
  publisher: Publisher;
  hub: Hub;
  /** Stops background work and closes the server; the store stays open (its owner closes it). */
  close(): Promise<void>;
}

/** Request bodies this service accepts at all (MCP and hub requests are small JSON or form bodies). */
export const BODY_LIMIT_BYTES = 64 * 1024;

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** The service's one logger root: Fastify's and the store's lines come from it (the store's as a child). */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, redact: ['req.headers.authorization'] });
}

/** The Fastify instance with the server made here, so revalidations and repeated searches are answered before Fastify (FastPath). */
function createHttp(config: Config, fast: FastPath, logger: FastifyBaseLogger): FastifyInstance {
  const http = Fastify({
    loggerInstance: logger,
    bodyLimit: BODY_LIMIT_BYTES,
    // One structured line per request (the onResponse hook below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    serverFactory: (handler) => {
      // Node checks the deadlines below every connectionsCheckingInterval (30 s unless told): once a second here.
      const server = createServer(
        { headersTimeout: config.http.requestTimeoutMs, connectionsCheckingInterval: 1000 },
        fast.listener(handler),
      );
      // No request may hold a connection open by sending slowly, and no idle connection lives long.
      server.requestTimeout = config.http.requestTimeoutMs;
      server.keepAliveTimeout = config.http.keepAliveTimeoutMs;
      server.setTimeout(config.http.idleTimeoutMs);
      // Behind a proxy every connection comes from the proxy: the cap per address would cap the proxy.
      boundConnections(server, {
        maxPerClient: config.http.trustProxy === false ? config.http.maxConnectionsPerClient : null,
        responseTimeoutMs: config.http.responseTimeoutMs,
      });
      return server;
    },
    clientErrorHandler,
    frameworkErrors,
    // A hop count trusts that many proxies nearest to the server (what Fastify does with a number).
    trustProxy: typeof config.http.trustProxy === 'number' ? trustHops(config.http.trustProxy) : config.http.trustProxy,
  });
  http.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
    done();
  });
  return http;
}

/** The OpenAPI description, encoded once at start. */
async function openApiRepresentation(config: Config, mcpInfo: Implementation): Promise<Representation> {
  return encodeRepresentation(
    JSON.stringify(
      await buildOpenApiDocument(config.baseUrl, {
        bodyLimitBytes: BODY_LIMIT_BYTES,
        mcpServerInfo: mcpInfo,
        websub: { ...config.websub, hubRequestsPerMinute: config.limits.hub },
      }),
    ),
    {
      contentType: 'application/json',
      cacheControl: CACHE_CONTROL.static,
      lastModified: null,
      // Encoded at every start, for a document fetched rarely: the best brotli setting would cost about half a second
      // of startup on its ~170 KB to save a few KB.
      effort: 'fast',
    },
  );
}

/**
 * The home page of every version served is made as soon as it is (and again with its insights); at start once the
 * server listens, not before (some 0.3 s at 100k reviews): a visitor who comes first shares the one being made. The
 * first version's word index too (0.6–2.5 s of slices at 100k): made earlier, its slices would run between the
 * steps of this start, delaying it; text searches read the texts until it is made.
 */
function warmPages(http: FastifyInstance, publisher: Publisher, site: SitePages): void {
  const warm = (view: View) =>
    site.warm(view).catch((error: unknown) => http.log.error({ err: error }, 'rendering the home page failed'));
  http.server.once('listening', () => {
    const first = publisher.current();
    first.snapshot.index.makeWords();
    void warm(first);
  });
  publisher.on('published', (view) => void warm(view));
  publisher.on('insights', (view) => void warm(view));
}

export async function buildApp(config: Config, deps: AppDeps): Promise<App> {
  const fast = new FastPath();
  const http = createHttp(config, fast, deps.logger ?? createLogger(config));
  registerErrorHandling(http);
  registerReadBodyLimit(http);
  registerCors(http, config);
  registerHostCheck(http, config);
  const publisher = new Publisher(
    deps.store,
    { baseUrl: config.baseUrl },
    http.log,
    config.reloadIntervalMs,
    new InsightsWorker(config.databaseUrl),
    new RepresentationWriter(config.databaseUrl),
  );
  const operations = new Operations(deps.store, publisher);
  await http.register(operationsPlugin, { operations, metricsAccess: config.metrics });
  const limits = await registerLimits(http, config, (group) => operations.refused(group));
  await publisher.start();
  const assets = new Assets();
  const mcpInfo = serverInfo(config.baseUrl, assets.paths.icon);
  const openapi = await openApiRepresentation(config, mcpInfo);
  await http.register(apiPlugin, { publisher, openapi, limits, pagePaths: Object.values(SITE_ROUTES) });
  fast.enable({
    publisher,
    operations,
    hostAnswered: hostCheck(config),
    limits,
    clientKey: config.http.trustProxy === false ? clientKeyOf : undefined,
    log: http.log,
  });
  const site = new SitePages({ baseUrl: config.baseUrl }, assets);
  await http.register(sitePlugin, { publisher, site, limits });
  warmPages(http, publisher, site);
  const revoked = new RevokedSessions(deps.store, config.reloadIntervalMs);
  await http.register(mcpPlugin, {
    config,
    publisher,
    revoked,
    limits,
    onToolCall: (tool) => operations.mcpCall(tool),
    onListenStreams: (open) => operations.watchListenStreams(open),
    info: mcpInfo,
    answerEarly: (answer) => fast.answerPosts(ROUTES.mcp, answer),
  });
  const hub = new Hub(config, deps.store, publisher, http.log);
  await hub.start();
  operations.watchHub(hub);
  await http.register(hubPlugin, { config, store: deps.store, hub, limits });

  return {
    http,
    publisher,
    hub,
    async close() {
      // Readiness turns 503 first and requests are still served for SHUTDOWN_DRAIN_MS, so a load balancer can
      // stop sending them. Then no request is taken, so no hub request is accepted that the stopped hub could not
      // verify. Requests in flight get SHUTDOWN_GRACE_MS; then every connection goes, so a client holding a socket
      // open without a request cannot hold a deploy up.
      operations.shuttingDown();
      if (config.shutdown.drainMs > 0) await new Promise((done) => setTimeout(done, config.shutdown.drainMs));
      const force = setTimeout(() => http.server.closeAllConnections(), config.shutdown.graceMs);
      await http.close();
      clearTimeout(force);
      revoked.stop();
      await Promise.all([publisher.stop(), hub.stop()]);
    },
  };
}
