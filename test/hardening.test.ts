// The audit's hardening: imports take only http(s) URLs, a GET or HEAD cannot make the server read a large body,
// a person refused a search gets a page, an empty filter is no search, and /metrics opens to whom the operator says.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/open.js';
import { newReview } from './support/reviews.js';
import { publish, runCli, serverPerBlock, tempDir, writeJson } from './support/server.js';

const dir = tempDir();
afterAll(() => dir.remove());

const business = {
  name: 'Hardened Heating',
  areaServed: ['Northside'],
  services: [{ id: 'ac-repair', name: 'AC Repair', category: 'cooling' }],
  technicians: [{ name: 'Sam Lee' }],
};

async function storedData(databaseUrl: string) {
  const store = await openStore(databaseUrl);
  try {
    return await store.readPublished();
  } finally {
    await store.close();
  }
}

describe('URLs in an import', () => {
  let imports = 0;
  const importBusiness = async (url: string) => {
    const db = `sqlite:${dir.path}/import-${++imports}.db`;
    const file = writeJson(`${dir.path}/import-${imports}.json`, {
      business: { ...business, url },
      reviews: [newReview({ services: ['ac-repair'] })],
    });
    return { db, file, result: await runCli(['import', file], db) };
  };

  it.each([
    'javascript:alert(document.cookie)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://files.example.com/',
    'mailto:owner@example.com',
    'http:example.com',
  ])('refuses business.url %s, naming the field, and stores nothing', async (url) => {
    const { db, file, result } = await importBusiness(url);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(`${file}: business: business.url: must be an absolute http:// or https:// URL`);
    expect(result.stderr).toContain('nothing was changed');
    const data = await storedData(db);
    expect(data.business).toBeNull();
    expect(data.reviews).toEqual([]);
  });

  it('takes http and https URLs, and refuses the same file with any other scheme', async () => {
    for (const url of ['https://hardened.example.com/', 'http://hardened.example.com']) {
      const { db, result } = await importBusiness(url);
      expect(result.code, result.stderr).toBe(0);
      expect((await storedData(db)).business?.url).toBe(url);
    }
    expect((await importBusiness('javascript:void(0)')).result.code).toBe(1);
  });
});

describe('a business URL stored before imports required http(s)', () => {
  const server = serverPerBlock(`${dir.path}/legacy-url.db`);
  beforeAll(async () => {
    // Written through the store, as an import before this check could have: the site must still serve it.
    await publish(server(), {
      business: { ...business, url: 'javascript:alert(1)' },
      reviews: [newReview()],
      replace: true,
    });
  });

  it('is served, but never as a link on the home page', async () => {
    const res = await fetch(`${server().url}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Hardened Heating');
    expect(html).not.toMatch(/href="javascript:/i);
  });
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether the server closed the connection after answering (the client never does here). */
  closedByServer: Promise<boolean>;
}

/**
 * A request over real HTTP with `body`; with `complete: false` the body is the start of a larger one (as `headers`
 * announce) and the request stays unfinished: the answer arrives while the client is still "sending".
 */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer,
  complete = true,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      const closedByServer = new Promise<boolean>((closed) => {
        const timer = setTimeout(() => closed(false), 5000);
        req.socket?.once('close', () => {
          clearTimeout(timer);
          closed(true);
        });
      });
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          closedByServer,
        });
        void closedByServer.then(() => req.destroy());
      });
    });
    req.on('error', reject);
    if (complete) req.end(body);
    else req.write(body);
  });
}

describe('GET and HEAD with a body', () => {
  const server = serverPerBlock(`${dir.path}/get-body.db`);
  const TEN_MIB = 10 * 1024 * 1024;

  it('refuses a GET announcing 10 MiB of body with 413 in the error shape, before reading it, and closes the connection', async () => {
    const refused = await send(
      server().url,
      'GET',
      { 'content-length': String(TEN_MIB) },
      Buffer.alloc(16 * 1024, 'a'),
      false,
    );
    expect(refused.status).toBe(413);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: 'payload_too_large',
      message: expect.stringContaining('1024 bytes'),
    });
    expect(refused.headers.connection).toBe('close');
    // Answered and closed with 16 KiB of the 10 MiB sent: the rest was never waited for.
    expect(await refused.closedByServer).toBe(true);
    // A few bytes of body are tolerated, and a GET without one is as ever.
    const small = await send(
      server().url,
      'GET',
      { 'content-length': '2', 'content-type': 'application/json' },
      Buffer.from('{}'),
    );
    expect(small.status).toBe(200);
    expect((await fetch(`${server().url}/`)).status).toBe(200);
  });

  it('refuses a chunked GET body (its length unknown until read) and a HEAD with a large one', async () => {
    const chunked = await send(server().url, 'GET', { 'transfer-encoding': 'chunked' }, Buffer.alloc(2048, 'b'), false);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ error: 'payload_too_large' });
    const head = await send(server().url, 'HEAD', { 'content-length': '5000' }, Buffer.alloc(5000, 'c'));
    expect(head.status).toBe(413);
    expect(head.headers.connection).toBe('close');
  });
});

describe('a refused search on the home page', () => {
  const server = serverPerBlock(`${dir.path}/page-429.db`, { RATE_LIMIT_QUERIES_PER_MINUTE: '2' });

  it('is an HTML page in the site style with 429 and Retry-After; a client asking for JSON gets the JSON error', async () => {
    const search = (headers: Record<string, string> = {}) => fetch(`${server().url}/?query=water`, { headers });
    expect((await search()).status).toBe(200);
    expect((await search()).status).toBe(200);
    const page = await search({ accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(page.status).toBe(429);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<header class="site">');
    expect(html).toContain('Too many searches');
    expect(html).toContain('<meta name="robots" content="noindex">');
    const json = await search({ accept: 'application/json' });
    expect(json.status).toBe(429);
    expect(json.headers.get('retry-after')).not.toBeNull();
    expect(await json.json()).toMatchObject({ error: 'too_many_requests' });
  });
});

describe('an empty filter on the home page', () => {
  const server = serverPerBlock(`${dir.path}/empty-filter.db`, { RATE_LIMIT_QUERIES_PER_MINUTE: '2' });

  it('is no search: it does not count against the allowance, and the page is the plain listing', async () => {
    const url = server().url;
    for (const query of [
      'query=',
      'query=',
      'query=',
      'query=&rating=&mentions_technician=',
      'since=&until=',
      'query=',
    ]) {
      const res = await fetch(`${url}/?${query}`);
      expect(res.status, query).toBe(200);
      expect(await res.text(), query).toContain(`<link rel="canonical" href="${url}/">`);
    }
    // The allowance is still there for real searches.
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${url}/?query=water`)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('who may read /metrics', () => {
  const TOKEN = 'metrics-token-0123456789abcdef';
  const open = serverPerBlock(`${dir.path}/metrics-open.db`);
  const outside = serverPerBlock(`${dir.path}/metrics-outside.db`, { METRICS_ALLOW: '10.0.0.0/8' });
  const loopback = serverPerBlock(`${dir.path}/metrics-loopback.db`, { METRICS_ALLOW: '127.0.0.1' });
  const token = serverPerBlock(`${dir.path}/metrics-token.db`, { METRICS_ALLOW: '10.0.0.0/8', METRICS_TOKEN: TOKEN });
  const proxied = serverPerBlock(`${dir.path}/metrics-proxied.db`, {
    METRICS_ALLOW: '10.0.0.0/8, 192.0.2.7, 2001:db8::/32',
    TRUST_PROXY: '127.0.0.1',
  });
  const metrics = (url: string, headers: Record<string, string> = {}) => fetch(`${url}/metrics`, { headers });

  it('is everyone while neither setting is set; with METRICS_ALLOW, a client outside it gets 403 in the error shape', async () => {
    const everyone = await metrics(open().url);
    expect(everyone.status).toBe(200);
    expect(await everyone.text()).toContain('reviews_published');
    const refused = await metrics(outside().url);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const body = await refused.text();
    expect(JSON.parse(body)).toMatchObject({ error: 'forbidden', message: expect.stringContaining('METRICS_ALLOW') });
    expect(body).not.toContain('reviews_published');
    expect((await fetch(`${outside().url}/metrics`, { method: 'HEAD' })).status).toBe(403);
    expect((await metrics(loopback().url)).status).toBe(200);
  });

  it('opens to the bearer token of METRICS_TOKEN, and only to the whole token', async () => {
    const url = token().url;
    expect((await metrics(url)).status).toBe(403);
    expect((await metrics(url, { authorization: `Bearer ${TOKEN.slice(0, -1)}` })).status).toBe(403);
    expect((await metrics(url, { authorization: `Bearer ${TOKEN}x` })).status).toBe(403);
    expect(
      (await metrics(url, { authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` })).status,
    ).toBe(403);
    const allowed = await metrics(url, { authorization: `Bearer ${TOKEN}` });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('reviews_published');
    expect((await metrics(url, { authorization: `bearer ${TOKEN}` })).status).toBe(200);
    // The token opens /metrics only: it is no key to anything else, and nothing else needs one.
    expect((await fetch(`${url}/reviews.json`)).status).toBe(200);
  });

  it('matches the client address TRUST_PROXY reads against addresses and IPv4 and IPv6 blocks', async () => {
    const from = async (address: string) => (await metrics(proxied().url, { 'x-forwarded-for': address })).status;
    expect(await from('10.20.30.40')).toBe(200);
    expect(await from('192.0.2.7')).toBe(200);
    expect(await from('2001:db8::5')).toBe(200);
    expect(await from('::ffff:10.1.2.3')).toBe(200);
    expect(await from('192.0.2.8')).toBe(403);
    expect(await from('11.0.0.1')).toBe(403);
    expect(await from('2001:db9::1')).toBe(403);
    // The proxy itself (loopback) is not in METRICS_ALLOW.
    expect((await metrics(proxied().url)).status).toBe(403);
  });

  it('refuses to start with a METRICS_ALLOW entry that is not an address or CIDR block, naming it', () => {
    const loaded = loadConfig({ METRICS_ALLOW: '10.0.0.0/8, 10.0.0.0/33, localhost, 2001:db8::/32' });
    expect(loaded.ok).toBe(false);
    const problems = loaded.ok ? [] : loaded.problems;
    expect(problems.some((p) => p.startsWith('METRICS_ALLOW:') && p.includes('"10.0.0.0/33"'))).toBe(true);
    expect(problems.some((p) => p.startsWith('METRICS_ALLOW:') && p.includes('"localhost"'))).toBe(true);
    expect(problems.join('\n')).not.toContain('2001:db8::/32');
  });

  it('is described: who may read it, and the 403', async () => {
    const document = (await (await fetch(`${open().url}/.well-known/openapi.json`)).json()) as {
      paths: Record<
        string,
        { get: { description: string; responses: Record<string, { content?: Record<string, unknown> }> } }
      >;
    };
    const operation = document.paths['/metrics']!.get;
    expect(operation.description).toContain('METRICS_ALLOW');
    expect(operation.description).toContain('METRICS_TOKEN');
    expect(Object.keys(operation.responses['403']?.content ?? {})).toEqual(['application/json']);
    expect(Object.keys(document.paths['/']!.get.responses['429']?.content ?? {})).toContain('text/html');
  });
});
