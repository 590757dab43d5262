// Content-coding negotiation, RFC 9110 conditional GET (isNotModified, through real Fastify requests) and encoded variants.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { isNotModified, negotiateCoding, sendRepresentation } from '../src/http/conditional.js';
import { RepresentationCache } from '../src/publishing/query-cache.js';
import {
  contentTag,
  DEFER_ABOVE_BYTES,
  encodeRepresentation,
  succeeding,
  withLastModified,
  type Coding,
  type EncodeOptions,
  type Representation,
} from '../src/publishing/representation.js';
import { header, rawRequest } from './support/wire.js';

const ALL: readonly Coding[] = ['identity', 'gzip', 'br'];

describe('negotiateCoding', () => {
  const cases: [string, string | undefined, readonly Coding[], Coding][] = [
    ['no Accept-Encoding: identity', undefined, ALL, 'identity'],
    ['an empty Accept-Encoding: identity only', '', ALL, 'identity'],
    ['gzip alone', 'gzip', ALL, 'gzip'],
    ['br alone', 'br', ALL, 'br'],
    ['gzip when the body has no gzip variant', 'gzip', ['identity'], 'identity'],
    ['the higher q-value', 'br;q=0.5, gzip;q=0.9', ALL, 'gzip'],
    ['a tie broken in favour of br', 'gzip, br', ALL, 'br'],
    ['a tie at q<1 broken in favour of br', 'gzip;q=0.8, br;q=0.8', ALL, 'br'],
    ['gzip over identity at equal q', 'identity, gzip', ['identity', 'gzip'], 'gzip'],
    ['* (every coding acceptable): br', '*', ALL, 'br'],
    ['* below an explicit coding', '*;q=0.5, gzip', ALL, 'gzip'],
    ['* with br refused', '*, br;q=0', ALL, 'gzip'],
    ['identity asked for', 'identity', ALL, 'identity'],
    ['identity weighed above gzip', 'identity;q=0.5, gzip;q=0.2', ALL, 'identity'],
    ['identity refused, gzip acceptable', 'identity;q=0, gzip', ALL, 'gzip'],
    [
      'identity refused and nothing else offered: identity all the same (RFC 9110 §12.5.3)',
      'identity;q=0',
      ALL,
      'identity',
    ],
    ['*;q=0 (nothing acceptable): identity all the same', '*;q=0', ALL, 'identity'],
    ['every coding refused: identity', 'br;q=0, gzip;q=0', ALL, 'identity'],
    ['an unknown coding only: identity, still acceptable unlisted', 'deflate, zstd', ALL, 'identity'],
    ['a coding with any q above 0 over unlisted identity', 'gzip;q=0.001', ALL, 'gzip'],
    ['x-gzip as gzip (RFC 9110 §8.4.1.3)', 'x-gzip', ALL, 'gzip'],
    ['names and q in any case', 'GZIP;Q=0.9, Br;q=0.1', ALL, 'gzip'],
    ['spaces around names, semicolons and q', ' gzip ; q=0.5 ,  br ; q = 0.4 ', ALL, 'gzip'],
    ['a q above 1 read as 1', 'gzip;q=2, br;q=0.9', ALL, 'gzip'],
    ['empty members ignored', ',, gzip ,', ALL, 'gzip'],
  ];

  it.each(cases)('picks %s', (_name, header, available, expected) => {
    expect(negotiateCoding(header, available)).toBe(expected);
  });
});

const ETAG = '"abc123"';
const LAST_MODIFIED = new Date('2024-03-05T10:20:30.000Z');

/** isNotModified as a route calls it: on a real Fastify request carrying `headers`. */
async function notModified(
  headers: Record<string, string>,
  etag = ETAG,
  lastModified: Date | null = LAST_MODIFIED,
  lastModifiedShared = false,
): Promise<boolean> {
  const app = Fastify();
  app.get('/', async (request) => ({
    notModified: isNotModified(request.headers, etag, { lastModified, lastModifiedShared }),
  }));
  try {
    const response = await app.inject({ method: 'GET', url: '/', headers });
    return (response.json() as { notModified: boolean }).notModified;
  } finally {
    await app.close();
  }
}

describe('isNotModified: If-None-Match', () => {
  it('is false without conditional headers', async () => {
    expect(await notModified({})).toBe(false);
  });

  it('is true for the current tag and false for another', async () => {
    expect(await notModified({ 'if-none-match': ETAG })).toBe(true);
    expect(await notModified({ 'if-none-match': '"abc124"' })).toBe(false);
  });

  it("is false for another coding's tag of the same bytes", async () => {
    expect(await notModified({ 'if-none-match': '"abc123-gzip"' })).toBe(false);
  });

  it('is true when any member of a list matches, and false when none does', async () => {
    expect(await notModified({ 'if-none-match': '"x", W/"y", "abc123"' })).toBe(true);
    expect(await notModified({ 'if-none-match': '"x","y"' })).toBe(false);
  });

  it('is true for *', async () => {
    expect(await notModified({ 'if-none-match': '*' })).toBe(true);
    expect(await notModified({ 'if-none-match': ' * ' })).toBe(true);
  });

  it('compares weakly (RFC 9110 §13.1.2): a weak tag with the same opaque value matches', async () => {
    expect(await notModified({ 'if-none-match': 'W/"abc123"' })).toBe(true);
    expect(await notModified({ 'if-none-match': ETAG }, 'W/"abc123"')).toBe(true);
  });

  it('does not match an unquoted tag', async () => {
    expect(await notModified({ 'if-none-match': 'abc123' })).toBe(false);
  });

  it('decides alone when present: If-Modified-Since is then ignored (RFC 9110 §13.2.2)', async () => {
    const later = 'Wed, 06 Mar 2024 00:00:00 GMT';
    const earlier = 'Mon, 04 Mar 2024 00:00:00 GMT';
    expect(await notModified({ 'if-none-match': '"other"', 'if-modified-since': later })).toBe(false);
    expect(await notModified({ 'if-none-match': ETAG, 'if-modified-since': earlier })).toBe(true);
  });
});

describe('isNotModified: If-Modified-Since', () => {
  const imf = 'Tue, 05 Mar 2024 10:20:30 GMT';
  const rfc850 = 'Tuesday, 05-Mar-24 10:20:30 GMT';
  const asctime = 'Tue Mar  5 10:20:30 2024';

  it.each([
    ['IMF-fixdate', imf],
    ['RFC 850', rfc850],
    ['asctime', asctime],
  ])('is true for the Last-Modified time itself, written as %s', async (_format, date) => {
    expect(await notModified({ 'if-modified-since': date })).toBe(true);
  });

  it.each([
    ['IMF-fixdate', 'Tue, 05 Mar 2024 10:20:29 GMT'],
    ['RFC 850', 'Tuesday, 05-Mar-24 10:20:29 GMT'],
    ['asctime', 'Tue Mar  5 10:20:29 2024'],
  ])('is false one second before Last-Modified, written as %s', async (_format, date) => {
    expect(await notModified({ 'if-modified-since': date })).toBe(false);
  });

  it('is true for any later time', async () => {
    expect(await notModified({ 'if-modified-since': 'Sun, 01 Jan 2034 00:00:00 GMT' })).toBe(true);
  });

  it('is false for the Last-Modified time itself when another body was served under that second, true after it', async () => {
    expect(await notModified({ 'if-modified-since': imf }, ETAG, LAST_MODIFIED, true)).toBe(false);
    expect(await notModified({ 'if-modified-since': 'Tue, 05 Mar 2024 10:20:31 GMT' }, ETAG, LAST_MODIFIED, true)).toBe(
      true,
    );
  });

  it('is false when nothing was ever published (no Last-Modified)', async () => {
    expect(await notModified({ 'if-modified-since': imf }, ETAG, null)).toBe(false);
  });

  it.each([
    ['a word', 'yesterday'],
    ['ISO 8601', '2034-01-01T00:00:00Z'],
    ['a zone other than GMT', 'Sun, 01 Jan 2034 00:00:00 UTC'],
    ['a numeric zone', 'Sun, 01 Jan 2034 00:00:00 +0000'],
    ['a one-digit day in IMF-fixdate', 'Sun, 1 Jan 2034 00:00:00 GMT'],
    ['a lower-case month', 'Sun, 01 jan 2034 00:00:00 GMT'],
    ['an hour of 25', 'Sun, 01 Jan 2034 25:00:00 GMT'],
    ['an empty value', ''],
  ])('is false for an invalid date (%s), even one later than Last-Modified', async (_name, date) => {
    expect(await notModified({ 'if-modified-since': date })).toBe(false);
  });

  // A date that does not exist is not rolled over ("31 Feb" is not 2 March, "24:00:00" not the next midnight):
  // RFC 9110 §13.1.3 says to ignore an If-Modified-Since that is not a valid date, so neither answers 304.
  it('is false for a date out of range (31 February, hour 24)', async () => {
    const lastModified = new Date('2024-03-01T00:00:00.000Z');
    expect(await notModified({ 'if-modified-since': 'Sat, 31 Feb 2024 00:00:00 GMT' }, ETAG, lastModified)).toBe(false);
    expect(await notModified({ 'if-modified-since': 'Thu, 29 Feb 2024 24:00:00 GMT' }, ETAG, lastModified)).toBe(false);
  });
});

/** About 1.3 kB of text that compresses well. */
const LARGE = 'The technician arrived on time, explained the repair and left the kitchen spotless. '.repeat(16);
const options: EncodeOptions = {
  contentType: 'application/json',
  cacheControl: 'public, max-age=300',
  lastModified: LAST_MODIFIED,
  effort: 'fast',
};

describe('encodeRepresentation', () => {
  it('keeps a small body as identity only, tagged by its content', async () => {
    const rep = await encodeRepresentation('{"small":true}', options);
    expect(Object.keys(rep.variants)).toEqual(['identity']);
    expect(rep.variants.identity.body.toString('utf8')).toBe('{"small":true}');
    expect(rep.variants.identity.etag).toBe(`"${contentTag(Buffer.from('{"small":true}'))}"`);
  });

  it('adds gzip and br variants from 512 bytes on, not below', async () => {
    const below = await encodeRepresentation('x'.repeat(511), options);
    const at = await encodeRepresentation('x'.repeat(512), options);
    expect(Object.keys(below.variants)).toEqual(['identity']);
    expect(Object.keys(at.variants).sort()).toEqual(['br', 'gzip', 'identity']);
  });

  it.each(['fast', 'best'] as const)(
    'encodes variants that decode to the same bytes, smaller, with effort %s',
    async (effort) => {
      const rep = await encodeRepresentation(LARGE, { ...options, effort });
      const body = Buffer.from(LARGE, 'utf8');
      expect(rep.variants.identity.body.equals(body)).toBe(true);
      expect(gunzipSync(rep.variants.gzip!.body).equals(body)).toBe(true);
      expect(brotliDecompressSync(rep.variants.br!.body).equals(body)).toBe(true);
      expect(rep.variants.gzip!.body.length).toBeLessThan(body.length);
      expect(rep.variants.br!.body.length).toBeLessThan(body.length);
    },
  );

  it('gives each coding its own strong tag, derived from the content', async () => {
    const rep = await encodeRepresentation(LARGE, options);
    const tag = contentTag(Buffer.from(LARGE, 'utf8'));
    expect(rep.variants.identity.etag).toBe(`"${tag}"`);
    expect(rep.variants.gzip!.etag).toBe(`"${tag}-gzip"`);
    expect(rep.variants.br!.etag).toBe(`"${tag}-br"`);
  });

  it('uses the tag the caller already computed', async () => {
    const rep = await encodeRepresentation(LARGE, { ...options, tag: 'precomputed' });
    expect([rep.variants.identity.etag, rep.variants.gzip!.etag, rep.variants.br!.etag]).toEqual([
      '"precomputed"',
      '"precomputed-gzip"',
      '"precomputed-br"',
    ]);
  });

  it('tags the same bytes alike whether given as a string or a Buffer, and other bytes otherwise', async () => {
    const fromString = await encodeRepresentation('{"name":"Zoë"}', options);
    const fromBuffer = await encodeRepresentation(Buffer.from('{"name":"Zoë"}', 'utf8'), options);
    const other = await encodeRepresentation('{"name":"Zoe"}', options);
    expect(fromBuffer.variants.identity.etag).toBe(fromString.variants.identity.etag);
    expect(other.variants.identity.etag).not.toBe(fromString.variants.identity.etag);
  });

  it('carries Content-Type and Cache-Control, and Last-Modified cut to whole seconds', async () => {
    const rep = await encodeRepresentation('{}', { ...options, lastModified: new Date('2024-03-05T10:20:30.999Z') });
    expect(rep.contentType).toBe('application/json');
    expect(rep.cacheControl).toBe('public, max-age=300');
    expect(rep.lastModified?.toISOString()).toBe('2024-03-05T10:20:30.000Z');
    expect((await encodeRepresentation('{}', { ...options, lastModified: null })).lastModified).toBeNull();
  });
});

describe('deferred compression of a large body', () => {
  /** Just over the threshold, varied enough that compression takes some work. */
  const HUGE = Array.from({ length: DEFER_ABOVE_BYTES / 20 }, (_, i) => `{"n":${i},"t":"review ${i % 977}"}`).join(',');

  /** A real server that sends the representation as the routes do. */
  async function serving<T>(rep: Representation, run: (url: string) => Promise<T>): Promise<T> {
    const app = Fastify();
    app.get('/', (request, reply) => sendRepresentation(request, reply, rep));
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      return await run(url);
    } finally {
      await app.close();
    }
  }

  it('makes no compressed copy until a client asks, then each coding once, decoding to the body', async () => {
    const rep = await encodeRepresentation(HUGE, options);
    const body = Buffer.from(HUGE, 'utf8');
    expect(Object.keys(rep.variants)).toEqual(['identity']);
    expect(await rep.deferred!.bytes()).toBe(0);
    const tag = contentTag(body);
    await serving(rep, async (url) => {
      const br = await rawRequest(url, { headers: { 'accept-encoding': 'br' } });
      expect(header(br, 'content-encoding')).toBe('br');
      expect(header(br, 'etag')).toBe(`"${tag}-br"`);
      expect(brotliDecompressSync(br.body).equals(body)).toBe(true);
      const afterBr = await rep.deferred!.bytes();
      expect(afterBr).toBe(br.body.length);
      // Asked again: the same bytes, not made again.
      const again = await rawRequest(url, { headers: { 'accept-encoding': 'br' } });
      expect(again.body.equals(br.body)).toBe(true);
      expect(await rep.deferred!.bytes()).toBe(afterBr);
      const gzip = await rawRequest(url, { headers: { 'accept-encoding': 'gzip' } });
      expect(header(gzip, 'etag')).toBe(`"${tag}-gzip"`);
      expect(gunzipSync(gzip.body).equals(body)).toBe(true);
      expect(await rep.deferred!.bytes()).toBe(afterBr + gzip.body.length);
    });
  });

  it('answers a revalidation of a coding not made yet with 304, and still makes nothing', async () => {
    const rep = await encodeRepresentation(HUGE, options);
    await serving(rep, async (url) => {
      const etag = rep.deferred!.etag('br');
      const revalidated = await rawRequest(url, { headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
      expect(revalidated.status).toBe(304);
      expect(header(revalidated, 'etag')).toBe(etag);
    });
    expect(await rep.deferred!.bytes()).toBe(0);
  });

  it('shares the copies made among the copies of a representation (a new Last-Modified, the same bytes)', async () => {
    const rep = await encodeRepresentation(HUGE, options);
    const later = withLastModified(rep, new Date('2025-01-01T00:00:00Z'));
    const [a, b] = await Promise.all([rep.deferred!.variant('br'), later.deferred!.variant('br')]);
    expect(a.body).toBe(b.body);
  });
});

describe('withLastModified', () => {
  it('changes only Last-Modified, cut to whole seconds, and keeps the very same variants', async () => {
    const rep = await encodeRepresentation(LARGE, options);
    const moved = withLastModified(rep, new Date('2025-01-02T03:04:05.678Z'));
    expect(moved.lastModified?.toISOString()).toBe('2025-01-02T03:04:05.000Z');
    expect(moved.variants).toBe(rep.variants);
    expect(moved.contentType).toBe(rep.contentType);
    expect(moved.cacheControl).toBe(rep.cacheControl);
    expect(rep.lastModified).toEqual(LAST_MODIFIED);
  });

  it('takes null for data never published', async () => {
    const rep = await encodeRepresentation('{}', options);
    expect(withLastModified(rep, null).lastModified).toBeNull();
  });
});

describe('contentTag', () => {
  it('is a 27-character base64url hash, the same for the same bytes', () => {
    const tag = contentTag(Buffer.from('same bytes'));
    expect(tag).toMatch(/^[A-Za-z0-9_-]{27}$/);
    expect(contentTag(Buffer.from('same bytes'))).toBe(tag);
    expect(contentTag(Buffer.from('same bytes!'))).not.toBe(tag);
  });
});

describe('RepresentationCache', () => {
  const options: EncodeOptions = {
    contentType: 'application/json',
    cacheControl: 'no-store',
    lastModified: null,
    effort: 'fast',
  };
  const body = (n: number) => JSON.stringify({ n, pad: 'x'.repeat(4000 + n) });
  const held = async (cache: RepresentationCache) => {
    await new Promise((done) => setTimeout(done, 20));
    return cache.size;
  };

  it('counts exactly the bytes of the answers it holds, across evictions, also of answers evicted while being made', async () => {
    const cache = new RepresentationCache(1000, 40_000);
    const made = new Map<string, number>();
    for (let i = 0; i < 30; i++) {
      const rep = await cache.get(`k${i}`, () => encodeRepresentation(body(i), options));
      made.set(
        `k${i}`,
        Object.values(rep.variants).reduce((n, v) => n + v.body.length, 0),
      );
    }
    // Answers asked for at once: some are evicted before they are made.
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => cache.get(`p${i}`, () => encodeRepresentation(body(100 + i), options))),
    );
    const size = await held(cache);
    expect(size.bytes).toBeGreaterThan(0);
    expect(size.bytes).toBeLessThanOrEqual(40_000);
    // The count matches what is held: asking again for every held key makes nothing new.
    let remade = 0;
    for (let i = 0; i < 30; i++)
      await cache.get(`p${i}`, () => ((remade += 1), encodeRepresentation(body(100 + i), options)));
    expect(remade).toBeGreaterThan(0);
    const after = await held(cache);
    expect(after.bytes).toBeLessThanOrEqual(40_000);
    expect(after.bytes).toBeGreaterThan(0);
  });

  it('keeps its entry count bound', async () => {
    const cache = new RepresentationCache(5, 1 << 30);
    for (let i = 0; i < 20; i++) await cache.get(`k${i}`, () => encodeRepresentation(body(i), options));
    expect((await held(cache)).entries).toBe(5);
  });
});

describe('succeeding: a Last-Modified second shared by two bodies', () => {
  const options = (lastModified: string): EncodeOptions => ({
    contentType: 'application/json',
    cacheControl: 'no-cache',
    lastModified: new Date(lastModified),
    effort: 'fast',
  });
  const encoded = (body: string, lastModified: string) => encodeRepresentation(body, options(lastModified));

  it('is shared when other bytes come within the same second, and stays shared while that second is served', async () => {
    const first = await encoded('{"a":1}', '2024-03-05T10:20:30.100Z');
    const second = succeeding(await encoded('{"a":2}', '2024-03-05T10:20:30.900Z'), first);
    expect(second.lastModifiedShared).toBe(true);
    // The same bytes again under the same second: still indistinguishable from the first by date.
    expect(succeeding(await encoded('{"a":2}', '2024-03-05T10:20:30.950Z'), second).lastModifiedShared).toBe(true);
    // A later second names one body again.
    expect(succeeding(await encoded('{"a":3}', '2024-03-05T10:20:31.000Z'), second).lastModifiedShared).toBeFalsy();
  });

  it('is not shared for the same bytes under the same second, nor without a body before', async () => {
    const first = await encoded('{"a":1}', '2024-03-05T10:20:30.100Z');
    expect(succeeding(await encoded('{"a":1}', '2024-03-05T10:20:30.500Z'), first).lastModifiedShared).toBeFalsy();
    expect(succeeding(first, undefined).lastModifiedShared).toBeFalsy();
  });
});
