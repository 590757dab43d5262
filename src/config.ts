// Typed configuration: the only module that reads process.env; everything else receives a Config.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DEFAULT_WINDOW_DAYS } from './reviews/verification.js';

const bool = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');
const int = (min: number) => z.coerce.number().int().min(min);

/**
 * A comma-separated list, empty by default. `entry` gives each entry as kept, or `{ problem }` saying why it is not
 * valid (every bad entry is named).
 */
const commaList = (entry: (text: string) => string | { problem: string }) =>
  z
    .string()
    .default('')
    .transform((list, ctx) =>
      list
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .flatMap((text) => {
          const kept = entry(text);
          if (typeof kept === 'string') return [kept];
          ctx.addIssue({ code: 'custom', message: kept.problem });
          return [];
        }),
    );

/** Every variable the service reads, with its default: docs/operations.md lists them, and a test holds the two equal. */
export const EnvSchema = z.object({
  PORT: int(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  BASE_URL: z.url().optional(),
  DATABASE_URL: z.string().min(1).default('sqlite:data/reviews.db'),
  /** PostgreSQL connections per process (the insights process keeps two more of its own). */
  DATABASE_POOL_SIZE: int(1).max(1000).default(10),
  WEBSUB_LEASE_DEFAULT_SECONDS: int(1).default(864000),
  WEBSUB_LEASE_MIN_SECONDS: int(1).default(3600),
  WEBSUB_LEASE_MAX_SECONDS: int(1).default(2592000),
  WEBSUB_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'comma-separated milliseconds')
    .default('60000,600000')
    .transform((s) => s.split(',').map(Number)),
  WEBSUB_TIMEOUT_MS: int(1).default(10000),
  WEBSUB_ALLOW_PRIVATE_CALLBACKS: bool.default(false),
  WEBSUB_MAX_SUBSCRIBERS_PER_TOPIC: int(1).default(10000),
  WEBSUB_RATE_LIMIT_PER_MINUTE: int(1).default(60),
  WEBSUB_MAX_SUBSCRIPTIONS_PER_CLIENT: int(1).default(100),
  WEBSUB_CONCURRENCY: int(1).max(1000).default(32),
  /** Of those, how many one client's verifications may hold (a fair share: a flood from one address waits its turn). */
  WEBSUB_CONCURRENCY_PER_CLIENT: int(1).max(1000).default(8),
  MCP_SESSION_SECRET: z.string().min(16).optional(),
  /** subscriptions/listen streams one client (its address, an IPv6 one by /64) may hold open at once. */
  MCP_LISTEN_PER_CLIENT: int(1).max(1000).default(10),
  /** subscriptions/listen streams open at once in this process, all clients together (the SDK's own cap is 1,024). */
  MCP_LISTEN_MAX: int(1).max(1000).default(500),
  /** How long a listen stream lasts before the server ends it cleanly; the client listens again. */
  MCP_LISTEN_LIFETIME_MS: int(1000).default(600_000),
  MCP_ALLOWED_ORIGINS: commaList((entry) => {
    // Compared with a browser's Origin header, so normalised the way browsers write it.
    const origin = URL.canParse(entry) ? new URL(entry).origin : 'null';
    return origin !== 'null' ? origin : { problem: `"${entry}" is not an origin such as https://app.example.com` };
  }),
  /** Days after a job's completion within which a review by its customer matches it (1 to 3,650). */
  VERIFY_WINDOW_DAYS: int(1).max(3650).default(DEFAULT_WINDOW_DAYS),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How often the server looks for changes made by another process (the CLI, another replica). */
  RELOAD_INTERVAL_MS: int(10).default(500),
  /** Requests per client and minute to POST and DELETE /mcp together. */
  RATE_LIMIT_MCP_PER_MINUTE: int(1).default(300),
  /** Requests per client and minute to search and since together (the documents themselves are not limited). */
  RATE_LIMIT_QUERIES_PER_MINUTE: int(1).default(600),
  /** Fastify's trustProxy: false, true, a hop count, or a comma-separated list of proxy addresses and CIDRs. */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v): boolean | number | string[] => {
      if (v === 'true' || v === 'false') return v === 'true';
      if (/^\d+$/.test(v)) return Number(v);
      return v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    }),
  /** At shutdown, how long /readyz answers 503 while requests are still served, so a load balancer can stop sending them. */
  SHUTDOWN_DRAIN_MS: int(0).default(0),
  /** Then how long requests in flight may take before every connection is closed. */
  SHUTDOWN_GRACE_MS: int(0).default(5_000),
  /** A request's headers and body must arrive within this (a client sending a byte now and then is cut off). */
  HTTP_REQUEST_TIMEOUT_MS: int(1000).default(15_000),
  /** A connection with no bytes moving either way for this long is closed. */
  HTTP_IDLE_TIMEOUT_MS: int(1000).default(30_000),
  /**
   * How long a kept-alive connection waits for its next request. Longer than the idle timeout of common load
   * balancers (60 s) and than a busy client's timers may lag: a server that closes an idle connection just as the
   * client reuses it fails that request (seen at 5 s with 100 clients in the load test). Fastify's default.
   */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(100).default(72_000),
  /** A response (an event stream aside) not taken by the client within this is cut off with its connection. */
  HTTP_RESPONSE_TIMEOUT_MS: int(1000).default(30_000),
  /** Connections one client address may hold open at once; more are closed on arrival. Off behind a proxy. */
  HTTP_MAX_CONNECTIONS_PER_CLIENT: int(1).default(256),
  /** Who may read /metrics: empty for everyone, else comma-separated addresses and CIDR blocks. */
  METRICS_ALLOW: commaList((entry) =>
    // A mistyped entry would silently shut out the monitoring it was meant to let in: it stops the start.
    [z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()].some((form) => form.safeParse(entry).success)
      ? entry
      : { problem: `"${entry}" is not an IP address or CIDR block such as 10.0.0.0/8, 192.0.2.7 or fd00::/8` },
  ),
  /** A bearer token that also opens /metrics (`Authorization: Bearer <token>`), at least 16 characters. */
  METRICS_TOKEN: z.string().min(16).optional(),
});

export interface Config {
  port: number;
  host: string;
  /** Public origin without a trailing slash: links, feed ids, topic URLs, hub URL. */
  baseUrl: string;
  databaseUrl: string;
  /** PostgreSQL connections per process. */
  databasePoolSize: number;
  websub: {
    leaseDefaultSeconds: number;
    leaseMinSeconds: number;
    leaseMaxSeconds: number;
    retryDelaysMs: number[];
    timeoutMs: number;
    allowPrivateCallbacks: boolean;
    maxSubscribersPerTopic: number;
    /** Pending and active subscriptions one client may hold. */
    maxSubscriptionsPerClient: number;
    /** Verifications and deliveries in flight at once. */
    concurrency: number;
    /** Of those, verifications one client may hold. */
    concurrencyPerClient: number;
  };
  /** `sharedSecret`: MCP_SESSION_SECRET was set (replicas must share it), not made up by this process. */
  mcp: {
    sessionSecret: string;
    sharedSecret: boolean;
    allowedOrigins: string[];
    /** subscriptions/listen: streams per client, streams in all, and a stream's lifetime. */
    listen: { perClient: number; max: number; lifetimeMs: number };
  };
  /** Who may read /metrics: `allow` empty and no `token` means everyone. */
  metrics: { allow: string[]; token: string | null };
  logLevel: string;
  reloadIntervalMs: number;
  /** The verification rule's window: days after a job within which its customer's review matches it. */
  verifyWindowDays: number;
  http: {
    requestTimeoutMs: number;
    idleTimeoutMs: number;
    keepAliveTimeoutMs: number;
    responseTimeoutMs: number;
    maxConnectionsPerClient: number;
    trustProxy: boolean | number | string[];
  };
  /** Requests per client and minute, by group of routes. */
  limits: { mcp: number; queries: number; hub: number };
  shutdown: { drainMs: number; graceMs: number };
}

/** Browser origins whose requests /mcp accepts: BASE_URL's and the configured ones. */
/** The names a loopback address goes by in a URL or a Host header. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Browser origins MCP accepts: BASE_URL's, the configured ones, and, when BASE_URL is on loopback, the same scheme
 * and port under every loopback name (a page at http://localhost:3000 talks to a server whose BASE_URL says
 * 127.0.0.1).
 */
export function mcpOrigins(config: Pick<Config, 'baseUrl' | 'mcp'>): ReadonlySet<string> {
  const base = new URL(config.baseUrl);
  const origins = new Set([base.origin, ...config.mcp.allowedOrigins]);
  if (LOOPBACK_NAMES.includes(base.hostname)) {
    for (const name of LOOPBACK_NAMES) origins.add(`${base.protocol}//${name}${base.port ? `:${base.port}` : ''}`);
  }
  return origins;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

/** Reads configuration from an environment map (process.env by default); bad values are reported, not thrown. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ConfigResult {
  const known = Object.fromEntries(
    Object.keys(EnvSchema.shape).flatMap((key) => (env[key] === undefined ? [] : [[key, env[key]]])),
  );
  const parsed = EnvSchema.safeParse(known);
  if (!parsed.success) {
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    };
  }
  const e = parsed.data;
  const baseUrl = (e.BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    ok: true,
    config: {
      port: e.PORT,
      host: e.HOST,
      baseUrl,
      databaseUrl: e.DATABASE_URL,
      databasePoolSize: e.DATABASE_POOL_SIZE,
      websub: {
        leaseDefaultSeconds: e.WEBSUB_LEASE_DEFAULT_SECONDS,
        leaseMinSeconds: e.WEBSUB_LEASE_MIN_SECONDS,
        leaseMaxSeconds: e.WEBSUB_LEASE_MAX_SECONDS,
        retryDelaysMs: e.WEBSUB_RETRY_DELAYS_MS,
        timeoutMs: e.WEBSUB_TIMEOUT_MS,
        allowPrivateCallbacks: e.WEBSUB_ALLOW_PRIVATE_CALLBACKS,
        maxSubscribersPerTopic: e.WEBSUB_MAX_SUBSCRIBERS_PER_TOPIC,
        maxSubscriptionsPerClient: e.WEBSUB_MAX_SUBSCRIPTIONS_PER_CLIENT,
        concurrency: e.WEBSUB_CONCURRENCY,
        concurrencyPerClient: Math.min(e.WEBSUB_CONCURRENCY_PER_CLIENT, e.WEBSUB_CONCURRENCY),
      },
      mcp: {
        sessionSecret: e.MCP_SESSION_SECRET ?? randomBytes(32).toString('hex'),
        sharedSecret: e.MCP_SESSION_SECRET !== undefined,
        allowedOrigins: e.MCP_ALLOWED_ORIGINS,
        listen: {
          perClient: Math.min(e.MCP_LISTEN_PER_CLIENT, e.MCP_LISTEN_MAX),
          max: e.MCP_LISTEN_MAX,
          lifetimeMs: e.MCP_LISTEN_LIFETIME_MS,
        },
      },
      metrics: { allow: e.METRICS_ALLOW, token: e.METRICS_TOKEN ?? null },
      logLevel: e.LOG_LEVEL,
      reloadIntervalMs: e.RELOAD_INTERVAL_MS,
      verifyWindowDays: e.VERIFY_WINDOW_DAYS,
      http: {
        requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
        idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
        keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
        responseTimeoutMs: e.HTTP_RESPONSE_TIMEOUT_MS,
        maxConnectionsPerClient: e.HTTP_MAX_CONNECTIONS_PER_CLIENT,
        trustProxy: e.TRUST_PROXY,
      },
      shutdown: { drainMs: e.SHUTDOWN_DRAIN_MS, graceMs: e.SHUTDOWN_GRACE_MS },
      limits: {
        mcp: e.RATE_LIMIT_MCP_PER_MINUTE,
        queries: e.RATE_LIMIT_QUERIES_PER_MINUTE,
        hub: e.WEBSUB_RATE_LIMIT_PER_MINUTE,
      },
    },
  };
}

/** The configuration, or the process ends with status 2 after naming every problem (entry points only). */
export function configOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  const loaded = loadConfig(env);
  if (loaded.ok) return loaded.config;
  process.stderr.write(`invalid configuration:\n${loaded.problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(2);
}
