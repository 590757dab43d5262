// What every public API has: CORS, JSON errors without internals, ignored credentials, OpenAPI, empty and full datasets.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InsightsDocument } from '../src/reviews/insights-document.js';
import { AspectId, JsonFeedDocument, type Business, type ImportedReview, type Review } from '../src/reviews/schemas.js';
import { newBusiness } from './support/business.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';
import { header, headerList, rawRequest, type RawResponse, type RawRequestOptions } from './support/wire.js';

const dir = tempDir();
let server: RunningServer;
let empty: RunningServer;

// The reviews name these services and technicians, so the business has them in place of the factory's.
const business = newBusiness({
  name: 'Northside Plumbing & Air',
  url: 'https://northside.example/',
  telephone: '+1 555 0199',
  address: { addressLocality: 'Springfield', addressRegion: 'IL', addressCountry: 'US' },
  areaServed: ['Springfield'],
  services: [
    { id: 'water-heater', name: 'Water heater install', category: 'plumbing' },
    { id: 'ac-tune-up', name: 'AC tune-up', category: 'cooling' },
  ],
  technicians: [{ name: 'Sam Lee' }, { name: 'Priya Shah' }],
});

const filler =
  ' The crew confirmed the appointment the evening before, protected the floors, explained every step and cleaned up afterwards.';
const text = (summary: string) => `${summary}${filler.repeat(4)}`;

const verified: ImportedReview[] = [
  {
    id: 'hb-a',
    date: '2024-05-01',
    rating: 5,
    text: text('New water heater in one morning.'),
    author: 'Ana B.',
    technicians: ['Sam Lee'],
    services: ['water-heater'],
    verified: true,
  },
  {
    id: 'hb-b',
    date: '2024-05-01',
    rating: 4,
    text: text('Good tune-up, a bit late.'),
    author: 'Ben C.',
    technicians: ['Priya Shah'],
    services: ['ac-tune-up'],
    serviceArea: 'Springfield',
    verified: true,
  },
  {
    id: 'hb-c',
    date: '2024-03-10',
    rating: 4,
    text: text('Fair price for the repair.'),
    author: 'Cleo D.',
    technicians: [],
    services: [],
    verified: true,
  },
  {
    id: 'hb-d',
    date: '2024-07-20',
    rating: 3,
    text: text('Fixed, but took two visits.'),
    author: 'Dev E.',
    technicians: ['Sam Lee'],
    services: [],
    title: 'Two visits',
    verified: true,
  },
  {
    id: 'hb-e',
    date: '2023-12-31',
    rating: 5,
    text: text('Came out on New Year’s Eve.'),
    author: 'Eve F.',
    technicians: [],
    services: [],
    response: { date: '2024-01-02', text: 'Thank you, Eve!' },
    verified: true,
  },
  {
    id: 'hb-f',
    date: '2024-05-01',
    rating: 1,
    text: text('Nobody called back.'),
    author: 'Finn G.',
    technicians: [],
    services: [],
    verified: true,
  },
];
const unverified: ImportedReview[] = [
  {
    id: 'hb-y',
    date: '2024-05-01',
    rating: 2,
    text: text('Unverified: never published.'),
    author: 'Yan H.',
    technicians: [],
    services: [],
    verified: false,
  },
  {
    id: 'hb-z',
    date: '2025-01-01',
    rating: 1,
    text: text('Unverified and newest: never published.'),
    author: 'Zed I.',
    technicians: [],
    services: [],
    verified: false,
  },
];

/** Date descending, then id descending. */
const NEWEST_FIRST = ['hb-d', 'hb-f', 'hb-b', 'hb-a', 'hb-c', 'hb-e'];

const READ_PATHS = [
  '/reviews.json',
  '/insights.json',
  '/api/feed.json',
  '/feed.xml',
  '/api/reviews/search?limit=5',
  '/api/reviews/since/2020-01-01',
  '/.well-known/openapi.json',
];

const call = (target: RunningServer, path: string, options: RawRequestOptions = {}): Promise<RawResponse> =>
  rawRequest(`${target.url}${path}`, options);
const get = (path: string, headers: Record<string, string> = {}) => call(server, path, { headers });
const json = <T>(res: RawResponse): T => JSON.parse(res.body.toString('utf8')) as T;

beforeAll(async () => {
  server = await startServer(`${dir.path}/http-basics.db`);
  await publish(server, { business, reviews: [...verified, ...unverified], replace: true });
  await server.app.publisher.insightsReady();
  empty = await startServer(`${dir.path}/http-basics-empty.db`);
  await empty.app.publisher.insightsReady();
});
afterAll(async () => {
  await server?.close();
  await empty?.close();
  dir.remove();
});

describe('CORS', () => {
  it.each(READ_PATHS)('GET %s allows any origin and exposes ETag, Last-Modified and Link', async (path) => {
    const res = await get(path, { origin: 'https://somewhere.example' });
    expect(res.status).toBe(200);
    expect(header(res, 'access-control-allow-origin')).toBe('*');
    expect(headerList(res, 'access-control-expose-headers')).toEqual(
      expect.arrayContaining(['etag', 'last-modified', 'link']),
    );
  });

  it.each([
    { request: 'GET /api/reviews/search?rating=9', method: 'GET', path: '/api/reviews/search?rating=9', status: 400 },
    { request: 'GET /api/reviews/since/yesterday', method: 'GET', path: '/api/reviews/since/yesterday', status: 400 },
    { request: 'GET /no/such/thing', method: 'GET', path: '/no/such/thing', status: 404 },
    { request: 'DELETE /reviews.json', method: 'DELETE', path: '/reviews.json', status: 405 },
  ])('the $status error of $request allows any origin too', async ({ method, path, status }) => {
    const res = await call(server, path, { method, headers: { origin: 'https://somewhere.example' } });
    expect(res.status).toBe(status);
    expect(header(res, 'access-control-allow-origin')).toBe('*');
    expect(headerList(res, 'access-control-expose-headers')).toEqual(
      expect.arrayContaining(['etag', 'last-modified', 'link']),
    );
  });

  it('answers a preflight asking for If-None-Match with 204, allowing it', async () => {
    const res = await call(server, '/reviews.json', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://somewhere.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match',
      },
    });
    expect(res.status).toBe(204);
    expect(res.body.length).toBe(0);
    expect(header(res, 'access-control-allow-origin')).toBe('*');
    expect(headerList(res, 'access-control-allow-headers')).toContain('if-none-match');
    expect(headerList(res, 'access-control-allow-methods')).toContain('get');
  });
});

interface ErrorBody {
  error: string;
  message: string;
  issues?: { path: (string | number)[]; message: string; code: string }[];
}

const LARGE_JSON = JSON.stringify({ padding: 'x'.repeat(70 * 1024) });

describe('errors', () => {
  it('an unknown path is 404 JSON naming not_found', async () => {
    const res = await get('/no/such/thing');
    expect(res.status).toBe(404);
    expect(header(res, 'content-type')).toMatch(/^application\/json/);
    const body = json<ErrorBody>(res);
    expect(body).toEqual({ error: 'not_found', message: expect.any(String) });
    expect(body.message.length).toBeGreaterThan(0);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])(
    '%s /reviews.json is 405 with an Allow of the read methods',
    async (method) => {
      const res = await call(server, '/reviews.json', { method });
      expect(res.status).toBe(405);
      expect(headerList(res, 'allow')).toEqual(expect.arrayContaining(['get', 'head']));
      expect(headerList(res, 'allow')).not.toContain(method.toLowerCase());
      expect(json<ErrorBody>(res).error).toBe('method_not_allowed');
    },
  );

  // No read route takes a body, so unknown paths and writes to read paths are refused before the body is read;
  // the 64 KiB body limit itself is exercised by the routes that take bodies (MCP, WebSub hub).
  it('a POST with a body over 64 KiB to an unknown path is 404 JSON, answered without reading the body', async () => {
    const res = await call(server, '/no/such/thing', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: LARGE_JSON,
    });
    expect(res.status).toBe(404);
    expect(json<ErrorBody>(res)).toEqual({ error: 'not_found', message: expect.any(String) });
  });

  it('a GET below the since route that matches no route is 404, not 405', async () => {
    const res = await call(server, '/api/reviews/since/2025-01-01/extra', { method: 'GET' });
    expect(res.status).toBe(404);
    expect(json<ErrorBody>(res).error).toBe('not_found');
  });

  it('a POST with a body over 64 KiB to a read-only resource is 405 with Allow', async () => {
    const res = await call(server, '/reviews.json', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: LARGE_JSON,
    });
    expect(res.status).toBe(405);
    expect(header(res, 'allow')).toBe('GET, HEAD, OPTIONS');
    expect(json<ErrorBody>(res).error).toBe('method_not_allowed');
  });

  it.each([
    {
      request: 'GET with bad search parameters',
      method: 'GET',
      path: '/api/reviews/search?rating=9&limit=0',
      body: undefined,
      type: undefined,
    },
    {
      request: 'GET with a bad since date',
      method: 'GET',
      path: '/api/reviews/since/2025-02-30',
      body: undefined,
      type: undefined,
    },
    { request: 'GET of an unknown path', method: 'GET', path: '/no/such/thing', body: undefined, type: undefined },
    {
      request: 'GET of a path under a real one',
      method: 'GET',
      path: '/reviews.json/extra',
      body: undefined,
      type: undefined,
    },
    {
      request: 'GET of a path under the since route',
      method: 'GET',
      path: '/api/reviews/since/2025-01-01/extra',
      body: undefined,
      type: undefined,
    },
    { request: 'DELETE of a dataset', method: 'DELETE', path: '/reviews.json', body: undefined, type: undefined },
    {
      request: 'POST of an oversized body',
      method: 'POST',
      path: '/no/such/thing',
      body: LARGE_JSON,
      type: 'application/json',
    },
    {
      request: 'POST of malformed JSON',
      method: 'POST',
      path: '/no/such/thing',
      body: '{"unterminated',
      type: 'application/json',
    },
    {
      request: 'POST of an unsupported media type',
      method: 'POST',
      path: '/no/such/thing',
      body: '<x/>',
      type: 'application/x-unknown',
    },
  ])(
    '$request answers { error, message, issues? } JSON, no-store, without internals',
    async ({ method, path, body, type }) => {
      const res = await call(server, path, {
        method,
        headers: type ? { 'content-type': type } : {},
        ...(body === undefined ? {} : { body }),
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(header(res, 'content-type')).toMatch(/^application\/json/);
      expect(header(res, 'cache-control')).toBe('no-store');
      const parsed = json<ErrorBody>(res);
      expect(Object.keys(parsed).every((k) => ['error', 'message', 'issues'].includes(k))).toBe(true);
      expect(parsed.error).toMatch(/^[a-z_]+$/);
      expect(typeof parsed.message).toBe('string');
      for (const issue of parsed.issues ?? []) expect(Object.keys(issue).sort()).toEqual(['code', 'message', 'path']);
      const raw = res.body.toString('utf8');
      expect(raw).not.toMatch(/\\n\s*at |\bat [^"]*?:\d+:\d+/); // stack frames: "at fn (file:line:column)"
      expect(raw).not.toMatch(/\/work\/|node_modules|[\w-]+\.[jt]s:\d+/); // file paths
    },
  );
});

describe('an Authorization header is ignored', () => {
  it.each(READ_PATHS.flatMap((path) => ['Bearer whatever', 'x'].map((authorization) => ({ path, authorization }))))(
    'GET $path with Authorization: $authorization answers as without it',
    async ({ path, authorization }) => {
      const [plain, withAuth] = [
        await get(path, { 'accept-encoding': 'gzip' }),
        await get(path, { 'accept-encoding': 'gzip', authorization }),
      ];
      expect(withAuth.status).toBe(plain.status);
      expect(header(withAuth, 'etag')).toBe(header(plain, 'etag'));
      expect(withAuth.body.equals(plain.body)).toBe(true);
    },
  );

  it('a conditional request with Authorization still gets 304', async () => {
    const plain = await get('/reviews.json');
    const res = await get('/reviews.json', {
      authorization: 'Bearer whatever',
      'if-none-match': header(plain, 'etag') ?? '',
    });
    expect(res.status).toBe(304);
  });
});

describe('/.well-known/openapi.json', () => {
  it('is an OpenAPI 3.1.0 document of interface version 1.0.0', async () => {
    const res = await get('/.well-known/openapi.json');
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toMatch(/^application\/json/);
    const doc = json<{ openapi: string; info: { version: string } }>(res);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
  });

  it('answers If-None-Match with its ETag by 304', async () => {
    const res = await get('/.well-known/openapi.json');
    const again = await get('/.well-known/openapi.json', { 'if-none-match': header(res, 'etag') ?? '' });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });
});

describe('an empty store', () => {
  const getEmpty = (path: string) => call(empty, path);

  it('serves business null and an aggregate rating of nothing', async () => {
    const res = await getEmpty('/reviews.json');
    expect(res.status).toBe(200);
    expect(json<unknown>(res)).toEqual({
      business: null,
      aggregateRating: {
        ratingValue: null,
        reviewCount: 0,
        bestRating: 5,
        worstRating: 1,
        distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 },
      },
      verification: {
        rule: expect.stringContaining('completed job') as string,
        received: 0,
        published: 0,
        unmatched: 0,
        removed: 0,
        bySource: {},
      },
      reviews: [],
    });
  });

  it('serves no Last-Modified while nothing was ever published, but still an ETag', async () => {
    const res = await getEmpty('/reviews.json');
    expect(header(res, 'last-modified')).toBeUndefined();
    expect(header(res, 'etag')).toMatch(/^"[^"]*"$/);
  });

  it('serves a valid JSON Feed 1.1 with no items', async () => {
    const res = await getEmpty('/api/feed.json');
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toMatch(/^application\/feed\+json/);
    const feed = JsonFeedDocument.parse(json<unknown>(res));
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.title.length).toBeGreaterThan(0);
    expect(feed.items).toEqual([]);
  });

  it('serves a well-formed Atom feed with no entries', async () => {
    const res = await getEmpty('/feed.xml');
    expect(res.status).toBe(200);
    expect(header(res, 'content-type')).toMatch(/^application\/atom\+xml/);
    const xml = res.body.toString('utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
      feed?: { '@_xmlns'?: string; id?: unknown; title?: unknown; updated?: unknown; entry?: unknown };
    };
    expect(doc.feed?.['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
    // RFC 4287 §4.1.1: a feed has an id, a title and an updated.
    expect(doc.feed?.id).toBeDefined();
    expect(doc.feed?.title).toBeDefined();
    expect(doc.feed?.updated).toBeDefined();
    expect(doc.feed?.entry).toBeUndefined();
  });

  it('serves the empty insights shape', async () => {
    const res = await getEmpty('/insights.json');
    expect(res.status).toBe(200);
    const insights = InsightsDocument.parse(json<unknown>(res));
    expect(insights.status).toBe('ready');
    expect(insights.asOf).toBeNull();
    expect(insights.reviewCount).toBe(0);
    expect(insights.entities).toEqual({ technicians: [], services: [], serviceAreas: [] });
    expect(insights.topics).toEqual([]);
    expect(insights.faq).toEqual([]);
    expect(typeof insights.summary.text).toBe('string');
    const aspectIds = insights.aspects.map((a) => a.id);
    expect(new Set(aspectIds).size).toBe(aspectIds.length);
    for (const id of aspectIds) expect(AspectId.options).toContain(id);
  });

  it('serves empty search and since listings', async () => {
    expect(json<unknown>(await getEmpty('/api/reviews/search'))).toEqual({ count: 0, total: 0, reviews: [] });
    expect(json<unknown>(await getEmpty('/api/reviews/since/2020-01-01'))).toEqual({
      since: '2020-01-01',
      count: 0,
      reviews: [],
    });
  });
});

describe('/reviews.json', () => {
  interface Dataset {
    business: Business | null;
    aggregateRating: {
      ratingValue: number | null;
      reviewCount: number;
      bestRating: number;
      worstRating: number;
      distribution: Record<string, number>;
    };
    reviews: (Omit<ImportedReview, 'verified'> & { verified?: unknown })[];
  }
  let dataset: Dataset;

  beforeAll(async () => {
    dataset = json<Dataset>(await get('/reviews.json'));
  });

  it('serves the business as imported', () => {
    expect(dataset.business).toEqual(business);
  });

  it('lists only verified reviews, newest first (date descending, then id descending)', () => {
    expect(dataset.reviews.map((r) => r.id)).toEqual(NEWEST_FIRST);
  });

  it('shows each review with its public fields only', () => {
    const byId = new Map(verified.map(({ verified: _verified, ...rest }) => [rest.id, rest]));
    for (const review of dataset.reviews) {
      const { language, verification, ...imported } = review as typeof review &
        Pick<Review, 'language' | 'verification'>;
      expect(imported).toEqual(byId.get(review.id));
      expect(review).not.toHaveProperty('verified');
      // The record's own words are English; the operator's "verified": true is how it was verified, on the import's day.
      expect(language).toBe('en');
      expect(verification).toEqual({ method: 'operator', date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    }
  });

  it('computes the aggregate rating from exactly the verified reviews', () => {
    // 5 + 4 + 4 + 3 + 5 + 1 = 22 over 6 reviews = 3.666…; the unverified 2 and 1 do not count.
    expect(dataset.aggregateRating).toEqual({
      ratingValue: 3.67,
      reviewCount: 6,
      bestRating: 5,
      worstRating: 1,
      distribution: { '1': 1, '2': 0, '3': 1, '4': 2, '5': 2 },
    });
  });
});
