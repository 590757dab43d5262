// WebSub content distribution through a real CLI import, hub request validation, limits and the operator's listing.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportedReview } from '../src/reviews/schemas.js';
import { hubRequest, subscribe } from './support/hub-subscribe.js';
import { echoChallenge, Listener, type ReceivedRequest } from './support/listener.js';
import { cliImport } from './support/cli-import.js';
import { newestFirst, newReview } from './support/reviews.js';
import { runCli } from './support/server.js';
import { sleep, until } from './support/wait.js';
import {
  demo,
  startHubServer,
  topicBytes,
  waitForState,
  websubFixture,
  type HubServer,
} from './support/websub-harness.js';

const { dir, subscriber, unique, hubServer, callback, activeSubscription } = websubFixture('distribution');

/** Long enough for a second notification, or one that was going to happen, to have arrived. */
const QUIET_MS = 700;

const posts = (path: string) => subscriber.requests(path, 'POST');
const postsSince = (at: number) => subscriber.received.filter((r) => r.method === 'POST' && r.at >= at);

/** One active subscription on each topic, for checking that nothing is sent to any of them. */
async function subscribedToEveryTopic(server: HubServer, prefix: string) {
  return [
    await activeSubscription(server, server.topics.atom, `${prefix}-atom`),
    await activeSubscription(server, server.topics.jsonFeed, `${prefix}-jsonfeed`),
    await activeSubscription(server, server.topics.reviews, `${prefix}-reviews`),
  ];
}

/** Imports a file through the built CLI, as an operator would while the server runs. */
const importReviews = (server: HubServer, reviews: ImportedReview[]) =>
  cliImport(server.databaseUrl, `${dir.path}/${unique('import')}.json`, { reviews });

/** Waits until the server serves the store's current revision (it polls for changes made by other processes). */
async function serverCaughtUp(server: HubServer): Promise<void> {
  const revision = (await server.store.currentVersion()).revision;
  await until(
    () => server.app.publisher.current().snapshot.version.revision === revision,
    10_000,
    `the server to serve revision ${revision}`,
  );
}

const hmac = (secret: string, body: Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** The entries of a Link header as `<url>; rel="x"` strings. */
const linkEntries = (header: string | string[] | undefined) =>
  String(header ?? '')
    .split(/,\s*(?=<)/)
    .map((entry) => entry.trim());

describe('content distribution after a CLI import', () => {
  it('sends each active subscriber of each changed topic exactly one POST with the topic bytes, Content-Type, Link and signature', async () => {
    const server = await hubServer();
    const { atom, jsonFeed, reviews } = server.topics;
    const subscriptions = [
      await activeSubscription(server, atom, 'atom-signed', { extra: { 'hub.secret': 'atom secret ✓' } }),
      await activeSubscription(server, atom, 'atom-plain'),
      await activeSubscription(server, jsonFeed, 'jsonfeed-signed', { extra: { 'hub.secret': 'json-feed-secret' } }),
      await activeSubscription(server, jsonFeed, 'jsonfeed-plain'),
      await activeSubscription(server, reviews, 'reviews-signed', { extra: { 'hub.secret': 'r'.repeat(199) } }),
      await activeSubscription(server, reviews, 'reviews-plain'),
    ];
    const contentTypes: Record<string, string> = {
      [atom]: 'application/atom+xml',
      [jsonFeed]: 'application/feed+json',
      [reviews]: 'application/json',
    };

    const imported = newReview({ text: 'Imported through the CLI while the hub runs.' });
    await importReviews(server, [imported]);
    await until(() => subscriptions.every((s) => posts(s.path).length >= 1), 10_000, 'every subscriber to be notified');
    await sleep(QUIET_MS);

    for (const s of subscriptions) {
      const received = posts(s.path);
      expect(received, s.path).toHaveLength(1);
      const [delivery] = received as [ReceivedRequest];
      const served = await topicBytes(s.topic);
      expect(delivery.body.equals(served.body), `${s.path}: body equals GET ${s.topic}`).toBe(true);
      expect(delivery.headers['content-type']?.split(';')[0]?.trim(), s.path).toBe(contentTypes[s.topic]);
      expect(served.contentType?.split(';')[0]?.trim()).toBe(contentTypes[s.topic]);
      expect(linkEntries(delivery.headers.link)).toEqual(
        expect.arrayContaining([`<${server.hubUrl}>; rel="hub"`, `<${s.topic}>; rel="self"`]),
      );
      if (s.secret) expect(delivery.headers['x-hub-signature'], s.path).toBe(hmac(s.secret, delivery.body));
      else expect(delivery.headers['x-hub-signature'], s.path).toBeUndefined();
    }
    const feed = JSON.parse(posts(subscriptions[2]!.path)[0]!.body.toString('utf8')) as {
      items: { _review: { id: string } }[];
    };
    expect(feed.items[0]?._review.id).toBe(imported.id);
  });

  it('notifies only /reviews.json subscribers when an import changes only a review older than the 50 newest', async () => {
    const server = await hubServer();
    const { atom, jsonFeed, reviews } = server.topics;
    const feedsBefore = { atom: (await topicBytes(atom)).body, jsonFeed: (await topicBytes(jsonFeed)).body };
    const atomSub = await activeSubscription(server, atom, 'old-atom');
    const feedSub = await activeSubscription(server, jsonFeed, 'old-jsonfeed');
    const reviewsSub = await activeSubscription(server, reviews, 'old-reviews');
    const published = newestFirst(demo.reviews.filter((r) => r.verified));
    expect(published.length).toBeGreaterThan(50);
    const oldest = published[published.length - 1]!;

    await importReviews(server, [{ ...oldest, text: `${oldest.text} (edited by the business)` }]);
    await until(() => posts(reviewsSub.path).length === 1, 10_000, 'the /reviews.json subscriber to be notified');
    await sleep(QUIET_MS);

    expect(posts(reviewsSub.path)).toHaveLength(1);
    expect(posts(reviewsSub.path)[0]!.body.equals((await topicBytes(reviews)).body)).toBe(true);
    expect((await topicBytes(jsonFeed)).body.equals(feedsBefore.jsonFeed)).toBe(true);
    expect(posts(feedSub.path)).toHaveLength(0);
    // The Atom feed holds the same 50 entries as before: its subscribers should hear nothing, and its bytes not move.
    expect.soft(posts(atomSub.path), 'POSTs to the Atom subscriber').toHaveLength(0);
    expect
      .soft((await topicBytes(atom)).body.toString('utf8'), 'the Atom feed after the import')
      .toBe(feedsBefore.atom.toString('utf8'));
  });

  it('sends nothing when an import changes nothing', async () => {
    const server = await hubServer();
    const subscriptions = await subscribedToEveryTopic(server, 'same');
    const revision = (await server.store.currentVersion()).revision;
    const started = Date.now();

    await importReviews(server, demo.reviews.slice(0, 10));
    expect((await server.store.currentVersion()).revision).toBe(revision);
    await sleep(QUIET_MS);
    for (const s of subscriptions) expect(posts(s.path)).toHaveLength(0);
    expect(postsSince(started)).toHaveLength(0);
  });

  it('notifies only /reviews.json subscribers when an import brings only an unverified review (one more received)', async () => {
    const server = await hubServer();
    const [atomSub, feedSub, reviewsSub] = await subscribedToEveryTopic(server, 'unverified');
    const revision = (await server.store.currentVersion()).revision;

    await importReviews(server, [newReview({ verified: false, text: 'Not verified: never published.' })]);
    expect((await server.store.currentVersion()).revision).toBeGreaterThan(revision);
    await until(() => posts(reviewsSub!.path).length === 1, 10_000, 'the /reviews.json subscriber to be notified');
    await serverCaughtUp(server);
    await sleep(QUIET_MS);
    const dataset = JSON.parse(posts(reviewsSub!.path)[0]!.body.toString('utf8')) as {
      verification: { unmatched: number };
      reviews: { text: string }[];
    };
    expect(dataset.verification.unmatched).toBe(1);
    expect(dataset.reviews.some((r) => r.text.startsWith('Not verified'))).toBe(false);
    expect(posts(atomSub!.path)).toHaveLength(0);
    expect(posts(feedSub!.path)).toHaveLength(0);
  });

  it("keeps the callback's own query parameters: hub.* are appended after them, and notifications go to the callback as given", async () => {
    const server = await hubServer();
    const topic = server.topics.jsonFeed;
    const query = '?subscriber=alpha&token=a%20b%26c&hub.note=mine';
    const cb = await activeSubscription(server, topic, 'with-query', { query });

    const [challenge] = subscriber.requests(cb.path, 'GET');
    expect(challenge?.query.get('subscriber')).toBe('alpha');
    expect(challenge?.query.get('token')).toBe('a b&c');
    expect(challenge?.query.get('hub.note')).toBe('mine');
    expect(challenge?.query.get('hub.mode')).toBe('subscribe');
    expect(challenge?.query.get('hub.topic')).toBe(topic);
    expect(challenge?.query.get('hub.challenge')).toBeTruthy();
    expect([...challenge!.query.keys()].slice(0, 3)).toEqual(['subscriber', 'token', 'hub.note']);

    await importReviews(server, [newReview()]);
    await until(() => posts(cb.path).length === 1, 10_000, 'the notification');
    const [delivery] = posts(cb.path);
    expect([...delivery!.query]).toEqual([
      ['subscriber', 'alpha'],
      ['token', 'a b&c'],
      ['hub.note', 'mine'],
    ]);
  });

  it("preserves the callback's query string byte for byte, appending hub.* with '&' (W3C WebSub §5.1)", async () => {
    const server = await hubServer();
    const topic = server.topics.reviews;
    const endpoint = await Listener.start((request, response) => {
      if (request.method === 'GET') echoChallenge(request, response);
      else response.writeHead(204).end();
    });
    try {
      // Valid as given, but not in the form a form-encoder would write: '~' unescaped, a bare flag, %20 for a space.
      const own = '/raw?sig=ab~cd&flag&name=a%20b';
      const url = endpoint.url(own);
      expect((await subscribe(server, topic, url)).status).toBe(202);
      await until(() => endpoint.received.some((r) => r.method === 'GET'), 10_000, 'the challenge GET');
      const [challenge] = endpoint.received;
      expect.soft(challenge!.target.startsWith(`${own}&hub.`), `challenge sent to ${challenge!.target}`).toBe(true);

      await waitForState(server, topic, url, 'active');
      await importReviews(server, [newReview()]);
      await until(() => endpoint.received.some((r) => r.method === 'POST'), 10_000, 'the notification');
      expect(endpoint.received.find((r) => r.method === 'POST')?.target).toBe(own);
    } finally {
      await endpoint.close();
    }
  });
});

describe('hub request validation', () => {
  let server: HubServer;
  let good: { topic: string; callback: string };

  beforeAll(async () => {
    server = await startHubServer(`${dir.path}/validation.db`);
    good = { topic: server.topics.atom, callback: subscriber.url('/validation-never-called') };
  });
  afterAll(async () => {
    await server.close();
  });

  const form = (overrides: Record<string, string | undefined>): Record<string, string> => {
    const fields: Record<string, string | undefined> = {
      'hub.mode': 'subscribe',
      'hub.topic': good.topic,
      'hub.callback': good.callback,
      ...overrides,
    };
    return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
  };

  const invalid: [string, () => Record<string, string | undefined>][] = [
    ['hub.mode is missing', () => ({ 'hub.mode': undefined })],
    ['hub.mode is unknown', () => ({ 'hub.mode': 'publish' })],
    ['hub.mode is in the wrong case', () => ({ 'hub.mode': 'SUBSCRIBE' })],
    ['hub.topic is missing', () => ({ 'hub.topic': undefined })],
    ['hub.topic is another path of the service', () => ({ 'hub.topic': `${server.url}/insights.json` })],
    ['hub.topic is on another origin', () => ({ 'hub.topic': 'https://example.com/feed.xml' })],
    ['hub.topic carries a query string', () => ({ 'hub.topic': `${server.topics.atom}?x=1` })],
    ['hub.callback is missing', () => ({ 'hub.callback': undefined })],
    ['hub.callback is empty', () => ({ 'hub.callback': '' })],
    ['hub.callback is relative', () => ({ 'hub.callback': '/callback' })],
    ['hub.callback is not a URL', () => ({ 'hub.callback': 'not a url' })],
    ['hub.callback is plain http://', () => ({ 'hub.callback': good.callback.replace('https:', 'http:') })],
    ['hub.callback is another scheme', () => ({ 'hub.callback': 'ftp://127.0.0.1/callback' })],
    [
      'hub.callback carries a user and password',
      () => ({ 'hub.callback': good.callback.replace('https://', 'https://user:pass@') }),
    ],
    ['hub.callback carries a user', () => ({ 'hub.callback': good.callback.replace('https://', 'https://user@') })],
    ['hub.secret is 200 ASCII bytes', () => ({ 'hub.secret': 's'.repeat(200) })],
    ['hub.secret is 200 bytes in 100 characters', () => ({ 'hub.secret': 'é'.repeat(100) })],
    ['hub.lease_seconds is a fraction', () => ({ 'hub.lease_seconds': '1.5' })],
    ['hub.lease_seconds is negative', () => ({ 'hub.lease_seconds': '-60' })],
    ['hub.lease_seconds is not a number', () => ({ 'hub.lease_seconds': 'forever' })],
    ['hub.lease_seconds is in exponent notation', () => ({ 'hub.lease_seconds': '1e4' })],
  ];

  it.each(invalid)('answers 400 in plain text when %s, and stores and calls nothing', async (_name, overrides) => {
    const before = await server.store.websub.list();
    const answer = await hubRequest(server, form(overrides()));
    expect(answer.status).toBe(400);
    expect(answer.contentType).toMatch(/^text\/plain\b/);
    expect(answer.text.trim().length).toBeGreaterThan(5);
    expect(await server.store.websub.list()).toEqual(before);
    expect(subscriber.requests('/validation-never-called')).toHaveLength(0);
  });

  it('accepts a secret of 199 bytes', async () => {
    const cb = callback('secret-199');
    expect(
      (await hubRequest(server, form({ 'hub.callback': cb.url, 'hub.secret': 'é'.repeat(99) + 's' }))).status,
    ).toBe(202);
    const row = await waitForState(server, good.topic, cb.url, 'active');
    expect(Buffer.byteLength(row!.secret!)).toBe(199);
  });

  it('ignores unknown parameters (202, then verified as usual)', async () => {
    const cb = callback('unknown-params');
    const answer = await hubRequest(
      server,
      form({ 'hub.callback': cb.url, 'hub.unknown': 'x', colour: 'blue', 'hub.lease_seconds': '' }),
    );
    expect(answer.status).toBe(202);
    await waitForState(server, good.topic, cb.url, 'active');
    const [challenge] = subscriber.requests(cb.path, 'GET');
    expect(challenge?.query.has('colour')).toBe(false);
    expect(challenge?.query.has('hub.unknown')).toBe(false);
  });

  it('answers GET on the hub with 405 and Allow: POST, in plain text', async () => {
    const response = await fetch(server.hubUrl);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(response.headers.get('content-type')).toMatch(/^text\/plain\b/);
    expect((await response.text()).trim()).not.toBe('');
  });

  it.each([
    ['application/json', JSON.stringify({ 'hub.mode': 'subscribe' })],
    ['text/plain', 'hub.mode=subscribe'],
    [
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="hub.mode"\r\n\r\nsubscribe\r\n--x--\r\n',
    ],
  ])('answers a %s body with 415 in plain text', async (contentType, body) => {
    const answer = await hubRequest(server, {}, { contentType, body });
    expect(answer.status).toBe(415);
    expect(answer.contentType).toMatch(/^text\/plain\b/);
    expect(answer.text.trim()).toMatch(/x-www-form-urlencoded/);
  });
});

describe('hub limits', () => {
  it('answers the 6th request in a minute from one client with 429 and Retry-After when the limit is 5', async () => {
    const server = await hubServer({ WEBSUB_RATE_LIMIT_PER_MINUTE: '5' });
    // The limit is a fixed one-minute window: start well inside one so all six requests share it.
    await until(() => Date.now() % 60_000 < 55_000, 6000, 'a fresh part of the minute');
    const answers = [];
    for (let i = 0; i < 6; i++) {
      answers.push(
        await hubRequest(server, {
          'hub.mode': 'subscribe',
          'hub.topic': server.topics.atom,
          'hub.callback': callback(`rate-${i}`).url,
        }),
      );
    }
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    const limited = answers[5]!;
    expect(limited.status).toBe(429);
    expect(limited.contentType).toMatch(/^text\/plain\b/);
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60);
    expect(Number.isInteger(Number(limited.retryAfter))).toBe(true);
  });

  it('refuses a third distinct callback on a topic with 409 when the cap is 2, and still lets an existing one re-subscribe', async () => {
    const server = await hubServer({ WEBSUB_MAX_SUBSCRIBERS_PER_TOPIC: '2' });
    const topic = server.topics.reviews;
    const first = await activeSubscription(server, topic, 'cap-1', { extra: { 'hub.lease_seconds': '3600' } });
    await activeSubscription(server, topic, 'cap-2');
    const third = callback('cap-3');

    const refused = await subscribe(server, topic, third.url);
    expect(refused.status).toBe(409);
    expect(refused.contentType).toMatch(/^text\/plain\b/);
    await sleep(200);
    expect(subscriber.requests(third.path)).toHaveLength(0);
    expect(await server.store.websub.get(topic, third.url)).toBeUndefined();

    // Another topic has its own cap.
    await activeSubscription(server, server.topics.atom, 'cap-other-topic');

    expect((await subscribe(server, topic, first.url, { 'hub.lease_seconds': '7200' })).status).toBe(202);
    await until(
      async () => (await server.store.websub.get(topic, first.url))?.leaseSeconds === 7200,
      10_000,
      'the renewed lease',
    );
  });
});

describe('the per-client cap', () => {
  it('refuses a client its third pending or active subscription across topics with 409; another client is counted apart', async () => {
    const server = await hubServer({ WEBSUB_MAX_SUBSCRIPTIONS_PER_CLIENT: '2', TRUST_PROXY: '127.0.0.1' });
    const from = (client: string, topic: string, url: string) =>
      fetch(`${server.url}/api/websub/hub`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': client },
        body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': topic, 'hub.callback': url }).toString(),
      });
    const [a, b, c, d] = ['per-client-a', 'per-client-b', 'per-client-c', 'per-client-d'].map((prefix) =>
      callback(prefix),
    );
    expect((await from('2001:db8:5::1', server.topics.reviews, a!.url)).status).toBe(202);
    expect((await from('2001:db8:5::2', server.topics.atom, b!.url)).status).toBe(202);
    await waitForState(server, server.topics.atom, b!.url, 'active');
    // The same /64, another topic: still the same client.
    const refused = await from('2001:db8:5::3', server.topics.jsonFeed, c!.url);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('This client has as many subscriptions');
    expect((await from('203.0.113.9', server.topics.jsonFeed, d!.url)).status).toBe(202);
    // A subscription it holds may still be renewed.
    expect((await from('2001:db8:5::1', server.topics.reviews, a!.url)).status).toBe(202);
  });
});

describe('the operator view', () => {
  it('`reviews subscriptions` lists every subscription with state, lease expiry, failures and last delivery', async () => {
    // A long retry delay keeps a failed delivery's count at 1 while the listing is taken.
    const server = await hubServer({ WEBSUB_RETRY_DELAYS_MS: '600000' });
    const ok = await activeSubscription(server, server.topics.jsonFeed, 'listed-ok');
    const failing = callback('listed-failing', { deliveries: [500] });
    expect((await subscribe(server, server.topics.reviews, failing.url)).status).toBe(202);
    await waitForState(server, server.topics.reviews, failing.url, 'active');
    const refused = callback('listed-refused', { verify: 'wrong-body' });
    expect((await subscribe(server, server.topics.atom, refused.url)).status).toBe(202);
    await waitForState(server, server.topics.atom, refused.url, 'rejected');

    await importReviews(server, [newReview()]);
    await until(
      async () => (await server.store.websub.get(server.topics.jsonFeed, ok.url))?.lastDeliveryAt != null,
      10_000,
      'the delivery to be recorded',
    );
    await until(
      async () => (await server.store.websub.get(server.topics.reviews, failing.url))?.failures === 1,
      10_000,
      'the failure to be recorded',
    );

    const result = await runCli(['subscriptions'], server.databaseUrl);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/state\s+topic\s+callback\s+lease expires\s+failures\s+last delivery/);
    const line = (url: string) => lines.find((l) => l.includes(`${url} `)) ?? '';

    const okRow = (await server.store.websub.get(server.topics.jsonFeed, ok.url))!;
    expect(line(ok.url)).toMatch(/^active\s/);
    expect(line(ok.url)).toContain(okRow.expiresAt!);
    expect(line(ok.url)).toMatch(
      new RegExp(`\\s0\\s+${okRow.lastDeliveryAt!.replace(/[.]/g, '\\.')} delivered \\(200\\)$`),
    );

    const failingRow = (await server.store.websub.get(server.topics.reviews, failing.url))!;
    expect(line(failing.url)).toMatch(/^active\s/);
    expect(line(failing.url)).toContain(failingRow.expiresAt!);
    expect(line(failing.url)).toMatch(/\s1\s+\S+ failed: HTTP 500$/);

    expect(line(refused.url)).toMatch(/^rejected\s.*\s-\s+0\s+-$/);
    expect(lines[lines.length - 1]).toMatch(/^3 subscriptions: /);
    expect(lines[lines.length - 1]).toContain('2 active');
    expect(lines[lines.length - 1]).toContain('1 rejected');
  });
});
