// Per-client request limits: one mechanism (@fastify/rate-limit) for every limited route, keyed by the client's
// address (an IPv6 client by its /64, since one host commonly holds a whole /64; behind a proxy the address
// `TRUST_PROXY` lets Fastify read from X-Forwarded-For). A refused request gets 429 with Retry-After, in its
// route's own error format (each scope's error handler shapes it).
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Config } from '../config.js';

/** The message of every refusal (the wait is in Retry-After). */
export const TOO_MANY_REQUESTS = 'Too many requests from this address; retry after the seconds in Retry-After';

/** The limited groups of routes: each client has one allowance per group and minute. */
export type LimitGroup = 'mcp' | 'queries' | 'hub';

/** Route options that put a route in its group: one handler per group, so the group's routes share one count. */
export type Limits = (group: LimitGroup) => { onRequest: onRequestHookHandler };

/** Registers the mechanism and makes each group's handler once; routes opt in with the returned function. */
export async function registerLimits(app: FastifyInstance, config: Config, onRefused: (group: LimitGroup) => void = () => undefined): Promise<Limits> {
  await app.register(rateLimit, {
    global: false,
    ipv6Subnet: 64,
    // Clients remembered at once per group; the least recently seen are forgotten first.
    cache: 10_000,
    // The headers of the allowance on refusals only: successful answers stay as they were.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    errorResponseBuilder: (_request, context) => {
      const error = new Error(TOO_MANY_REQUESTS) as Error & { statusCode: number };
      error.statusCode = context.statusCode;
      return error;
    },
  });
  const groups: LimitGroup[] = ['mcp', 'queries', 'hub'];
  const handlers = new Map(
    groups.map((group) => [group, app.rateLimit({ max: config.limits[group], timeWindow: 60_000, onExceeded: () => onRefused(group) })] as const),
  );
  return (group) => ({ onRequest: handlers.get(group)! });
}
