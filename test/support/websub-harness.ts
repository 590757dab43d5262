// WebSub test harness: a hub server with demo data, the fixture of a WebSub test file, and waits on stored subscriptions.
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { generateDemo } from '../../src/demo/generate.js';
import type { ImportedReview } from '../../src/reviews/schemas.js';
import type { Subscription } from '../../src/store/types.js';
import { subscribe } from './hub-subscribe.js';
import { newReview } from './reviews.js';
import { publish, startServer, tempDir, type RunningServer } from './server.js';
import { Subscriber, type Behaviour } from './subscriber.js';
import { until } from './wait.js';

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
  await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
  // Its deliveries are queued before any test subscribes: a late announcement would notify them of this import.
  await server.app.hub.announced();
  return {
    ...server,
    hubUrl: `${server.url}/api/websub/hub`,
    topics: {
      atom: `${server.url}/feed.xml`,
      jsonFeed: `${server.url}/api/feed.json`,
      reviews: `${server.url}/reviews.json`,
    },
  };
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
  await until(
    async () => {
      last = await server.store.websub.get(topic, callback);
      return state === 'removed' ? last === undefined : last?.state === state;
    },
    timeoutMs,
    () => `${callback} to be ${state} (last seen: ${last?.state ?? 'no row'})`,
  );
  return last;
}

/** Imports through the store and makes the server publish it at once (the hub announces changed topics). */
export async function importNow(server: HubServer, reviews: ImportedReview[] = [newReview()]): Promise<void> {
  await publish(server, { reviews, replace: false });
  await server.app.hub.announced();
}

/** The topic's current bytes as the server serves them, without any content-coding. */
export async function topicBytes(topic: string): Promise<{ body: Buffer; contentType: string | null }> {
  const response = await fetch(topic, { headers: { 'accept-encoding': 'identity' } });
  return { body: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') };
}

export interface Callback {
  /** The callback's path on the shared subscriber (its requests are found by it). */
  path: string;
  url: string;
}

export interface ActiveSubscription extends Callback {
  topic: string;
  secret: string | undefined;
}

export interface SubscriptionOptions {
  /** How the callback answers (default: echoes challenges, acknowledges deliveries with 200). */
  behaviour?: Behaviour;
  /** hub.* fields added to the subscribe request. */
  extra?: Record<string, string>;
  /** The callback's own query string, `?` included. */
  query?: string;
}

/**
 * What a WebSub test file shares: a temporary folder, one subscriber for all its tests, hub servers that are closed
 * after each test, and callbacks whose paths no other test uses. Call once, at the top of the file.
 */
export function websubFixture(name: string) {
  const dir = tempDir(`reviews-websub-${name}-`);
  const subscriber = new Subscriber();
  let servers: HubServer[] = [];
  let serial = 0;

  beforeAll(async () => {
    await subscriber.listen();
  });
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
  afterAll(async () => {
    await subscriber.close();
    dir.remove();
  });

  /** `prefix-N`, with N unique in this file. */
  const unique = (prefix: string): string => `${prefix}-${++serial}`;

  /** A hub server over its own SQLite file, closed after the test. */
  async function hubServer(env: Record<string, string> = {}): Promise<HubServer> {
    const server = await startHubServer(`${dir.path}/${unique(name)}.db`, env);
    servers.push(server);
    return server;
  }

  /** A fresh callback path on the shared subscriber. */
  function callback(prefix: string, behaviour: Behaviour = {}, query = ''): Callback {
    const path = `/${unique(prefix)}`;
    return { path, url: subscriber.url(`${path}${query}`, behaviour) };
  }

  /** Subscribes a fresh callback and waits until the subscription is active. */
  async function activeSubscription(
    server: HubServer,
    topic: string,
    prefix: string,
    options: SubscriptionOptions = {},
  ): Promise<ActiveSubscription> {
    const extra = options.extra ?? {};
    const cb = callback(prefix, options.behaviour, options.query);
    expect((await subscribe(server, topic, cb.url, extra)).status).toBe(202);
    await waitForState(server, topic, cb.url, 'active');
    return { ...cb, topic, secret: extra['hub.secret'] };
  }

  return { dir, subscriber, unique, hubServer, callback, activeSubscription };
}
