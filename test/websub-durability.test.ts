// The WebSub outbox is durable and fair: a killed hub delivers after restart, a hanging subscriber delays no one, replicas deliver once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/open.js';
import type { Store, Subscription } from '../src/store/types.js';
import { hubRequest, subscribe } from './support/hub-subscribe.js';
import { Listener } from './support/listener.js';
import { newReview } from './support/reviews.js';
import { runCli, startServer, tempDir, writeJson, type RunningServer } from './support/server.js';
import { ServiceProcess, stopAllServices } from './support/service-process.js';
import { Subscriber } from './support/subscriber.js';
import { sleep, until } from './support/wait.js';

const dir = tempDir('reviews-websub-durability-');
const SESSION_SECRET = 'websub-durability-test-secret-0123456789';
const stores: Store[] = [];
let subscriber: Subscriber;

beforeAll(async () => {
  subscriber = await Subscriber.start();
});

afterAll(async () => {
  await stopAllServices();
  for (const store of stores) await store.close();
  await subscriber?.close();
  dir.remove();
});

/** The SQLite file opened from the test process, beside the service, as the operator's CLI would. */
async function storeOf(databaseUrl: string): Promise<Store> {
  const store = await openStore(databaseUrl);
  stores.push(store);
  return store;
}

async function activeSubscription(
  store: Store,
  topic: string,
  callback: string,
  log: () => string = () => '',
): Promise<Subscription> {
  return until(
    async () => {
      const subscription = await store.websub.get(topic, callback);
      return subscription?.state === 'active' ? subscription : undefined;
    },
    10_000,
    () => `${callback} to be active on ${topic}\n${log()}`,
  );
}

async function importReviews(databaseUrl: string, name: string, ids: string[]): Promise<void> {
  const file = writeJson(`${dir.path}/${name}.json`, { reviews: ids.map((id) => newReview({ id })) });
  const result = await runCli(['import', file], databaseUrl);
  expect(result.code, result.stderr).toBe(0);
}

describe('a hub killed with SIGKILL loses no delivery', () => {
  const cases: [string, 'hang' | number][] = [
    ['in flight to a callback that never answers', 'hang'],
    ['failed once (500) and waiting for its retry', 500],
  ];

  it.each(cases)(
    'delivers a delivery that was %s after a restart, once, with the current content',
    async (name, firstAnswer) => {
      const service = await ServiceProcess.create(`sqlite:${dir.path}/killed-${firstAnswer}.db`);
      await service.start();
      const store = await storeOf(service.databaseUrl);
      const topic = `${service.url}/reviews.json`;
      const path = `/killed-${firstAnswer}`;
      const callback = subscriber.url(path, { deliveries: [firstAnswer] });
      expect((await subscribe(service.url, '/reviews.json', callback)).status).toBe(202);
      await activeSubscription(store, topic, callback, () => service.log());

      await importReviews(service.databaseUrl, `before-kill-${firstAnswer}`, [`before-kill-${firstAnswer}`]);
      await until(() => subscriber.requests(path, 'POST').length === 1, 10_000, `the first delivery (${name})`);
      if (firstAnswer !== 'hang') {
        await until(
          async () => ((await store.websub.get(topic, callback))?.failures ?? 0) === 1,
          10_000,
          'the failure to be recorded',
        );
      }
      // The delivery is a row in the store, not a promise in the process that is about to die.
      expect(await store.websub.nextDueAt()).not.toBeNull();
      await service.stop('SIGKILL');

      // Another change while the hub is down joins the pending delivery instead of adding a second one.
      await importReviews(service.databaseUrl, `while-killed-${firstAnswer}`, [`while-killed-${firstAnswer}`]);
      subscriber.behave(path, { deliveries: [200] });
      await service.start();
      await until(
        () => subscriber.requests(path, 'POST').length === 2,
        20_000,
        () => `the delivery after restart\n${service.log()}`,
      );
      const delivered = subscriber.requests(path, 'POST')[1]!;
      const current = await (await fetch(topic)).text();
      expect(delivered.body.toString('utf8')).toBe(current);
      expect(current).toContain(`before-kill-${firstAnswer}`);
      expect(current).toContain(`while-killed-${firstAnswer}`);
      expect(delivered.headers['content-type']).toBe('application/json');
      expect(delivered.headers.link).toContain(`<${topic}>; rel="self"`);

      await until(async () => (await store.websub.nextDueAt()) === null, 5_000, 'the outbox to be empty');
      const settled = await store.websub.get(topic, callback);
      expect(settled).toMatchObject({ state: 'active', failures: 0 });
      expect(settled?.lastDeliveryResult).toMatch(/^delivered/);
      // Once: a quiet period longer than the worker's poll shows no second copy.
      await sleep(1500);
      expect(subscriber.requests(path, 'POST')).toHaveLength(2);
      await service.stop('SIGTERM');
    },
  );

  it('announces an import made while the hub was down when it starts again, on every changed topic', async () => {
    const service = await ServiceProcess.create(`sqlite:${dir.path}/offline-import.db`);
    await service.start();
    const store = await storeOf(service.databaseUrl);
    const topics = [
      { path: '/feed.xml', callbackPath: '/offline-atom', contentType: 'application/atom+xml' },
      { path: '/api/feed.json', callbackPath: '/offline-jsonfeed', contentType: 'application/feed+json' },
      { path: '/reviews.json', callbackPath: '/offline-dataset', contentType: 'application/json' },
    ];
    for (const t of topics) {
      const callback = subscriber.url(t.callbackPath);
      expect((await subscribe(service.url, t.path, callback)).status).toBe(202);
      await activeSubscription(store, `${service.url}${t.path}`, callback, () => service.log());
    }
    await service.stop('SIGTERM');

    await importReviews(service.databaseUrl, 'while-down', ['while-down-1']);
    await service.start();
    for (const t of topics) {
      await until(
        () => subscriber.requests(t.callbackPath, 'POST').length > 0,
        10_000,
        () => `the delivery of ${t.path}\n${service.log()}`,
      );
      const [delivered] = subscriber.requests(t.callbackPath, 'POST');
      const current = await (await fetch(`${service.url}${t.path}`)).text();
      expect(delivered!.body.toString('utf8')).toBe(current);
      expect(current).toContain('while-down-1');
      expect(delivered!.headers['content-type']).toBe(t.contentType);
    }
    await sleep(1500);
    for (const t of topics) expect(subscriber.requests(t.callbackPath, 'POST')).toHaveLength(1);
    await service.stop('SIGTERM');
  });
});

describe('a subscriber that never answers', () => {
  const HANG_TIMEOUT_MS = 20_000;
  let server: RunningServer;
  let crowd: Subscriber;

  beforeAll(async () => {
    crowd = await Subscriber.start();
    // Far longer than the test waits, and fewer slots than subscribers: the worker must refill freed slots.
    server = await startServer(`${dir.path}/hang.db`, {
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      WEBSUB_TIMEOUT_MS: String(HANG_TIMEOUT_MS),
      WEBSUB_CONCURRENCY: '4',
      MCP_SESSION_SECRET: SESSION_SECRET,
    });
  });

  afterAll(async () => {
    // Releasing the hanging request first lets the hub's worker finish before the server closes.
    await crowd?.close();
    await server?.close();
  });

  it('does not delay delivery to the 20 others on the same host and topic', async () => {
    const topic = `${server.url}/reviews.json`;
    const normal = Array.from({ length: 20 }, (_, i) => `/prompt-${i}`);
    const hanging = crowd.url('/asleep', { deliveries: ['hang'] });
    for (const callback of [hanging, ...normal.map((path) => crowd.url(path))]) {
      expect((await subscribe(server.url, '/reviews.json', callback)).status).toBe(202);
    }
    for (const callback of [hanging, ...normal.map((path) => crowd.url(path))])
      await activeSubscription(server.store, topic, callback);

    await server.store.applyImport({ reviews: [newReview({ id: 'crowd-1' })], replace: false });
    const imported = Date.now();
    await server.app.publisher.refresh();
    // Had the hanging delivery held the others back, none would be sent before it timed out (WEBSUB_TIMEOUT_MS, 20 s).
    await until(
      () => normal.every((path) => crowd.requests(path, 'POST').length === 1),
      15_000,
      'every prompt subscriber to be notified',
    );
    const last = Math.max(...normal.map((path) => crowd.requests(path, 'POST')[0]!.at));
    expect(last - imported).toBeLessThan(HANG_TIMEOUT_MS);

    // The sleeper was sent its delivery too, and it is still unsettled: neither delivered nor failed.
    await until(() => crowd.requests('/asleep', 'POST').length === 1, 15_000, 'the sleeper to be sent its delivery');
    const asleep = await server.store.websub.get(topic, hanging);
    expect(asleep).toMatchObject({ state: 'active', failures: 0, lastDeliveryAt: null });
    expect(await server.store.websub.nextDueAt()).not.toBeNull();
  });
});

describe('several replicas over one SQLite file', () => {
  let replicas: RunningServer[] = [];
  let audience: Listener;

  beforeAll(async () => {
    // Each acknowledgement takes a while and each replica has two slots: both replicas' workers claim from the outbox at once.
    audience = await Listener.start((request, response) => {
      if (request.method === 'GET') response.writeHead(200).end(request.query.get('hub.challenge') ?? '');
      else setTimeout(() => response.writeHead(204).end(), 150);
    });
    const settings = {
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      MCP_SESSION_SECRET: SESSION_SECRET,
      WEBSUB_RETRY_DELAYS_MS: '60000',
      WEBSUB_CONCURRENCY: '2',
    };
    const first = await startServer(`${dir.path}/replicas.db`, settings);
    // Replicas share the public origin (topics are URLs under it), as they would behind one load balancer.
    const second = await startServer(`${dir.path}/replicas.db`, { ...settings, BASE_URL: first.url });
    replicas = [first, second];
  });

  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await audience?.close();
  });

  it('sends each subscriber exactly one POST per change, not one per replica', async () => {
    const [first, second] = replicas as [RunningServer, RunningServer];
    const topicPaths = ['/reviews.json', '/api/feed.json', '/feed.xml'];
    const subscriptions = Array.from({ length: 24 }, (_, i) => ({
      path: `/replica-${i}`,
      topic: `${first.url}${topicPaths[i % 3]!}`,
    }));
    // Half of the subscriptions are made through each replica's hub: the state is the store's, not a process's.
    for (const [i, s] of subscriptions.entries()) {
      const hub = (i % 2 === 0 ? first : second).url;
      const answer = await hubRequest(hub, {
        'hub.mode': 'subscribe',
        'hub.topic': s.topic,
        'hub.callback': audience.url(s.path),
      });
      expect(answer.status, answer.text).toBe(202);
    }
    for (const s of subscriptions) await activeSubscription(second.store, s.topic, audience.url(s.path));
    const posts = (path: string) => audience.requests(path, 'POST');

    await first.store.applyImport({ reviews: [newReview({ id: 'replicated-1' })], replace: false });
    await Promise.all(replicas.map((replica) => replica.app.publisher.refresh()));
    await until(() => subscriptions.every((s) => posts(s.path).length >= 1), 20_000, 'every subscriber to be notified');
    // Longer than the worker's poll and the replicas' reload interval: a second copy would have gone out by now.
    await sleep(2000);
    for (const s of subscriptions) expect(posts(s.path), s.path).toHaveLength(1);
    expect(await first.store.websub.nextDueAt()).toBeNull();
  });
});

describe('verifications and deliveries share WEBSUB_CONCURRENCY', () => {
  let server: RunningServer;
  let crowd: Subscriber;

  beforeAll(async () => {
    crowd = await Subscriber.start();
    server = await startServer(`${dir.path}/shared-room.db`, {
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      WEBSUB_TIMEOUT_MS: '3000',
      WEBSUB_CONCURRENCY: '1',
      MCP_SESSION_SECRET: SESSION_SECRET,
    });
  });

  afterAll(async () => {
    await crowd?.close();
    await server?.close();
  });

  it('verifies a new subscriber only once the one request in flight (a delivery that hangs) has ended', async () => {
    const topic = `${server.url}/reviews.json`;
    const hanging = crowd.url('/holds-the-room', { deliveries: ['hang'] });
    expect((await subscribe(server.url, '/reviews.json', hanging)).status).toBe(202);
    await activeSubscription(server.store, topic, hanging);
    await server.store.applyImport({ reviews: [newReview({ id: 'room-1' })], replace: false });
    await server.app.publisher.refresh();
    await until(() => crowd.requests('/holds-the-room', 'POST').length === 1, 5000, 'the delivery that hangs');
    const deliveryStarted = crowd.requests('/holds-the-room', 'POST')[0]!.at;

    // Another origin (localhost, not 127.0.0.1): no connection pool in common with the hanging delivery.
    const late = crowd.url('/waits-its-turn', {}, 'localhost');
    expect((await subscribe(server.url, '/reviews.json', late)).status).toBe(202);
    await until(() => crowd.requests('/waits-its-turn', 'GET').length === 1, 10_000, 'the verification');
    // Not before the hanging delivery gave up at WEBSUB_TIMEOUT_MS: the one slot was taken until then.
    expect(crowd.requests('/waits-its-turn', 'GET')[0]!.at - deliveryStarted).toBeGreaterThanOrEqual(2900);
    await activeSubscription(server.store, topic, late);
  });
});
