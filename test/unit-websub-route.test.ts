// The lease policy of hub requests (src/websub/route.ts): default, minimum and maximum, and what a lease may be written as.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/types.js';
import { tempDir, testConfig } from './support/server.js';
import { Subscriber } from './support/subscriber.js';
import { until } from './support/wait.js';

const dir = tempDir('reviews-unit-websub-route-');
const subscriber = new Subscriber();
let serial = 0;

beforeAll(async () => {
  await subscriber.listen();
});
afterAll(async () => {
  await subscriber.close();
  dir.remove();
});

const BASE_URL = 'https://reviews.example';
const TOPIC = `${BASE_URL}/reviews.json`;

interface HubUnderTest {
  app: App;
  store: Store;
}

/**
 * The app with `policy` over its own SQLite file, for the tests of the enclosing block. Hub requests go through
 * Fastify's inject; only the verification reaches the network, to the loopback subscriber.
 */
function hubWith(policy: Record<string, string>): () => HubUnderTest {
  let hub: HubUnderTest | undefined;
  beforeAll(async () => {
    const databaseUrl = `sqlite:${dir.path}/route-${++serial}.db`;
    const store = await openStore(databaseUrl);
    const config = testConfig(databaseUrl, {
      BASE_URL,
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      WEBSUB_RATE_LIMIT_PER_MINUTE: '100000',
      ...policy,
    });
    hub = { app: await buildApp(config, { store }), store };
  });
  afterAll(async () => {
    await hub?.app.close();
    await hub?.store.close();
  });
  return () => {
    if (!hub) throw new Error('the hub is not built yet (use it inside a test)');
    return hub;
  };
}

/** POSTs a hub request through inject, as a subscriber's form. */
async function hubRequest(
  hub: HubUnderTest,
  fields: Record<string, string>,
): Promise<{ status: number; text: string }> {
  const response = await hub.app.http.inject({
    method: 'POST',
    url: '/api/websub/hub',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
  return { status: response.statusCode, text: response.body };
}

/** A callback path no other test uses, and its URL on the loopback subscriber. */
function callback(): { path: string; url: string } {
  const path = `/lease-${++serial}`;
  return { path, url: subscriber.url(path) };
}

/** Subscribes with `lease` (absent when undefined); returns the lease the challenge offered and the stored row. */
async function subscribeWithLease(hub: HubUnderTest, lease: string | undefined) {
  const cb = callback();
  const sent = Date.now();
  const answer = await hubRequest(hub, {
    'hub.mode': 'subscribe',
    'hub.topic': TOPIC,
    'hub.callback': cb.url,
    ...(lease === undefined ? {} : { 'hub.lease_seconds': lease }),
  });
  expect(answer.status, answer.text).toBe(202);
  const row = await until(
    async () => {
      const subscription = await hub.store.websub.get(TOPIC, cb.url);
      return subscription?.state === 'active' ? subscription : undefined;
    },
    10_000,
    `${cb.url} to be verified`,
  );
  const [challenge] = subscriber.requests(cb.path, 'GET');
  return { cb, row, offered: challenge?.query.get('hub.lease_seconds'), sent, verified: Date.now() };
}

describe('a requested lease under the policy min 120 s, max 7200 s, default 900 s', () => {
  const hub = hubWith({
    WEBSUB_LEASE_MIN_SECONDS: '120',
    WEBSUB_LEASE_MAX_SECONDS: '7200',
    WEBSUB_LEASE_DEFAULT_SECONDS: '900',
  });

  const cases: [string, string | undefined, number][] = [
    ['absent takes the default', undefined, 900],
    ['empty takes the default', '', 900],
    ['within the bounds is kept', '4000', 4000],
    ['equal to the minimum is kept', '120', 120],
    ['one second below the minimum is raised to it', '119', 120],
    ['zero is raised to the minimum', '0', 120],
    ['equal to the maximum is kept', '7200', 7200],
    ['one second above the maximum is lowered to it', '7201', 7200],
    ['larger than any safe integer is lowered to the maximum', '99999999999999999999999', 7200],
    ['written with leading zeros is read as decimal', '0600', 600],
  ];

  it.each(cases)(
    '%s: the challenge offers it and the stored lease and expiry follow it',
    async (_name, requested, expected) => {
      const { row, offered, sent, verified } = await subscribeWithLease(hub(), requested);
      expect(offered).toBe(String(expected));
      expect(row.leaseSeconds).toBe(expected);
      // The lease runs from the moment the hub asked the subscriber, which lies between these two.
      const expires = Date.parse(row.expiresAt!);
      expect(expires).toBeGreaterThanOrEqual(sent + expected * 1000);
      expect(expires).toBeLessThanOrEqual(verified + expected * 1000);
    },
  );

  it.each([
    ['a fraction', '1.5'],
    ['negative', '-60'],
    ['signed', '+60'],
    ['padded with a space', ' 60'],
    ['followed by a unit', '60s'],
    ['in exponent notation', '1e3'],
    ['in hexadecimal', '0x10'],
    ['in full-width digits', '６０'],
  ])('refuses a lease written %s with 400 in plain text, and asks the callback nothing', async (_name, lease) => {
    const cb = callback();
    const answer = await hubRequest(hub(), {
      'hub.mode': 'subscribe',
      'hub.topic': TOPIC,
      'hub.callback': cb.url,
      'hub.lease_seconds': lease,
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/lease_seconds/);
    expect(await hub().store.websub.get(TOPIC, cb.url)).toBeUndefined();
    expect(subscriber.requests(cb.path)).toEqual([]);
  });

  it('offers no lease when verifying an unsubscribe', async () => {
    const { cb } = await subscribeWithLease(hub(), '600');
    const answer = await hubRequest(hub(), {
      'hub.mode': 'unsubscribe',
      'hub.topic': TOPIC,
      'hub.callback': cb.url,
      'hub.lease_seconds': '600',
    });
    expect(answer.status).toBe(202);
    await until(
      async () => (await hub().store.websub.get(TOPIC, cb.url)) === undefined,
      10_000,
      'the unsubscribe to be verified',
    );
    const unsubscribe = subscriber.requests(cb.path, 'GET').find((r) => r.query.get('hub.mode') === 'unsubscribe');
    expect(unsubscribe?.query.has('hub.lease_seconds')).toBe(false);
  });
});

describe('a default lease outside the bounds', () => {
  const below = hubWith({
    WEBSUB_LEASE_MIN_SECONDS: '120',
    WEBSUB_LEASE_MAX_SECONDS: '7200',
    WEBSUB_LEASE_DEFAULT_SECONDS: '60',
  });
  const above = hubWith({
    WEBSUB_LEASE_MIN_SECONDS: '120',
    WEBSUB_LEASE_MAX_SECONDS: '7200',
    WEBSUB_LEASE_DEFAULT_SECONDS: '86400',
  });

  it('is raised to the minimum when below it', async () => {
    const { row, offered } = await subscribeWithLease(below(), undefined);
    expect(offered).toBe('120');
    expect(row.leaseSeconds).toBe(120);
  });

  it('is lowered to the maximum when above it', async () => {
    const { row, offered } = await subscribeWithLease(above(), undefined);
    expect(offered).toBe('7200');
    expect(row.leaseSeconds).toBe(7200);
  });
});
