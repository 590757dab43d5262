// Every row of the WebSub state table (interface §3), each as its own test, through real HTTPS callbacks on loopback.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Subscription } from '../src/store/types.js';
import { subscribe, unsubscribe } from './support/hub-subscribe.js';
import { echoChallenge, Listener, type RequestHandler } from './support/listener.js';
import { runCli } from './support/server.js';
import type { Behaviour } from './support/subscriber.js';
import { sleep, until } from './support/wait.js';
import { importNow, waitForState, websubFixture, type HubServer } from './support/websub-harness.js';

const { subscriber, hubServer, callback, activeSubscription } = websubFixture('states');
let endpoints: Listener[] = [];

/** Long enough for a delivery that was going to happen to have happened (the worker pumps at once on a change). */
const QUIET_MS = 600;

afterEach(async () => {
  await Promise.all(endpoints.map((e) => e.close()));
  endpoints = [];
});

/** A listener of this test's own, closed after it. */
async function endpoint(handler: RequestHandler, protocol: 'https' | 'http' = 'https'): Promise<Listener> {
  const e = await Listener.start(handler, protocol);
  endpoints.push(e);
  return e;
}

const gets = (path: string) => subscriber.requests(path, 'GET');
const posts = (path: string) => subscriber.requests(path, 'POST');
const verifications = (path: string, mode: string) => gets(path).filter((r) => r.query.get('hub.mode') === mode);

/** An import that changes every topic, proven to have been distributed by a control subscriber receiving it. */
async function importAndAwaitControl(server: HubServer, control: { path: string }): Promise<void> {
  const before = posts(control.path).length;
  await importNow(server);
  await until(() => posts(control.path).length > before, 10_000, 'the control subscriber to be notified');
  await sleep(QUIET_MS);
}

describe('(none) → pending verification → active', () => {
  it('answers a subscribe with 202, stays pending until the challenge is echoed, then activates and notifications begin', async () => {
    // The challenge is held while the CLI runs: the hub must wait for it longer than that takes on a busy machine.
    const server = await hubServer({ WEBSUB_TIMEOUT_MS: '30000' });
    const topic = server.topics.jsonFeed;
    let release: (() => void) | undefined;
    // Holds the challenge GET unanswered, so the pending state can be observed for certain.
    const held = await endpoint((request, response) => {
      if (request.method === 'GET') release = () => echoChallenge(request, response);
      else response.writeHead(204).end();
    });
    const url = held.url('/held');

    const answer = await subscribe(server, topic, url);
    expect(answer.status).toBe(202);
    await until(() => release !== undefined, 10_000, 'the challenge GET');
    expect((await server.store.websub.get(topic, url))?.state).toBe('pending');
    const listed = await runCli(['subscriptions', '--json'], server.databaseUrl);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as Subscription[]).find((s) => s.callback === url)?.state).toBe('pending');

    const [challenge] = held.received;
    expect(challenge?.method).toBe('GET');
    expect(challenge?.query.get('hub.mode')).toBe('subscribe');
    expect(challenge?.query.get('hub.topic')).toBe(topic);
    expect(challenge?.query.get('hub.challenge')).toMatch(/^\S{16,}$/);
    expect(challenge?.query.get('hub.lease_seconds')).toMatch(/^\d+$/);

    release?.();
    await waitForState(server, topic, url, 'active');
    const after = await runCli(['subscriptions', '--json'], server.databaseUrl);
    const row = (JSON.parse(after.stdout) as Subscription[]).find((s) => s.callback === url);
    expect(row).toMatchObject({ state: 'active', topic, failures: 0 });
    expect(row?.expiresAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    await importNow(server);
    await until(() => held.received.some((r) => r.method === 'POST'), 10_000, 'a notification after an import');
  });

  it('sends a fresh random challenge with every verification', async () => {
    const server = await hubServer();
    const first = callback('fresh-a');
    const second = callback('fresh-b');
    for (const cb of [first, second, first]) {
      expect((await subscribe(server, server.topics.atom, cb.url)).status).toBe(202);
      await waitForState(server, server.topics.atom, cb.url, 'active');
    }
    await until(() => gets(first.path).length === 2, 5000, 'the re-verification');
    const challenges = [...gets(first.path), ...gets(second.path)].map((r) => r.query.get('hub.challenge'));
    expect(challenges).toHaveLength(3);
    expect(new Set(challenges).size).toBe(3);
    for (const challenge of challenges) expect(challenge).toMatch(/^\S{16,}$/);
  });
});

describe('pending verification → rejected', () => {
  const refusals: [string, Behaviour['verify']][] = [
    ['a body other than the challenge', 'wrong-body'],
    ['404 Not Found', { status: 404 }],
    ['500 Internal Server Error', { status: 500 }],
    ['204 No Content (no body)', { status: 204 }],
  ];

  it.each(refusals)(
    'a challenge answered with %s leaves the subscription rejected and never notified',
    async (_name, verify) => {
      const server = await hubServer();
      const topic = server.topics.reviews;
      const control = await activeSubscription(server, topic, 'control');
      const refused = callback('refused', { verify });

      expect((await subscribe(server, topic, refused.url)).status).toBe(202);
      await waitForState(server, topic, refused.url, 'rejected');
      expect(verifications(refused.path, 'subscribe')).toHaveLength(1);

      await importAndAwaitControl(server, control);
      expect(posts(refused.path)).toHaveLength(0);
      expect((await server.store.websub.get(topic, refused.url))?.state).toBe('rejected');
    },
  );

  it('does not follow a redirect in answer to the challenge, and rejects the subscription', async () => {
    const server = await hubServer();
    const topic = server.topics.atom;
    const control = await activeSubscription(server, topic, 'control');
    // The redirect target would echo the challenge: following the redirect would activate the subscription.
    const target = callback('redirect-target');
    const redirecting = await endpoint((request, response) => {
      response.writeHead(302, { location: `${target.url}?${request.query.toString()}` }).end();
    });
    const url = redirecting.url('/redirects');

    expect((await subscribe(server, topic, url)).status).toBe(202);
    await waitForState(server, topic, url, 'rejected');
    expect(redirecting.received.map((r) => r.method)).toEqual(['GET']);
    expect(gets(target.path)).toHaveLength(0);

    await importAndAwaitControl(server, control);
    expect(redirecting.received.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(posts(target.path)).toHaveLength(0);
  });
});

describe('(none) → rejected: plain HTTP callback', () => {
  it('refuses an http:// callback with 400 and a plain-text reason, stores nothing and contacts nothing', async () => {
    const server = await hubServer();
    const plain = await endpoint(echoChallenge, 'http');
    const url = plain.url('/plain');

    const answer = await subscribe(server, server.topics.jsonFeed, url);
    expect(answer.status).toBe(400);
    expect(answer.contentType).toMatch(/^text\/plain\b/);
    expect(answer.text.trim()).toMatch(/https/i);
    await sleep(QUIET_MS);
    expect(plain.received).toHaveLength(0);
    expect(await server.store.websub.get(server.topics.jsonFeed, url)).toBeUndefined();
  });
});

describe('active → removed by unsubscribe', () => {
  it('re-runs the handshake with hub.mode=unsubscribe, removes the subscription once echoed, and stops notifications', async () => {
    const server = await hubServer();
    const topic = server.topics.jsonFeed;
    const control = await activeSubscription(server, topic, 'control');
    const leaving = await activeSubscription(server, topic, 'leaving');

    expect((await unsubscribe(server, topic, leaving.url)).status).toBe(202);
    await waitForState(server, topic, leaving.url, 'removed');
    const [handshake] = verifications(leaving.path, 'unsubscribe');
    expect(handshake?.query.get('hub.topic')).toBe(topic);
    expect(handshake?.query.get('hub.challenge')).toMatch(/^\S{16,}$/);
    expect(handshake?.query.get('hub.challenge')).not.toBe(
      verifications(leaving.path, 'subscribe')[0]?.query.get('hub.challenge'),
    );

    await importAndAwaitControl(server, control);
    expect(posts(leaving.path)).toHaveLength(0);
  });

  it('keeps the subscription active and notified when the unsubscribe handshake fails', async () => {
    const server = await hubServer();
    const topic = server.topics.atom;
    const staying = await activeSubscription(server, topic, 'staying');
    const before = await server.store.websub.get(topic, staying.url);
    subscriber.behave(staying.path, { verify: { status: 404 } });

    expect((await unsubscribe(server, topic, staying.url)).status).toBe(202);
    await until(() => verifications(staying.path, 'unsubscribe').length === 1, 5000, 'the unsubscribe handshake');
    await sleep(QUIET_MS);
    expect(await server.store.websub.get(topic, staying.url)).toEqual(before);

    await importNow(server);
    await until(() => posts(staying.path).length === 1, 10_000, 'a notification to the subscription that stayed');
  });
});

describe('active → removed after 3 consecutive delivery failures', () => {
  it('removes the subscription after three non-2xx acknowledgements and sends the denial notice', async () => {
    const server = await hubServer();
    const topic = server.topics.reviews;
    const failing = await activeSubscription(server, topic, 'failing', { behaviour: { deliveries: [500, 503, 404] } });

    await importNow(server);
    await waitForState(server, topic, failing.url, 'removed', 15_000);
    const attempts = posts(failing.path).map((r) => r.at);
    expect(attempts).toHaveLength(3);
    // Retries wait WEBSUB_RETRY_DELAYS_MS (200 ms here) after each failure.
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(190);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(190);
    await until(() => verifications(failing.path, 'denied').length === 1, 5000, 'the denial GET');
    const [denial] = verifications(failing.path, 'denied');
    expect(denial?.query.get('hub.topic')).toBe(topic);
    expect(denial?.query.get('hub.reason')).toBeTruthy();

    const control = await activeSubscription(server, topic, 'control');
    await importAndAwaitControl(server, control);
    expect(posts(failing.path)).toHaveLength(3);
  });

  it('counts a callback that never answers (timeout) as a failure: removed after three, with the denial notice', async () => {
    const server = await hubServer({ WEBSUB_TIMEOUT_MS: '1000' });
    const topic = server.topics.atom;
    const hanging = await activeSubscription(server, topic, 'hanging', { behaviour: { deliveries: ['hang'] } });

    await importNow(server);
    await waitForState(server, topic, hanging.url, 'removed', 15_000);
    expect(posts(hanging.path)).toHaveLength(3);
    await until(() => verifications(hanging.path, 'denied').length === 1, 5000, 'the denial GET');
    expect(verifications(hanging.path, 'denied')[0]?.query.get('hub.topic')).toBe(topic);
  });

  it('counts a refused connection as a failure: removed after three attempts', async () => {
    const server = await hubServer();
    const topic = server.topics.jsonFeed;
    const gone = await endpoint(echoChallenge);
    const url = gone.url('/stopped-listening');
    expect((await subscribe(server, topic, url)).status).toBe(202);
    await waitForState(server, topic, url, 'active');
    await gone.close();
    endpoints = endpoints.filter((e) => e !== gone);

    await importNow(server);
    const seen: number[] = [];
    await until(
      async () => {
        const row = await server.store.websub.get(topic, url);
        if (row && !seen.includes(row.failures)) seen.push(row.failures);
        return row === undefined;
      },
      15_000,
      'the unreachable subscription to be removed',
    );
    expect(seen.filter((n) => n > 0)).toEqual([1, 2]);
  });

  it('resets the count on a success in between: [500, 500, 200, 500, 500, 200] keeps the subscription active', async () => {
    const server = await hubServer();
    const topic = server.topics.reviews;
    const flaky = await activeSubscription(server, topic, 'flaky', {
      behaviour: { deliveries: [500, 500, 200, 500, 500, 200] },
    });

    await importNow(server);
    await until(() => posts(flaky.path).length === 3, 15_000, 'three attempts of the first change');
    await until(
      async () =>
        (await server.store.websub.get(topic, flaky.url))?.lastDeliveryResult?.startsWith('delivered') === true,
      10_000,
      'the first change delivered',
    );
    expect(await server.store.websub.get(topic, flaky.url)).toMatchObject({ state: 'active', failures: 0 });

    await importNow(server);
    await until(() => posts(flaky.path).length === 6, 15_000, 'three attempts of the second change');
    await until(
      async () => (await server.store.websub.get(topic, flaky.url))?.failures === 0,
      10_000,
      'the second change delivered',
    );
    await sleep(QUIET_MS);
    expect(await server.store.websub.get(topic, flaky.url)).toMatchObject({ state: 'active', failures: 0 });
    expect(verifications(flaky.path, 'denied')).toHaveLength(0);
    expect(posts(flaky.path)).toHaveLength(6);
  });

  it('removes a subscription at once when a delivery is answered 410 Gone', async () => {
    const server = await hubServer();
    const topic = server.topics.atom;
    const control = await activeSubscription(server, topic, 'control');
    const goneCb = await activeSubscription(server, topic, 'gone', { behaviour: { deliveries: [410] } });

    await importNow(server);
    await waitForState(server, topic, goneCb.url, 'removed');
    expect(posts(goneCb.path)).toHaveLength(1);

    await importAndAwaitControl(server, control);
    expect(posts(goneCb.path)).toHaveLength(1);
  });
});

describe('active → lapsed when the lease expires', () => {
  it('lapses a subscription whose lease ran out: no notifications until it subscribes again', async () => {
    const server = await hubServer({ WEBSUB_LEASE_MIN_SECONDS: '1' });
    const topic = server.topics.jsonFeed;
    const control = await activeSubscription(server, topic, 'control');
    const brief = callback('brief');
    expect((await subscribe(server, topic, brief.url, { 'hub.lease_seconds': '1' })).status).toBe(202);
    // Only an active subscription lapses, so reaching 'lapsed' proves it was activated first (for a 1 s lease).
    const lapsed = await waitForState(server, topic, brief.url, 'lapsed', 10_000);
    expect(verifications(brief.path, 'subscribe')[0]?.query.get('hub.lease_seconds')).toBe('1');
    expect(lapsed?.leaseSeconds).toBe(1);
    await importAndAwaitControl(server, control);
    expect(posts(brief.path)).toHaveLength(0);

    expect((await subscribe(server, topic, brief.url, { 'hub.lease_seconds': '600' })).status).toBe(202);
    await waitForState(server, topic, brief.url, 'active');
    await importNow(server);
    await until(() => posts(brief.path).length === 1, 10_000, 'a notification after re-subscribing');
  });
});

describe('re-subscribing an active subscription', () => {
  const signatureOf = (request: { headers: Record<string, string | string[] | undefined> } | undefined) =>
    request?.headers['x-hub-signature'];
  const hmac = (secret: string, body: Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

  it('renews the lease and switches to the new secret once the re-verification succeeds', async () => {
    const server = await hubServer();
    const topic = server.topics.reviews;
    const renewing = await activeSubscription(server, topic, 'renewing', {
      extra: { 'hub.secret': 'first-secret', 'hub.lease_seconds': '3600' },
    });
    const before = (await server.store.websub.get(topic, renewing.url))!;
    await sleep(20);

    expect(
      (await subscribe(server, topic, renewing.url, { 'hub.secret': 'second-secret', 'hub.lease_seconds': '7200' }))
        .status,
    ).toBe(202);
    await until(
      async () => (await server.store.websub.get(topic, renewing.url))?.secret === 'second-secret',
      10_000,
      'the new secret to take effect',
    );
    const after = await server.store.websub.get(topic, renewing.url);
    expect(after).toMatchObject({ state: 'active', leaseSeconds: 7200 });
    expect(Date.parse(after!.expiresAt!) - Date.parse(before.expiresAt!)).toBeGreaterThan(3_590_000);

    await importNow(server);
    await until(() => posts(renewing.path).length === 1, 10_000, 'a notification');
    const [delivery] = posts(renewing.path);
    expect(signatureOf(delivery)).toBe(hmac('second-secret', delivery!.body));
  });

  it('leaves the subscription exactly as it was when the re-verification fails: same secret, same expiry, still notified', async () => {
    const server = await hubServer();
    const topic = server.topics.atom;
    const keeping = await activeSubscription(server, topic, 'keeping', {
      extra: { 'hub.secret': 'kept-secret', 'hub.lease_seconds': '3600' },
    });
    const before = await server.store.websub.get(topic, keeping.url);
    subscriber.behave(keeping.path, { verify: 'wrong-body' });

    expect(
      (await subscribe(server, topic, keeping.url, { 'hub.secret': 'other-secret', 'hub.lease_seconds': '7200' }))
        .status,
    ).toBe(202);
    await until(() => verifications(keeping.path, 'subscribe').length === 2, 5000, 'the re-verification GET');
    await sleep(QUIET_MS);
    expect(await server.store.websub.get(topic, keeping.url)).toEqual(before);

    await importNow(server);
    await until(() => posts(keeping.path).length === 1, 10_000, 'a notification to the kept subscription');
    const [delivery] = posts(keeping.path);
    expect(signatureOf(delivery)).toBe(hmac('kept-secret', delivery!.body));
  });
});

describe('lease clamping', () => {
  const policy = {
    WEBSUB_LEASE_MIN_SECONDS: '120',
    WEBSUB_LEASE_MAX_SECONDS: '7200',
    WEBSUB_LEASE_DEFAULT_SECONDS: '900',
  };
  const cases: [string, string | undefined, number][] = [
    ['below the minimum is raised to it', '5', 120],
    ['zero is raised to the minimum', '0', 120],
    ['above the maximum is lowered to it', '999999999', 7200],
    ['absent takes the default', undefined, 900],
    ['within the bounds is kept', '4000', 4000],
  ];

  it.each(cases)(
    'a requested lease %s; the challenge and the stored expiry agree',
    async (_name, requested, expected) => {
      const server = await hubServer(policy);
      const topic = server.topics.jsonFeed;
      const cb = callback('lease');
      const extra: Record<string, string> = requested === undefined ? {} : { 'hub.lease_seconds': requested };
      const sent = Date.now();
      expect((await subscribe(server, topic, cb.url, extra)).status).toBe(202);
      const row = await waitForState(server, topic, cb.url, 'active');
      const verified = Date.now();

      expect(verifications(cb.path, 'subscribe')[0]?.query.get('hub.lease_seconds')).toBe(String(expected));
      expect(row?.leaseSeconds).toBe(expected);
      const expires = Date.parse(row!.expiresAt!);
      expect(expires).toBeGreaterThanOrEqual(sent + expected * 1000);
      expect(expires).toBeLessThanOrEqual(verified + expected * 1000);
    },
  );
});
