// Hostile WebSub callbacks: with the private-address allowance off none of them ever receives a request; redirects are never followed.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribe } from './support/hub-subscribe.js';
import { Listener } from './support/listener.js';
import { newReview } from './support/reviews.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';
import { Subscriber } from './support/subscriber.js';
import { until } from './support/wait.js';

const dir = tempDir('reviews-websub-safety-');
const TOPIC = '/reviews.json';

/** Allowance off: the configuration every real deployment runs. */
let guarded: RunningServer;
/** A real HTTPS listener on loopback that no hostile callback may ever reach. */
let listener: Subscriber;

beforeAll(async () => {
  listener = await Subscriber.start();
  guarded = await startServer(`${dir.path}/guarded.db`, { WEBSUB_RATE_LIMIT_PER_MINUTE: '1000' });
});

afterAll(async () => {
  await guarded?.close();
  await listener?.close();
  dir.remove();
});

/** Names that /etc/hosts maps to a loopback address, besides localhost (ip6-localhost, the host's own name…). */
function loopbackNames(): string[] {
  const names = new Set(['localhost']);
  let hosts = '';
  try {
    hosts = readFileSync('/etc/hosts', 'utf8');
  } catch {
    return [...names];
  }
  for (const line of hosts.split('\n')) {
    const [address, ...aliases] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (!address || isIP(address) === 0) continue;
    if (!(address.startsWith('127.') || address === '::1')) continue;
    for (const alias of aliases) if (alias) names.add(alias.toLowerCase());
  }
  return [...names];
}

describe('hostile callbacks with WEBSUB_ALLOW_PRIVATE_CALLBACKS off', () => {
  const port = () => listener.port;
  const refusedAtOnce: [string, () => string][] = [
    ['IPv4 loopback', () => `https://127.0.0.1:${port()}/loopback`],
    ['IPv4 loopback written as one decimal number', () => `https://2130706433:${port()}/decimal`],
    ['IPv4 loopback in short form', () => `https://127.1:${port()}/short`],
    ['IPv4 loopback with a hex octet', () => `https://0x7f.0.0.1:${port()}/hex`],
    ['IPv4 loopback with an octal octet', () => `https://0177.0.0.1:${port()}/octal`],
    ['IPv4 loopback with a trailing dot', () => `https://127.0.0.1.:${port()}/trailing-dot`],
    ['IPv4 loopback percent-encoded', () => `https://%31%32%37.0.0.1:${port()}/percent`],
    ['IPv4 loopback with ideographic full stops', () => `https://127\u30020\u30020\u30021:${port()}/ideographic`],
    ['"0", which the URL parser reads as 0.0.0.0', () => `https://0:${port()}/zero`],
    ['IPv6 loopback', () => `https://[::1]:${port()}/v6-loopback`],
    ['IPv4-mapped IPv6 loopback', () => `https://[::ffff:127.0.0.1]:${port()}/mapped`],
    ['IPv4-compatible IPv6 loopback', () => `https://[::127.0.0.1]:${port()}/compatible`],
    ['NAT64 of loopback', () => `https://[64:ff9b::127.0.0.1]:${port()}/nat64`],
    ['unspecified 0.0.0.0 (reaches loopback on Linux)', () => `https://0.0.0.0:${port()}/unspecified`],
    ['IPv6 unspecified', () => `https://[::]:${port()}/v6-unspecified`],
    ['private 10/8', () => 'https://10.0.0.1/'],
    ['private 172.16/12', () => 'https://172.16.0.1/'],
    ['private 192.168/16', () => 'https://192.168.1.1/'],
    ['CGNAT 100.64/10', () => 'https://100.64.0.1/'],
    ['cloud metadata 169.254.169.254', () => 'https://169.254.169.254/latest/meta-data/'],
    ['IPv4-mapped cloud metadata', () => 'https://[::ffff:169.254.169.254]/'],
    ['IPv6 link-local', () => 'https://[fe80::1]/'],
    ['IPv6 unique-local', () => 'https://[fd00::1]/'],
    ['IPv4 multicast', () => 'https://224.0.0.1/'],
    ['IPv6 multicast', () => 'https://[ff02::1]/'],
    ['userinfo on a public name', () => 'https://user:pass@example.com/'],
    ['userinfo on loopback', () => `https://user@127.0.0.1:${port()}/userinfo`],
    ['plain http to a public name', () => 'http://example.com/callback'],
    ['plain http to loopback', () => `http://127.0.0.1:${port()}/http`],
    ['a relative URL', () => '/callback'],
  ];

  it.each(refusedAtOnce)(
    'refuses a callback at once with 400 and a plain-text reason: %s',
    async (_name, callbackOf) => {
      const callback = callbackOf();
      const answer = await subscribe(guarded.url, TOPIC, callback);
      expect(answer.status, answer.text).toBe(400);
      expect(answer.contentType).toMatch(/^text\/plain/);
      expect(answer.text.trim().length).toBeGreaterThan(0);
      if (URL.canParse(callback)) {
        expect(await guarded.store.websub.get(`${guarded.url}${TOPIC}`, new URL(callback).href)).toBeUndefined();
      }
    },
  );

  it.each(loopbackNames())(
    'accepts the name %s with 202, then refuses it when connecting: the subscription never becomes active',
    async (name) => {
      const callback = `https://${name}:${listener.port}/name-${name}`;
      const answer = await subscribe(guarded.url, TOPIC, callback);
      expect(answer.status, answer.text).toBe(202);
      const topic = `${guarded.url}${TOPIC}`;
      const href = new URL(callback).href;
      const settled = await until(
        async () => {
          const subscription = await guarded.store.websub.get(topic, href);
          return subscription && subscription.state !== 'pending' ? subscription : undefined;
        },
        10_000,
        `the verification of ${callback} to end`,
      );
      expect(settled.state).toBe('rejected');
      expect(listener.received).toEqual([]);
    },
  );

  it('checks the address again at every delivery: an active subscription whose name now resolves to loopback gets nothing', async () => {
    // As if verified while the name resolved to a public address, then rebound to loopback (DNS rebinding).
    const topic = `${guarded.url}${TOPIC}`;
    const callback = `https://localhost:${listener.port}/rebound`;
    const now = new Date();
    await guarded.store.websub.activate(
      topic,
      callback,
      { secret: null, leaseSeconds: 3600, expiresAt: new Date(now.getTime() + 3600_000).toISOString() },
      now.toISOString(),
    );
    await publish(guarded, { reviews: [newReview({ id: 'safety-1' })], replace: false });
    const failed = await until(
      async () => {
        const subscription = await guarded.store.websub.get(topic, callback);
        return subscription && subscription.failures > 0 ? subscription : undefined;
      },
      10_000,
      'the delivery to the rebound name to fail',
    );
    expect(failed.failures).toBe(1);
    expect(failed.lastDeliveryResult).toMatch(/non-public address/);
    expect(listener.received).toEqual([]);
  });

  it('the loopback listener received nothing from any hostile callback', async () => {
    expect(listener.received).toEqual([]);
  });
});

describe('no redirects are followed (allowance on, so only the redirect itself could be at fault)', () => {
  const REDIRECTS = [301, 302, 303, 307, 308] as const;
  let open: RunningServer;
  let target: Subscriber;
  let redirector: Listener;

  beforeAll(async () => {
    target = await Subscriber.start();
    // Every target path would pass verification and accept deliveries: following a redirect would show there.
    redirector = await Listener.start((request, response) => {
      const redirectTo = `${target.url(`/target${request.path}`)}${new URL(request.target, 'https://redirector').search}`;
      const challenge = request.query.get('hub.challenge') ?? '';
      if (request.path === '/verify-redirect')
        return void response.writeHead(302, { location: redirectTo }).end(challenge);
      const status = Number(/^\/deliver-(\d+)$/.exec(request.path)?.[1] ?? 200);
      if (request.method === 'GET') return void response.writeHead(200).end(challenge);
      response.writeHead(status, { location: redirectTo }).end();
    });
    open = await startServer(`${dir.path}/open.db`, {
      WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
      WEBSUB_RATE_LIMIT_PER_MINUTE: '1000',
    });
  });

  afterAll(async () => {
    await open?.close();
    await redirector?.close();
    await target?.close();
  });

  it('verifies a loopback name when the allowance is on (the refusals above come from the address check)', async () => {
    const control = target.url('/control', {}, 'localhost');
    expect((await subscribe(open.url, TOPIC, control)).status).toBe(202);
    await until(
      async () => (await open.store.websub.get(`${open.url}${TOPIC}`, control))?.state === 'active',
      10_000,
      'the control subscription to be active',
    );
    expect(target.requests('/control', 'GET')).toHaveLength(1);
  });

  it('fails a verification answered with a 302 and never asks the redirect target', async () => {
    const callback = redirector.url('/verify-redirect');
    expect((await subscribe(open.url, TOPIC, callback)).status).toBe(202);
    const settled = await until(
      async () => {
        const subscription = await open.store.websub.get(`${open.url}${TOPIC}`, callback);
        return subscription && subscription.state !== 'pending' ? subscription : undefined;
      },
      10_000,
      'the verification to end',
    );
    expect(settled.state).toBe('rejected');
    expect(redirector.requests('/verify-redirect')).toHaveLength(1);
    expect(target.requests('/target/verify-redirect')).toEqual([]);
  });

  describe('a delivery answered with a redirect', () => {
    beforeAll(async () => {
      for (const status of REDIRECTS) {
        const callback = redirector.url(`/deliver-${status}`);
        expect((await subscribe(open.url, TOPIC, callback)).status).toBe(202);
        await until(
          async () => (await open.store.websub.get(`${open.url}${TOPIC}`, callback))?.state === 'active',
          10_000,
          `${callback} to be active`,
        );
      }
      await publish(open, { reviews: [newReview({ id: 'redirect-1' })], replace: false });
    });

    it.each(REDIRECTS)('answered %i counts as a failure and is not followed', async (status) => {
      const callback = redirector.url(`/deliver-${status}`);
      const failed = await until(
        async () => {
          const subscription = await open.store.websub.get(`${open.url}${TOPIC}`, callback);
          return subscription && subscription.failures > 0 ? subscription : undefined;
        },
        10_000,
        `a failed delivery to ${callback}`,
      );
      expect(failed.failures).toBe(1);
      expect(failed.state).toBe('active');
      expect(failed.lastDeliveryResult).toContain(`HTTP ${status}`);
      expect(redirector.requests(`/deliver-${status}`, 'POST')).toHaveLength(1);
      // Following would have reached the target before the attempt was settled.
      expect(target.requests(`/target/deliver-${status}`)).toEqual([]);
    });
  });
});
