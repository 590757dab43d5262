// Per-client request limits: one mechanism (@fastify/rate-limit) for every limited route, keyed by the client's
// address (an IPv6 client by its /64, since one host commonly holds a whole /64; behind a proxy the address
// `TRUST_PROXY` lets Fastify read from X-Forwarded-For). A refused request gets 429 with Retry-After, in its
// route's own error format (each scope's error handler shapes it).
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../config.js';

/** The message of every refusal (the wait is in Retry-After). */
export const TOO_MANY_REQUESTS = 'Too many requests from this address; retry after the seconds in Retry-After';

/** The limited groups of routes: each client has one allowance per group and minute. */
export type LimitGroup = 'mcp' | 'queries' | 'hub';

/** What charging a request for more than its one count left: within the allowance, or how long to wait. */
export type Charge = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Route options that put a route in its group: one handler per group, so the group's routes share one count.
 * `charge` counts `extra` more against the client's allowance in a group, for a request that asks for more than
 * one answer (a batch of MCP messages); the request's own count was taken on arrival.
 */
export type Limits = ((group: LimitGroup) => { onRequest: onRequestHookHandler }) & {
  charge(group: LimitGroup, request: FastifyRequest, extra: number): Charge;
  /**
   * Counts one request of the client with this key (clientKey's) if the allowance has room for it, and says whether
   * it had: the answer ahead of Fastify (src/api/fast-path.ts) takes its count here, and leaves a request the
   * allowance has no room for to the route, whose own count refuses it as before.
   */
  take(group: LimitGroup, key: string): boolean;
};

/** The allowance's window: requests are counted per client and minute. */
const WINDOW_MS = 60_000;

/** Clients remembered at once per group; the least recently seen are forgotten first. */
const CLIENTS_REMEMBERED = 10_000;

/** IPv6 clients are counted by /64, since one host commonly holds a whole /64. */
const IPV6_SUBNET = 64;

/** The key a client is counted by: its address, an IPv6 one by its /64. */
export const clientKeyOf = (address: string): string => normalizeIP(address, IPV6_SUBNET);
export const clientKey = (request: FastifyRequest): string => clientKeyOf(request.ip);

interface Count {
  current: number;
  startMs: number;
}

class AllowanceStore {
  private readonly counts = new Map<string, Count>();

  incr(key: string, done: (error: null, result: { current: number; ttl: number }) => void, timeWindow: number): void {
    done(null, this.add(key, 1, timeWindow));
  }

  add(key: string, n: number, timeWindow: number, max = Infinity): { current: number; ttl: number } {
    const now = Date.now();
    let count = this.counts.get(key);
    if (!count || count.startMs + timeWindow <= now) count = { current: 0, startMs: now };
    // Beyond `max`, nothing is counted (take's refusal leaves the count to the route).
    if (count.current + n <= max) count.current += n;
    else return { current: count.current + n, ttl: count.startMs + timeWindow - now };
    // Re-inserted, so the Map's order is least recently seen first.
    this.counts.delete(key);
    this.counts.set(key, count);
    if (this.counts.size > CLIENTS_REMEMBERED) this.counts.delete(this.counts.keys().next().value!);
    return { current: count.current, ttl: count.startMs + timeWindow - now };
  }
}

/**
 * The plugin's store (its `incr` and `child` contract, a fixed window as its own LocalStore keeps), which can also
 * add more than one to a count. Each group's handler gets a child store of its own; `made` collects them so that
 * `charge` reaches the group's counts.
 */
function allowanceStores(): { Store: new () => object; made: AllowanceStore[] } {
  const made: AllowanceStore[] = [];
  class Store extends AllowanceStore {
    child(): AllowanceStore {
      const child = new AllowanceStore();
      made.push(child);
      return child;
    }
  }
  return { Store, made };
}

/** Registers the mechanism and makes each group's handler once; routes opt in with the returned function. */
export async function registerLimits(
  app: FastifyInstance,
  config: Config,
  onRefused: (group: LimitGroup) => void = () => undefined,
): Promise<Limits> {
  const stores = allowanceStores();
  await app.register(rateLimit, {
    global: false,
    ipv6Subnet: IPV6_SUBNET,
    store: stores.Store as never,
    // The headers of the allowance on refusals only: successful answers stay as they were.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    errorResponseBuilder: (_request, context) => {
      const error = new Error(TOO_MANY_REQUESTS) as Error & { statusCode: number };
      error.statusCode = context.statusCode;
      return error;
    },
  });
  const groups: LimitGroup[] = ['mcp', 'queries', 'hub'];
  const handlers = new Map<LimitGroup, { onRequest: onRequestHookHandler; store: AllowanceStore }>();
  for (const group of groups) {
    const onRequest = app.rateLimit({
      max: config.limits[group],
      timeWindow: WINDOW_MS,
      onExceeded: () => onRefused(group),
    });
    const store = stores.made.at(-1);
    if (!store || [...handlers.values()].some((h) => h.store === store))
      throw new Error('the rate-limit plugin made no store of its own for a group');
    handlers.set(group, { onRequest, store });
  }
  const limits = (group: LimitGroup) => ({ onRequest: handlers.get(group)!.onRequest });
  const charge = (group: LimitGroup, request: FastifyRequest, extra: number): Charge => {
    if (extra <= 0) return { ok: true };
    const { current, ttl } = handlers.get(group)!.store.add(clientKey(request), extra, WINDOW_MS);
    if (current <= config.limits[group]) return { ok: true };
    onRefused(group);
    return { ok: false, retryAfterSeconds: Math.ceil(ttl / 1000) };
  };
  const take = (group: LimitGroup, key: string): boolean =>
    handlers.get(group)!.store.add(key, 1, WINDOW_MS, config.limits[group]).current <= config.limits[group];
  return Object.assign(limits, { charge, take });
}
