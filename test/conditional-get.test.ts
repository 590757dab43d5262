// Conditional GET over real HTTP, exactly as RFC 9110 has it: validators, content-coding variants, 304 and HEAD.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTS } from '../src/reviews/catalogue.js';
import type { ImportedReview } from '../src/reviews/schemas.js';
import type { ImportPlan } from '../src/store/types.js';
import { newBusiness } from './support/business.js';
import { importedReview, reviewText } from './support/reviews.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';
import { sleep } from './support/wait.js';
import { scrapeMetrics } from './support/metrics.js';
import { decode, header, headerList, rawRequest, type RawResponse } from './support/wire.js';

type Coding = 'identity' | 'gzip' | 'br';

const dir = tempDir();
let server: RunningServer;
/** When the published data last changed, as the store reported it on import. */
let importedAt: Date;

const business = newBusiness();

/** The n-th review of the series, its fields made from n. */
const review = (n: number, date: string, overrides: Partial<ImportedReview> = {}): ImportedReview =>
  importedReview({
    id: `cg-${String(n).padStart(3, '0')}`,
    date,
    rating: (n % 5) + 1,
    text: reviewText(n),
    author: `Customer ${n}`,
    technicians: [n % 2 ? 'Dana Ortiz' : 'Zoë Martínez'],
    services: [['ac-repair', 'drain-cleaning', 'panel-upgrade'][n % 3] ?? 'ac-repair'],
    ...overrides,
  });

const firstReviews: ImportedReview[] = Array.from({ length: 8 }, (_, i) => review(i + 1, `2024-0${i + 1}-1${i}`));

/** Applies an import, waits until the server serves it, and returns when the published data last changed. */
async function publishNow(plan: ImportPlan): Promise<Date | null> {
  const summary = await publish(server, plan);
  // /insights.json follows a moment later, when the engine has caught up.
  await server.app.publisher.insightsReady();
  return summary.version.publishedAt === null ? null : new Date(summary.version.publishedAt);
}

const get = (path: string, headers: Record<string, string> = {}): Promise<RawResponse> =>
  rawRequest(`${server.url}${path}`, { headers });
const head = (path: string, headers: Record<string, string> = {}): Promise<RawResponse> =>
  rawRequest(`${server.url}${path}`, { method: 'HEAD', headers });
const toSecond = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000);

const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');
const clock = (d: Date) => `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
/** RFC 9110 §5.6.7 obsolete format: Sunday, 06-Nov-94 08:49:37 GMT */
const rfc850Date = (d: Date) =>
  `${WEEKDAYS[d.getUTCDay()]}, ${two(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${two(d.getUTCFullYear() % 100)} ${clock(d)} GMT`;
/** RFC 9110 §5.6.7 obsolete format: Sun Nov  6 08:49:37 1994 */
const asctimeDate = (d: Date) =>
  `${WEEKDAYS[d.getUTCDay()]?.slice(0, 3)} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${clock(d)} ${d.getUTCFullYear()}`;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Resource {
  path: string;
  contentType: RegExp;
}

const RESOURCES: Resource[] = [
  { path: '/reviews.json', contentType: /^application\/json(;|$)/ },
  { path: '/insights.json', contentType: /^application\/json(;|$)/ },
  { path: '/api/feed.json', contentType: /^application\/feed\+json(;|$)/ },
  { path: '/feed.xml', contentType: /^application\/atom\+xml(;|$)/ },
  { path: '/api/reviews/since/2020-01-01', contentType: /^application\/json(;|$)/ },
  { path: '/api/reviews/search?limit=5', contentType: /^application\/json(;|$)/ },
];

interface EncodingCase {
  label: string;
  acceptEncoding: string | undefined;
  /** The coding to expect when the resource has gzip and br variants (bodies of 512 bytes or more). */
  coding: Coding;
}

const ENCODINGS: EncodingCase[] = [
  { label: '(none)', acceptEncoding: undefined, coding: 'identity' },
  { label: 'gzip', acceptEncoding: 'gzip', coding: 'gzip' },
  { label: 'br', acceptEncoding: 'br', coding: 'br' },
  { label: 'br;q=0.5, gzip;q=0.9', acceptEncoding: 'br;q=0.5, gzip;q=0.9', coding: 'gzip' },
  { label: 'gzip;q=0, br', acceptEncoding: 'gzip;q=0, br', coding: 'br' },
  // Every coding is acceptable; the service's documented tie-break prefers the smallest, br.
  { label: '*', acceptEncoding: '*', coding: 'br' },
  { label: 'identity', acceptEncoding: 'identity', coding: 'identity' },
  // Both codings refused: identity is still acceptable (RFC 9110 §12.5.3).
  { label: 'br;q=0, gzip;q=0', acceptEncoding: 'br;q=0, gzip;q=0', coding: 'identity' },
  // RFC 9110 §8.4.1.3: x-gzip is gzip.
  { label: 'x-gzip', acceptEncoding: 'x-gzip', coding: 'gzip' },
];

/** The three variants a client can get: none asked for, gzip, br. */
const VARIANT_REQUESTS = [
  { label: '(none)', acceptEncoding: undefined },
  { label: 'gzip', acceptEncoding: 'gzip' },
  { label: 'br', acceptEncoding: 'br' },
];

const withEncoding = (acceptEncoding: string | undefined): Record<string, string> =>
  acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };

beforeAll(async () => {
  server = await startServer(`${dir.path}/conditional-get.db`);
  const at = await publishNow({
    business,
    reviews: [...firstReviews, review(90, '2024-09-01', { verified: false })],
    replace: true,
  });
  if (!at) throw new Error('the first import published nothing');
  importedAt = at;
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

describe.each(RESOURCES)('conditional GET of $path', ({ path, contentType }) => {
  const variants = {} as Record<Coding, RawResponse>;
  /** Whether the resource is large enough (≥ 512 bytes) to have gzip and br variants. */
  let compressible: boolean;
  const etagOf = (coding: Coding) => header(variants[coding], 'etag') ?? '';

  beforeAll(async () => {
    variants.identity = await get(path);
    variants.gzip = await get(path, { 'accept-encoding': 'gzip' });
    variants.br = await get(path, { 'accept-encoding': 'br' });
    compressible = variants.identity.body.length >= 512;
  });

  describe('200 response', () => {
    it('carries a strong ETag, Last-Modified of the import, Cache-Control, Vary, Content-Type and an exact Content-Length', () => {
      const res = variants.identity;
      expect(res.status).toBe(200);
      expect(header(res, 'etag')).toMatch(/^"[^"]*"$/);
      const lastModified = header(res, 'last-modified') ?? '';
      expect(lastModified).toMatch(IMF_FIXDATE);
      expect(lastModified).toBe(toSecond(importedAt).toUTCString());
      // RFC 9110 §8.8.2.1: never later than the Date of the response.
      expect(Date.parse(lastModified)).toBeLessThanOrEqual(Date.parse(header(res, 'date') ?? ''));
      expect(header(res, 'cache-control')).toMatch(/max-age=\d+/);
      expect(headerList(res, 'vary')).toContain('accept-encoding');
      expect(header(res, 'content-type')).toMatch(contentType);
      expect(header(res, 'content-encoding')).toBeUndefined();
      expect(header(res, 'content-length')).toBe(String(res.body.length));
    });

    it.each(ENCODINGS)(
      'Accept-Encoding $label selects $coding and decodes to the identity bytes',
      async ({ acceptEncoding, coding }) => {
        const expected: Coding = compressible ? coding : 'identity';
        const res = await get(path, withEncoding(acceptEncoding));
        expect(res.status).toBe(200);
        expect(header(res, 'content-encoding')).toBe(expected === 'identity' ? undefined : expected);
        expect(header(res, 'content-length')).toBe(String(res.body.length));
        expect(header(res, 'etag')).toBe(etagOf(expected));
        expect(headerList(res, 'vary')).toContain('accept-encoding');
        expect(header(res, 'content-type')).toMatch(contentType);
        expect(decode(res.body, header(res, 'content-encoding')).equals(variants.identity.body)).toBe(true);
      },
    );

    it('has a distinct strong ETag per content-coding', () => {
      const tags = (['identity', 'gzip', 'br'] as const).map(etagOf);
      for (const tag of tags) expect(tag).toMatch(/^"[^"]*"$/);
      // Bodies under 512 bytes have only the identity variant, so every request gets its one tag.
      expect(new Set(tags).size).toBe(compressible ? 3 : 1);
    });
  });

  describe('If-None-Match', () => {
    it.each([
      { name: 'the current ETag', value: (tag: string) => tag, status: 304 },
      { name: 'another ETag', value: () => '"not-the-current-tag"', status: 200 },
      {
        name: 'a list with the current ETag in the middle',
        value: (tag: string) => `"older-1", ${tag}, "older-2"`,
        status: 304,
      },
      { name: '*', value: () => '*', status: 304 },
      { name: 'the weak form of the current ETag (weak comparison)', value: (tag: string) => `W/${tag}`, status: 304 },
    ])('with $name answers $status', async ({ value, status }) => {
      const res = await get(path, { 'if-none-match': value(etagOf('identity')) });
      expect(res.status).toBe(status);
      if (status === 200) expect(res.body.equals(variants.identity.body)).toBe(true);
      else expect(res.body.length).toBe(0);
    });

    it('with the ETag of another content-coding does not match', async () => {
      const res = await get(path, { 'if-none-match': etagOf('gzip') });
      // Without compressed variants the gzip request was served identity, so its tag is the identity tag.
      expect(res.status).toBe(compressible ? 200 : 304);
      const brForGzipTag = await get(path, { 'accept-encoding': 'br', 'if-none-match': etagOf('gzip') });
      expect(brForGzipTag.status).toBe(compressible ? 200 : 304);
    });

    it.each(VARIANT_REQUESTS)(
      '304 for Accept-Encoding $label has no body and only the validator and caching fields (RFC 9110 §15.4.5)',
      async ({ acceptEncoding }) => {
        const ok = await get(path, withEncoding(acceptEncoding));
        const res = await get(path, { ...withEncoding(acceptEncoding), 'if-none-match': header(ok, 'etag') ?? '' });
        expect(res.status).toBe(304);
        expect(res.body.length).toBe(0);
        // MUST: the fields a 200 would carry among Date, ETag, Vary, Cache-Control.
        expect(header(res, 'etag')).toBe(header(ok, 'etag'));
        expect(headerList(res, 'vary')).toContain('accept-encoding');
        expect(header(res, 'cache-control')).toBe(header(ok, 'cache-control'));
        expect(header(res, 'date')).toMatch(IMF_FIXDATE);
        // SHOULD NOT: other representation metadata; Last-Modified only guides caches when there is no ETag.
        expect(header(res, 'content-encoding')).toBeUndefined();
        expect(header(res, 'content-type')).toBeUndefined();
        expect(header(res, 'last-modified')).toBeUndefined();
        // RFC 9110 §8.6: a Content-Length in a 304 must equal the 200's.
        const length = header(res, 'content-length');
        if (length !== undefined) expect(length).toBe(header(ok, 'content-length'));
      },
    );
  });

  describe('If-Modified-Since', () => {
    it.each([
      { name: 'equal to Last-Modified', value: (lm: Date) => lm.toUTCString(), status: 304 },
      { name: 'a day older', value: (lm: Date) => new Date(lm.getTime() - DAY_MS).toUTCString(), status: 200 },
      { name: 'a day newer', value: (lm: Date) => new Date(lm.getTime() + DAY_MS).toUTCString(), status: 304 },
      { name: 'not a date ("yesterday")', value: () => 'yesterday', status: 200 },
      { name: 'an ISO date, not an HTTP-date ("2025-01-01")', value: () => '2025-01-01', status: 200 },
      { name: 'a future ISO date, not an HTTP-date ("2099-12-31")', value: () => '2099-12-31', status: 200 },
      { name: 'the same instant in RFC 850 format', value: (lm: Date) => rfc850Date(lm), status: 304 },
      { name: 'the same instant in asctime format', value: (lm: Date) => asctimeDate(lm), status: 304 },
    ])('$name answers $status', async ({ value, status }) => {
      const lastModified = new Date(header(variants.identity, 'last-modified') ?? '');
      const res = await get(path, { 'if-modified-since': value(lastModified) });
      expect(res.status).toBe(status);
      expect(res.body.length).toBe(status === 304 ? 0 : variants.identity.body.length);
    });

    it('is ignored when If-None-Match is present and does not match', async () => {
      const res = await get(path, {
        'if-none-match': '"not-the-current-tag"',
        'if-modified-since': header(variants.identity, 'last-modified') ?? '',
      });
      expect(res.status).toBe(200);
    });

    it('is ignored when If-None-Match is present and matches', async () => {
      const lastModified = Date.parse(header(variants.identity, 'last-modified') ?? '');
      const res = await get(path, {
        'if-none-match': etagOf('identity'),
        'if-modified-since': new Date(lastModified - DAY_MS).toUTCString(),
      });
      expect(res.status).toBe(304);
    });
  });

  describe('HEAD', () => {
    it.each(VARIANT_REQUESTS)('with Accept-Encoding $label equals GET without the body', async ({ acceptEncoding }) => {
      const [got, headed] = [
        await get(path, withEncoding(acceptEncoding)),
        await head(path, withEncoding(acceptEncoding)),
      ];
      expect(headed.status).toBe(got.status);
      for (const name of [
        'etag',
        'content-length',
        'content-type',
        'content-encoding',
        'last-modified',
        'cache-control',
        'vary',
      ]) {
        expect(header(headed, name), name).toBe(header(got, name));
      }
      expect(header(headed, 'content-length')).toBe(String(got.body.length));
      expect(headed.body.length).toBe(0);
    });

    it('with a matching If-None-Match answers 304', async () => {
      const res = await head(path, { 'if-none-match': etagOf('identity') });
      expect(res.status).toBe(304);
      expect(header(res, 'etag')).toBe(etagOf('identity'));
      expect(res.body.length).toBe(0);
    });
  });
});

describe('304 to HEAD', () => {
  it('carries no Content-Length other than the 200 would (RFC 9110 §8.6)', async () => {
    const problems: string[] = [];
    for (const { path } of RESOURCES) {
      const ok = await get(path);
      const res = await head(path, { 'if-none-match': header(ok, 'etag') ?? '' });
      expect(res.status).toBe(304);
      const length = header(res, 'content-length');
      if (length !== undefined && length !== header(ok, 'content-length')) {
        problems.push(`${path}: HEAD 304 Content-Length ${length}, 200 Content-Length ${header(ok, 'content-length')}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

// These change the data, so they run last.
describe('validators across imports', () => {
  const current = async () =>
    Promise.all(RESOURCES.map(async ({ path }) => ({ path, res: await get(path, { 'accept-encoding': 'gzip' }) })));
  const lastModifiedOf = (responses: { res: RawResponse }[]) => {
    const first = responses[0];
    return first && header(first.res, 'last-modified');
  };
  let plan: ImportPlan;

  it('a new import that changes the data invalidates the old ETag and moves Last-Modified', async () => {
    const before = await current();
    await sleep(1100); // Last-Modified has second precision.
    plan = { business, reviews: [...firstReviews, review(50, '2025-06-01')], replace: true };
    const at = await publishNow(plan);
    expect(at).not.toBeNull();
    for (const { path, res } of before) {
      const after = await get(path, { 'accept-encoding': 'gzip', 'if-none-match': header(res, 'etag') ?? '' });
      expect(after.status, path).toBe(200);
      expect(header(after, 'etag'), path).not.toBe(header(res, 'etag'));
      expect(header(after, 'last-modified'), path).toBe(toSecond(at ?? new Date(0)).toUTCString());
      expect(Date.parse(header(after, 'last-modified') ?? '')).toBeGreaterThan(
        Date.parse(header(res, 'last-modified') ?? ''),
      );
    }
  });

  it('an import that changes nothing keeps every ETag and Last-Modified', async () => {
    const before = await current();
    await sleep(1100);
    const at = await publishNow(plan);
    expect(at && toSecond(at).toUTCString()).toBe(lastModifiedOf(before));
    for (const { path, res } of before) {
      const after = await get(path, { 'accept-encoding': 'gzip', 'if-none-match': header(res, 'etag') ?? '' });
      expect(after.status, path).toBe(304);
      expect(header(after, 'etag'), path).toBe(header(res, 'etag'));
      const plain = await get(path, { 'accept-encoding': 'gzip' });
      expect(header(plain, 'last-modified'), path).toBe(header(res, 'last-modified'));
    }
  });

  it('an import that only adds an unverified review changes the counts of /reviews.json, and no other bytes', async () => {
    const before = await current();
    await sleep(1100);
    const at = await publishNow({ ...plan, reviews: [...plan.reviews, review(60, '2025-07-01', { verified: false })] });
    // The business received one more review: the verification summary is published data, so it moved.
    expect(at).not.toBeNull();
    expect(Date.parse(toSecond(at!).toUTCString())).toBeGreaterThan(Date.parse(lastModifiedOf(before) ?? ''));
    for (const { path, res } of before) {
      if (path === '/insights.json') continue; // the insights describe a data version: rebuilt for the new one
      const after = await get(path, { 'accept-encoding': 'gzip', 'if-none-match': header(res, 'etag') ?? '' });
      expect(after.status, path).toBe(path === '/reviews.json' ? 200 : 304);
    }
    type Counts = { verification: { received: number; published: number; unmatched: number }; reviews: unknown[] };
    const dataset = before.find((b) => b.path === '/reviews.json')!.res;
    const was = JSON.parse(decode(dataset.body, header(dataset, 'content-encoding')).toString('utf8')) as Counts;
    const now = (await (await fetch(`${server.url}/reviews.json`)).json()) as Counts;
    expect(now.verification).toMatchObject({
      received: was.verification.received + 1,
      published: was.verification.published,
      unmatched: was.verification.unmatched + 1,
    });
    expect(now.reviews).toEqual(was.reviews);
  });

  it("two imports within one second: If-Modified-Since with the first one's date gets the second one's bytes", async () => {
    const search = '/api/reviews/search?min_rating=1';
    for (let attempt = 0; attempt < 10; attempt++) {
      // Start early in a second, so that both imports are likely to land in it.
      while (Date.now() % 1000 > 100) await sleep(5);
      const first = await publish(server, { ...plan, reviews: [...plan.reviews, review(70 + attempt, '2025-08-01')] });
      const [document, answer] = [await get('/reviews.json'), await get(search)];
      const second = await publish(server, { ...plan, reviews: [...plan.reviews, review(80 + attempt, '2025-08-02')] });
      if (
        toSecond(new Date(first.version.publishedAt!)).getTime() !==
        toSecond(new Date(second.version.publishedAt!)).getTime()
      )
        continue;
      for (const [path, res] of [
        ['/reviews.json', document],
        [search, answer],
      ] as const) {
        const revalidated = await get(path, { 'if-modified-since': header(res, 'last-modified') ?? '' });
        expect(revalidated.status, path).toBe(200);
        expect(header(revalidated, 'last-modified'), path).toBe(header(res, 'last-modified'));
        expect(header(revalidated, 'etag'), path).not.toBe(header(res, 'etag'));
      }
      return;
    }
    throw new Error('no two imports landed within one second in ten attempts');
  });
});

// A revalidation of a catalogue document at its exact path is answered before the routes (src/api/fast-path.ts);
// the same request with a query string goes through them. Both must be the same answer.
describe('revalidations answered before the routes', () => {
  const withoutDate = (res: RawResponse) =>
    Object.fromEntries(Object.entries(res.headers).filter(([name]) => name !== 'date'));
  /** The requests counted for GET `path` with `status`, and the observations of its latency histogram. */
  const metric = async (path: string, status: number): Promise<{ requests: number; timed: number }> => {
    const value = await scrapeMetrics(server.url);
    return {
      requests: value(`http_requests_total{method="GET",route="${path}",status="${status}"}`),
      timed: value(`http_request_duration_seconds_count{method="GET",route="${path}"}`),
    };
  };

  it.each(DOCUMENTS.map((d) => d.path))(
    '%s: the same 304, headers and all, as the route gives, counted in the metrics',
    async (path) => {
      for (const acceptEncoding of ['br', 'gzip', undefined]) {
        const current = await get(path, withEncoding(acceptEncoding));
        const conditional = { ...withEncoding(acceptEncoding), 'if-none-match': header(current, 'etag') ?? '' };
        const before = await metric(path, 304);
        const fast = await get(path, conditional);
        const routed = await get(`${path}?`, conditional);
        expect(fast.status).toBe(304);
        expect(fast.body.length).toBe(0);
        expect(withoutDate(fast)).toEqual(withoutDate(routed));
        const after = await metric(path, 304);
        expect(after.requests).toBe(before.requests + 2);
        // The route's latency histogram counts both as well.
        expect(after.timed).toBe(before.timed + 2);
        // If-Modified-Since alone is answered the same way too.
        const bySince = {
          ...withEncoding(acceptEncoding),
          'if-modified-since': header(current, 'last-modified') ?? '',
        };
        expect(withoutDate(await get(path, bySince))).toEqual(withoutDate(await get(`${path}?`, bySince)));
      }
    },
  );

  // The first request of a search URL goes through the route, which remembers it; a repeat is answered before it.
  it.each(['br', 'gzip', undefined])(
    'a repeated search (accept-encoding %s): the same 200, 304 and HEAD as the route gives, counted in the metrics',
    async (acceptEncoding) => {
      const search = '/api/reviews/search';
      const url = `${search}?min_rating=1&limit=3&query=${acceptEncoding ?? 'none'}`;
      const reordered = `${search}?query=${acceptEncoding ?? 'none'}&limit=3&min_rating=1`;
      const before = await metric(search, 200);
      const routed = await get(url, withEncoding(acceptEncoding));
      const fast = await get(url, withEncoding(acceptEncoding));
      expect(fast.status).toBe(200);
      expect(withoutDate(fast)).toEqual(withoutDate(routed));
      expect(fast.body.equals(routed.body)).toBe(true);
      expect(await metric(search, 200)).toEqual({ requests: before.requests + 2, timed: before.timed + 2 });
      // The same answer under another URL (the route's first sight of it) is the same bytes and tag.
      expect(withoutDate(await get(reordered, withEncoding(acceptEncoding)))).toEqual(withoutDate(routed));

      const conditional = { ...withEncoding(acceptEncoding), 'if-none-match': header(routed, 'etag') ?? '' };
      const fastNotModified = await get(url, conditional);
      const routedNotModified = await get(
        `${search}?limit=3&min_rating=1&query=${acceptEncoding ?? 'none'}`,
        conditional,
      );
      expect(fastNotModified.status).toBe(304);
      expect(withoutDate(fastNotModified)).toEqual(withoutDate(routedNotModified));
      const headed = await head(url, withEncoding(acceptEncoding));
      expect(headed.body.length).toBe(0);
      expect(withoutDate(headed)).toEqual(withoutDate(routed));
    },
  );

  it('a revalidation that does not match, a HEAD, and a request for another name are answered as before', async () => {
    const current = await get('/reviews.json', { 'accept-encoding': 'br' });
    const stale = await get('/reviews.json', { 'accept-encoding': 'br', 'if-none-match': '"an-old-tag"' });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(current.body)).toBe(true);
    const headed = await head('/reviews.json', {
      'accept-encoding': 'br',
      'if-none-match': header(current, 'etag') ?? '',
    });
    expect(headed.status).toBe(304);
    // The server is bound to loopback: a name it does not answer to is refused, fast path or not.
    const rebound = await get('/reviews.json', {
      host: 'attacker.example',
      'if-none-match': header(current, 'etag') ?? '',
    });
    expect(rebound.status).toBe(400);
  });
});
