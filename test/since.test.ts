// Since-date listings: the right reviews in every coding, and bounded work whatever dates clients ask for.
import { publishedFrom } from '../src/reviews/published.js';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { SinceListings } from '../src/publishing/since.js';
import { SearchIndex } from '../src/reviews/search.js';
import { newestFirst } from './support/reviews.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';

const dir = tempDir();
let server: RunningServer;
const demo = generateDemo({ seed: 3, reviews: 600 });
const published = newestFirst(demo.reviews.filter((r) => r.verified));
const oldest = published.at(-1)!.date;

beforeAll(async () => {
  server = await startServer(`${dir.path}/since.db`, { RATE_LIMIT_QUERIES_PER_MINUTE: '100000' });
  await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

const get = (date: string, encoding: string) =>
  fetch(`${server.url}/api/reviews/since/${date}`, { headers: { 'accept-encoding': encoding } });

describe('since-date listings', () => {
  it('lists the reviews dated on or after the date, the same in identity, gzip and br', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.date({ min: new Date('2019-01-01'), max: new Date('2027-01-01'), noInvalidDate: true }),
        async (day) => {
          const date = day.toISOString().slice(0, 10);
          const expected = published.filter((r) => r.date >= date).map((r) => r.id);
          const identity = await get(date, 'identity');
          const text = await identity.text();
          const body = JSON.parse(text) as { since: string; count: number; reviews: { id: string }[] };
          expect(Object.keys(body)).toEqual(['since', 'count', 'reviews']);
          expect(body.since).toBe(date);
          expect(body.count).toBe(expected.length);
          expect(body.reviews.map((r) => r.id)).toEqual(expected);
          // fetch decodes transparently: the gzip member (joined from separately compressed parts) must be valid.
          const gzip = await fetch(`${server.url}/api/reviews/since/${date}`, {
            headers: { 'accept-encoding': 'gzip' },
          });
          expect(gzip.headers.get('content-encoding')).toBe('gzip');
          expect(await gzip.text()).toBe(text);
          expect(gzip.headers.get('etag')).toBe(`${identity.headers.get('etag')!.slice(0, -1)}-gzip"`);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('sends a gzip member any strict decoder accepts (checksum and length included), and br for small listings', async () => {
    const date = published[30]!.date;
    const raw = await fetch(`${server.url}/api/reviews/since/${date}`, { headers: { 'accept-encoding': 'gzip' } });
    const identity = await (await get(date, 'identity')).text();
    // Read the compressed bytes as sent (undici would decode them): a raw request through node:http.
    const { request } = await import('node:http');
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      request(`${server.url}/api/reviews/since/${date}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res
          .on('data', (c: Buffer) => chunks.push(c))
          .on('end', () => resolve(Buffer.concat(chunks)))
          .on('error', reject);
      })
        .on('error', reject)
        .end();
    });
    expect(raw.status).toBe(200);
    expect(gunzipSync(bytes).toString('utf8')).toBe(identity);
    expect(Number(raw.headers.get('content-length'))).toBe(bytes.length);
    const br = await get(date, 'br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(await br.text()).toBe(identity);
  });

  it('renders every date before the oldest review once: 1,000 such dates share one rendering', async () => {
    const listings = server.app.publisher.current().since;
    const before = listings.size.entries;
    const etags = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const date = new Date(Date.parse(oldest) - (i + 1) * 86_400_000).toISOString().slice(0, 10);
      const res = await get(date, 'gzip');
      expect(res.status).toBe(200);
      etags.add(res.headers.get('etag')!);
      await res.arrayBuffer();
    }
    // Each body echoes its date (1,000 ETags), but all of them share the rendering of the whole list.
    expect(etags.size).toBe(1000);
    expect(listings.size.entries - before).toBeLessThanOrEqual(1);
  });

  it('answers 304 to a repeated request without making a body', async () => {
    const first = await get(oldest, 'gzip');
    const again = await fetch(`${server.url}/api/reviews/since/${oldest}`, {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });
});

describe('SinceListings', () => {
  const index = new SearchIndex(published.map((r) => publishedFrom(r, '2026-01-01T00:00:00.000Z')));
  const settle = () => new Promise((done) => setTimeout(done, 50));

  it('holds at most its byte bound, counting every rendering it holds (compressed copies once made)', async () => {
    const whole = Buffer.byteLength(JSON.stringify(published));
    const listings = new SinceListings(index, whole);
    const dates = [...new Set(published.map((r) => r.date))].slice(0, 80);
    for (const date of dates) {
      await listings.listing(date).gzip.parts();
      await settle();
      expect(listings.size.bytes).toBeLessThanOrEqual(whole);
    }
    expect(listings.size.entries).toBeGreaterThan(1);
    expect(listings.size.entries).toBeLessThan(dates.length);
  });

  it('keeps the one rendering asked for even when it alone exceeds the bound, and nothing else', async () => {
    const listings = new SinceListings(index, 1000);
    await listings.listing(published[10]!.date).gzip.parts();
    await listings.listing(oldest).gzip.parts();
    await settle();
    expect(listings.size.entries).toBe(1);
    const whole = Buffer.byteLength(JSON.stringify(published.map(({ verified: _v, ...r }) => r)));
    expect(listings.size.bytes).toBeGreaterThanOrEqual(whole);
  });

  it('compresses a date in br once: the same date again gets the same body, 40 dates at once all arrive whole', async () => {
    const listings = new SinceListings(index);
    const date = published[5]!.date;
    const first = await listings.listing(date).br!.parts();
    expect((await listings.listing(date).br!.parts())[0]).toBe(first[0]);
    const dates = [...new Set(published.map((r) => r.date))].slice(0, 40);
    const bodies = await Promise.all(dates.map(async (d) => [d, (await listings.listing(d).br!.parts())[0]!] as const));
    for (const [d, body] of bodies) {
      const identity = Buffer.concat(await listings.listing(d).identity.parts()).toString('utf8');
      expect(brotliDecompressSync(body).toString('utf8')).toBe(identity);
    }
  });
});
