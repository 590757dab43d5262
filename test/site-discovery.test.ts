// The pages make the service findable: JSON-LD true to the data and to schema.org's vocabulary, feed, llms.txt and sitemap links that answer, badge, embed, headers, caching, server-side paging and the OpenAPI paths.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateDemo } from '../src/demo/generate.js';
import { ReviewsDataset, type Business, type ImportedReview, type Review } from '../src/reviews/schemas.js';
import { newReview } from './support/reviews.js';
import { loadVocabulary, schemaOrgIssues } from './support/schema-org.js';
import { publish, serverPerBlock, startServer, tempDir, type RunningServer } from './support/server.js';

const dir = tempDir();
const vocabulary = loadVocabulary();
const demo = generateDemo({ seed: 11, reviews: 300 });
// A valid id that needs escaping in a URL and in XML; dated first so it lands on the last page of the list.
const oddId = 'zz odd/ü & 1';
const oddReview: ImportedReview = {
  id: oddId,
  date: '2020-06-01',
  rating: 4,
  text: 'An <odd> id & "quoted" text.',
  author: 'Ö. Test',
  technicians: [],
  services: [],
  verified: true,
};
const unverified = demo.reviews.find((r) => !r.verified);

let server: RunningServer;
let dataset: ReviewsDataset;

beforeAll(async () => {
  server = await startServer(`${dir.path}/site.db`);
  await publish(server, { business: demo.business, reviews: [...demo.reviews, oddReview], replace: true });
  await server.app.publisher.insightsReady();
  dataset = ReviewsDataset.parse(await (await page('/reviews.json')).json());
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { redirect: 'manual', headers });
const page = (path: string, headers: Record<string, string> = {}) => get(`${server.url}${path}`, headers);
const permalinkOf = (id: string, base = server.url) => `${base}/reviews/${encodeURIComponent(id)}`;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const decodeHtml = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) =>
    name.startsWith('#')
      ? String.fromCodePoint(Number(name.replace(/^#x/i, '0x').replace(/^#/, '')))
      : (ENTITIES[name] ?? whole),
  );

/** The decoded attributes of every start tag named `tag`, in document order. */
function startTags(html: string, tag: string): Record<string, string>[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'gi'))].map(([, attributes = '']) =>
    Object.fromEntries(
      [...attributes.matchAll(/([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)].map(
        ([, name = '', a, b, c]) => [name.toLowerCase(), decodeHtml(a ?? b ?? c ?? '')],
      ),
    ),
  );
}

/** The ids of the `<article class="review" id="review-…">` elements, in page order. */
const articleIds = (html: string) =>
  startTags(html, 'article')
    .filter((a) => (a.class ?? '').split(/\s+/).includes('review') && a.id?.startsWith('review-'))
    .map((a) => (a.id ?? '').slice('review-'.length));

function jsonLdOf(html: string): unknown {
  const blocks = [...html.matchAll(/<script\b[^>]*\btype="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/gi)];
  expect(blocks).toHaveLength(1);
  return JSON.parse(blocks[0]?.[1] ?? '');
}

// What the tests read of the JSON-LD; looseObject keeps the rest for the vocabulary check.
const LdReview = z.looseObject({
  '@type': z.literal('Review'),
  '@id': z.string(),
  url: z.string(),
  author: z.looseObject({ '@type': z.literal('Person'), name: z.string() }),
  datePublished: z.string(),
  reviewBody: z.string(),
  reviewRating: z.looseObject({ '@type': z.literal('Rating'), ratingValue: z.number() }),
});
const LdBusiness = z.looseObject({
  '@context': z.string(),
  '@type': z.array(z.string()),
  '@id': z.string(),
  name: z.string(),
  url: z.string(),
  telephone: z.string(),
  address: z.looseObject({ '@type': z.literal('PostalAddress') }),
  areaServed: z.array(z.union([z.string(), z.looseObject({ name: z.string() })])),
  aggregateRating: z.looseObject({
    '@type': z.literal('AggregateRating'),
    ratingValue: z.number(),
    reviewCount: z.number(),
    bestRating: z.number(),
    worstRating: z.number(),
  }),
  review: z.array(LdReview),
});
const LdPermalink = LdReview.extend({
  '@context': z.string(),
  itemReviewed: z.looseObject({ '@id': z.string(), '@type': z.array(z.string()), name: z.string() }),
});

const TYPE_OF_CATEGORY: Record<string, string> = {
  cooling: 'HVACBusiness',
  plumbing: 'Plumber',
  electrical: 'Electrician',
};
function expectedTypes(business: Business): string[] {
  const types = [...new Set(business.services.flatMap((s) => TYPE_OF_CATEGORY[s.category] ?? []))].sort();
  return types.length > 0 ? types : ['HomeAndConstructionBusiness'];
}

function expectLdReview(ld: z.infer<typeof LdReview>, review: Review, base = server.url): void {
  expect(ld['@id'], review.id).toBe(permalinkOf(review.id, base));
  expect(ld.url, review.id).toBe(permalinkOf(review.id, base));
  expect(ld.author.name, review.id).toBe(review.author);
  expect(ld.datePublished.slice(0, 10), review.id).toBe(review.date);
  expect(ld.reviewBody, review.id).toBe(review.text);
  expect(ld.reviewRating.ratingValue, review.id).toBe(review.rating);
}

/** A permalink answers 200 with an HTML page that shows the review's text. */
async function expectPermalinkPage(url: string, review: Review): Promise<void> {
  const res = await get(url);
  expect(res.status, url).toBe(200);
  expect(res.headers.get('content-type'), url).toMatch(/^text\/html; charset=utf-8$/i);
  const body = decodeHtml(await res.text());
  for (const line of review.text.split('\n').filter((l) => l.trim())) expect(body, url).toContain(line);
}

async function expectHomePage(url: string): Promise<void> {
  const res = await get(url);
  expect(res.status, url).toBe(200);
  expect(res.headers.get('content-type'), url).toMatch(/^text\/html; charset=utf-8$/i);
}

/** The WebSub hub takes subscriptions by POST only (W3C WebSub §5.1): a GET must find it there, refused with 405. */
async function expectPostOnlyHub(url: string): Promise<void> {
  const res = await get(url);
  expect(res.status, url).toBe(405);
  expect(res.headers.get('allow'), url).toContain('POST');
}

describe('JSON-LD', () => {
  it('describes the business in one block whose aggregate rating equals /reviews.json and whose @type follows its trades', async () => {
    const res = await page('/');
    expect(res.status).toBe(200);
    const ld = LdBusiness.parse(jsonLdOf(await res.text()));
    const { ratingValue, reviewCount, bestRating, worstRating } = dataset.aggregateRating;
    expect(ld.aggregateRating).toMatchObject({ ratingValue, reviewCount, bestRating, worstRating });
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@id']).toBe(`${server.url}/#business`);
    expect([...ld['@type']].sort()).toEqual(['Electrician', 'HVACBusiness', 'Plumber']);
    expect(ld.name).toBe(demo.business.name);
    expect(ld.telephone).toBe(demo.business.telephone);
    expect(ld.address).toMatchObject({ ...demo.business.address });
    expect(ld.areaServed.map((a) => (typeof a === 'string' ? a : a.name))).toEqual(demo.business.areaServed);
  });

  it('lists the newest reviews of /reviews.json as Reviews identified by their permalinks', async () => {
    const { review } = LdBusiness.parse(jsonLdOf(await (await page('/')).text()));
    expect(review.length).toBeGreaterThan(0);
    review.forEach((ld, i) => expectLdReview(ld, dataset.reviews[i]!));
  });

  it('gives each permalink page the Review of its review, about the business by @id', async () => {
    for (const review of [dataset.reviews[3]!, dataset.reviews.find((r) => r.response)!]) {
      const ld = LdPermalink.parse(jsonLdOf(await (await get(permalinkOf(review.id))).text()));
      expect(ld['@context']).toBe('https://schema.org');
      expectLdReview(ld, review);
      expect(ld.itemReviewed['@id']).toBe(`${server.url}/#business`);
      expect(ld.itemReviewed.name).toBe(demo.business.name);
      expect([...ld.itemReviewed['@type']].sort()).toEqual(expectedTypes(demo.business));
    }
  });

  it("uses only schema.org's classes and properties, each property within its domain and each value within its range", async () => {
    const pages = [
      '/',
      `/reviews/${encodeURIComponent(dataset.reviews[0]!.id)}`,
      `/reviews/${encodeURIComponent(oddId)}`,
    ];
    for (const path of pages)
      expect(schemaOrgIssues(jsonLdOf(await (await page(path)).text()), vocabulary), path).toEqual([]);
  });

  it('has a vocabulary check that refuses unknown classes and properties, a property off its domain and values off their range', () => {
    expect(vocabulary.ancestors('HVACBusiness')).toEqual(
      expect.arrayContaining(['HomeAndConstructionBusiness', 'LocalBusiness', 'Organization', 'Thing']),
    );
    const valid = {
      '@context': 'https://schema.org',
      '@type': ['Plumber'],
      '@id': 'https://example.org/#b',
      name: 'B',
      areaServed: ['Mesa'],
      aggregateRating: { '@type': 'AggregateRating', ratingValue: 4.5, reviewCount: 2 },
      review: [
        {
          '@type': 'Review',
          author: { '@type': 'Person', name: 'Jo' },
          datePublished: '2026-01-02',
          itemReviewed: { '@id': 'https://example.org/#b' },
        },
      ],
    };
    expect(schemaOrgIssues(valid, vocabulary)).toEqual([]);
    const invalid = {
      '@context': 'https://schema.org',
      '@type': ['HVACBuisness', 'Plumber'],
      reviewBody: 'a Review property',
      colour: 'blue',
      aggregateRating: { '@type': 'AggregateRating', reviewCount: 'many' },
      review: [
        { '@type': 'Rating', ratingValue: 5 },
        { '@type': 'Review', author: 'Jo', itemReviewed: { '@id': 'not a url' } },
      ],
    };
    expect(schemaOrgIssues(invalid, vocabulary).map((issue) => issue.split(': ')[0])).toEqual([
      '$.@type',
      '$.reviewBody',
      '$.colour',
      '$.aggregateRating.reviewCount',
      '$.review[0]',
      '$.review[1].author',
      '$.review[1].itemReviewed.@id',
    ]);
  });
});

describe('the business @type', () => {
  const own = serverPerBlock(`${dir.path}/types.db`);
  it.each([
    [['plumbing'], ['Plumber']],
    [
      ['cooling', 'electrical'],
      ['Electrician', 'HVACBusiness'],
    ],
    [[], ['HomeAndConstructionBusiness']],
  ])('follows the service categories %j as %j', async (categories, types) => {
    const business: Business = {
      ...demo.business,
      services: categories.map((category, i) => ({ id: `service-${i}`, name: `Service ${i}`, category })),
    };
    await publish(own(), { business, reviews: [newReview()], replace: true });
    const ld = LdBusiness.parse(jsonLdOf(await (await get(`${own().url}/`)).text()));
    expect([...ld['@type']].sort()).toEqual(types);
  });
});

describe('links of the feeds', () => {
  const JsonFeed = z.looseObject({
    home_page_url: z.string(),
    feed_url: z.string(),
    hubs: z.array(z.looseObject({ url: z.string() })),
    items: z.array(z.looseObject({ url: z.string() })),
  });
  const AtomLink = z.looseObject({ '@_href': z.string(), '@_rel': z.string().optional() });
  const Atom = z.object({
    feed: z.looseObject({ link: z.array(AtomLink), entry: z.array(z.looseObject({ link: z.array(AtomLink) })) }),
  });

  it('resolves every JSON Feed link: home page and item permalinks are HTML pages, the feed itself, the POST-only hub', async () => {
    const feed = JsonFeed.parse(await (await page('/api/feed.json')).json());
    expect(feed.home_page_url).toBe(`${server.url}/`);
    await expectHomePage(feed.home_page_url);
    expect(feed.feed_url).toBe(`${server.url}/api/feed.json`);
    expect((await get(feed.feed_url)).status).toBe(200);
    expect(feed.hubs.length).toBeGreaterThan(0);
    for (const hub of feed.hubs) await expectPostOnlyHub(hub.url);
    expect(feed.items).toHaveLength(50);
    for (const [i, item] of feed.items.entries()) {
      const review = dataset.reviews[i]!;
      expect(item.url).toBe(permalinkOf(review.id));
      await expectPermalinkPage(item.url, review);
    }
  });

  it('resolves every Atom link: self, the POST-only hub, the home page, and each entry permalink', async () => {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      isArray: (name) => name === 'link' || name === 'entry',
    });
    const { feed } = Atom.parse(parser.parse(await (await page('/feed.xml')).text()));
    const rels = feed.link.map((l) => [l['@_rel'] ?? 'alternate', l['@_href']] as const);
    expect(rels).toEqual(
      expect.arrayContaining([
        ['self', `${server.url}/feed.xml`],
        ['hub', `${server.url}/api/websub/hub`],
        ['alternate', `${server.url}/`],
      ]),
    );
    for (const [rel, href] of rels) {
      if (rel === 'hub') await expectPostOnlyHub(href);
      else if (rel === 'alternate') await expectHomePage(href);
      else expect((await get(href)).status, href).toBe(200);
    }
    expect(feed.entry).toHaveLength(50);
    for (const [i, entry] of feed.entry.entries()) {
      const review = dataset.reviews[i]!;
      const links = entry.link.map((l) => [l['@_rel'] ?? 'alternate', l['@_href']] as const);
      expect(links).toContainEqual(['alternate', permalinkOf(review.id)]);
      for (const [rel, href] of links) {
        if (rel === 'alternate') await expectPermalinkPage(href, review);
        else expect((await get(href)).status, href).toBe(200);
      }
    }
  });

  it('answers an unknown or unverified review id with a 404 HTML page, or JSON not_found to a client asking for JSON', async () => {
    expect(unverified).toBeDefined();
    for (const id of ['no-such-review', unverified?.id ?? '']) {
      const html = await get(permalinkOf(id));
      expect(html.status, id).toBe(404);
      expect(html.headers.get('content-type'), id).toMatch(/^text\/html; charset=utf-8$/i);
      const json = await get(permalinkOf(id), { accept: 'application/json' });
      expect(json.status, id).toBe(404);
      expect(json.headers.get('content-type'), id).toMatch(/^application\/json\b/);
      expect(await json.json(), id).toMatchObject({ error: 'not_found', message: expect.any(String) });
    }
  });
});

describe('/llms.txt', () => {
  async function llms(): Promise<{ lines: string[]; urls: string[] }> {
    const res = await page('/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/markdown; charset=utf-8$/i);
    const lines = (await res.text()).split('\n');
    const firstSection = lines.findIndex((l) => l.startsWith('## '));
    const items = lines.slice(Math.max(firstSection, 0)).filter((l) => l.startsWith('- '));
    return { lines, urls: items.map((l) => /^- \[[^\]]+\]\(([^)\s]+)\)/.exec(l)?.[1] ?? l) };
  }

  it('follows the llms.txt convention: the business as the title, a summary quote, then sections of absolute links', async () => {
    const { lines, urls } = await llms();
    expect(lines[0]).toBe(`# ${demo.business.name}`);
    expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1);
    const summary = lines.findIndex((l) => l.startsWith('> '));
    expect(summary).toBeGreaterThan(0);
    expect(lines.findIndex((l) => l.startsWith('## '))).toBeGreaterThan(summary);
    const { ratingValue, reviewCount } = dataset.aggregateRating;
    expect(lines[summary]).toContain(String(reviewCount));
    expect([ratingValue?.toFixed(1), String(ratingValue)].some((r) => r && lines[summary]?.includes(r))).toBe(true);
    const items = lines.slice(lines.findIndex((l) => l.startsWith('## '))).filter((l) => l.startsWith('- '));
    for (const item of items) expect(item).toMatch(/^- \[[^\]]+\]\(https?:\/\/[^)\s]+\)(: .+)?$/);
    for (const url of urls) expect(url.startsWith(`${server.url}/`), url).toBe(true);
    const listed = [
      '/reviews.json',
      '/insights.json',
      '/api/feed.json',
      '/feed.xml',
      '/.well-known/openapi.json',
      '/docs',
      '/mcp',
    ];
    expect(urls).toEqual(expect.arrayContaining(listed.map((p) => `${server.url}${p}`)));
  });

  it('links only to what answers 200, besides the MCP endpoint, which takes POST', async () => {
    const { urls } = await llms();
    for (const url of urls.filter((u) => u !== `${server.url}/mcp`)) expect((await get(url)).status, url).toBe(200);
  });
});

describe('robots.txt and the sitemap', () => {
  it('names the sitemap in robots.txt', async () => {
    const res = await page('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; charset=utf-8$/i);
    const lines = (await res.text()).split(/\r?\n/).map((l) => l.trim());
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain(`Sitemap: ${server.url}/sitemap.xml`);
  });

  it('lists the home page and exactly one permalink per published review, and a sample of them answers 200', async () => {
    const res = await page('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml\b/);
    const body = await res.text();
    expect(XMLValidator.validate(body)).toBe(true);
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      parseTagValue: false,
      isArray: (name) => name === 'url',
    });
    const Sitemap = z.object({
      urlset: z.looseObject({
        '@_xmlns': z.string(),
        url: z.array(z.looseObject({ loc: z.string(), lastmod: z.string().optional() })),
      }),
    });
    const { urlset } = Sitemap.parse(parser.parse(body));
    expect(urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    const locs = urlset.url.map((u) => u.loc);
    expect(locs.filter((l) => l === `${server.url}/`)).toHaveLength(1);
    const prefix = `${server.url}/reviews/`;
    const permalinks = locs.filter((l) => l.startsWith(prefix));
    expect(permalinks.map((l) => decodeURIComponent(l.slice(prefix.length))).sort()).toEqual(
      dataset.reviews.map((r) => r.id).sort(),
    );
    for (const { lastmod } of urlset.url)
      if (lastmod !== undefined)
        expect(lastmod).toMatch(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/);
    const byId = new Map(dataset.reviews.map((r) => [r.id, r]));
    const step = Math.ceil(permalinks.length / 20);
    const sample = [...permalinks.filter((_, i) => i % step === 0), permalinkOf(oddId)];
    for (const loc of sample) await expectPermalinkPage(loc, byId.get(decodeURIComponent(loc.slice(prefix.length)))!);
  });
});

describe('the badge and the embed', () => {
  it('serves the badge as SVG titled with the rating and review count, cached with max-age and revalidated by ETag', async () => {
    const res = await page('/badge.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml\b/);
    expect(res.headers.get('cache-control')).toMatch(/\bmax-age=\d+/);
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    const body = await res.text();
    expect(XMLValidator.validate(body)).toBe(true);
    const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, alwaysCreateTextNode: true });
    const Svg = z.object({ svg: z.looseObject({ title: z.looseObject({ '#text': z.string() }) }) });
    const title = Svg.parse(parser.parse(body)).svg.title['#text'];
    const { ratingValue, reviewCount } = dataset.aggregateRating;
    expect(title).toContain(ratingValue?.toFixed(1));
    expect(title).toContain(String(reviewCount));
    expect((await page('/badge.svg', { 'if-none-match': etag })).status).toBe(304);
  });

  it('embeds the three newest reviews, each opening its permalink in a new tab, in a page any site may frame', async () => {
    const res = await page('/embed');
    expect(res.status).toBe(200);
    expectPageHeaders(res, '*');
    expect(res.headers.get('x-frame-options')).toBeNull();
    const permalink = new RegExp(`^(?:${server.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})?/reviews/([^/?#]+)$`);
    const html = await res.text();
    const links = startTags(html, 'a').filter((a) => permalink.test(a.href ?? ''));
    const ids = [...new Set(links.map((a) => decodeURIComponent(permalink.exec(a.href ?? '')?.[1] ?? '')))];
    const newest = dataset.reviews.slice(0, 3);
    expect(ids).toEqual(newest.map((r) => r.id));
    for (const link of links) expect(link.target).toBe('_blank');
    // Brief cards: each text up to some 220 characters, cut at a word, with the permalink for the rest.
    for (const review of newest) expect(decodeHtml(html)).toContain(review.text.slice(0, 100));
    expect(decodeHtml(html)).toContain(dataset.aggregateRating.ratingValue?.toFixed(1));
  });
});

/** Only the page's own origin: keywords, hashes and nonces, and data:/blob: (no host, no http:/https:, no *). */
const SAME_ORIGIN_SOURCE =
  /^('(self|none|unsafe-inline|unsafe-eval|unsafe-hashes|strict-dynamic|report-sample|wasm-unsafe-eval)'|'(nonce|sha256|sha384|sha512)-[^']+'|data:|blob:)$/;

function expectPageHeaders(res: Response, frameAncestors: string): void {
  expect(res.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8$/i);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  const csp = new Map(
    (res.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name = '', ...sources]) => [name.toLowerCase(), sources]),
  );
  expect(csp.get('frame-ancestors')).toEqual([frameAncestors]);
  const foreign = [...csp].flatMap(([name, sources]) =>
    name === 'frame-ancestors' ? [] : sources.filter((s) => !SAME_ORIGIN_SOURCE.test(s)).map((s) => `${name} ${s}`),
  );
  expect(foreign).toEqual([]);
  const scriptDirectives = [...csp].filter(([name]) => name.startsWith('script-src'));
  const scriptSources =
    scriptDirectives.length > 0
      ? scriptDirectives.flatMap(([, s]) => s)
      : (csp.get('default-src') ?? ["'unsafe-inline'"]);
  expect(scriptSources.filter((s) => s === "'unsafe-inline'" || s === "'unsafe-eval'")).toEqual([]);
}

describe('security headers', () => {
  it.each(['/', '/reviews/:first', '/docs'])(
    '%s forbids framing and sniffing, names no other origin and allows no inline or eval script',
    async (path) => {
      const res = await page(path.replace(':first', encodeURIComponent(dataset.reviews[0]!.id)));
      expect(res.status).toBe(200);
      expectPageHeaders(res, "'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    },
  );
});

describe('paging and searching on the server', () => {
  it('lists reviews 21–40 of /reviews.json on page 2', async () => {
    const res = await page('/?page=2');
    expect(res.status).toBe(200);
    expect(articleIds(await res.text())).toEqual(dataset.reviews.slice(20, 40).map((r) => r.id));
  });

  it('answers a page past the last with a 404 page, and an invalid filter with a 400 page that shows the form', async () => {
    const last = Math.ceil(dataset.reviews.length / 20);
    expect(articleIds(await (await page(`/?page=${last}`)).text())).toEqual(
      dataset.reviews.slice((last - 1) * 20).map((r) => r.id),
    );
    const past = await page(`/?page=${last + 1}`);
    expect(past.status).toBe(404);
    expect(past.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8$/i);
    const invalid = await page('/?rating=9');
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-type')).toMatch(/^text\/html; charset=utf-8$/i);
    expect(startTags(await invalid.text(), 'form').map((f) => f.id)).toContain('search');
  });

  it('lists for a query exactly the reviews the search API returns, ignoring unknown parameters', async () => {
    const Search = z.looseObject({ total: z.number(), reviews: z.array(z.looseObject({ id: z.string() })) });
    const api = Search.parse(await (await page('/api/reviews/search?query=water&limit=20')).json());
    expect(api.total).toBeGreaterThan(0);
    const res = await page('/?query=water&utm_source=newsletter');
    expect(res.status).toBe(200);
    expect(articleIds(await res.text())).toEqual(api.reviews.map((r) => r.id));
  });
});

describe('the OpenAPI description', () => {
  it('has every page route in its paths', async () => {
    const { paths } = z
      .object({ paths: z.record(z.string(), z.unknown()) })
      .parse(await (await page('/.well-known/openapi.json')).json());
    // Path parameter names are the description's own choice; the routes are what must be there.
    const described = Object.keys(paths).map((p) => p.replace(/\{[^}]+\}/g, '{}'));
    const pages = ['/', '/reviews/{}', '/docs', '/badge.svg', '/embed', '/llms.txt', '/robots.txt', '/sitemap.xml'];
    expect(pages.filter((p) => !described.includes(p))).toEqual([]);
  });
});

describe('home page caching', () => {
  const own = serverPerBlock(`${dir.path}/home-cache.db`);
  const small = generateDemo({ seed: 12, reviews: 120 });
  const identity = { 'accept-encoding': 'identity' };
  beforeAll(async () => {
    await publish(own(), { business: small.business, reviews: small.reviews, replace: true });
    await own().app.publisher.insightsReady();
  });

  it('answers with a strong ETag per coding and Last-Modified, 304 to If-None-Match, and a br variant of the same page', async () => {
    const plain = await get(`${own().url}/`, identity);
    expect(plain.status).toBe(200);
    const etag = plain.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(Number.isNaN(Date.parse(plain.headers.get('last-modified') ?? ''))).toBe(false);
    const text = await plain.text();
    expect((await get(`${own().url}/`, { ...identity, 'if-none-match': etag })).status).toBe(304);
    const br = await get(`${own().url}/`, { 'accept-encoding': 'br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')?.toLowerCase()).toContain('accept-encoding');
    const brTag = br.headers.get('etag') ?? '';
    expect(brTag).toMatch(/^"[^"]+"$/);
    expect(brTag).not.toBe(etag);
    expect(await br.text()).toBe(text);
    expect((await get(`${own().url}/`, { 'accept-encoding': 'br', 'if-none-match': brTag })).status).toBe(304);
  });

  it('changes after an import: a new ETag, and the new review listed first', async () => {
    const before = await get(`${own().url}/`, identity);
    const etag = before.headers.get('etag') ?? '';
    const review = newReview({ date: '2026-12-01' });
    await publish(own(), { reviews: [review], replace: false });
    await own().app.publisher.insightsReady();
    const after = await get(`${own().url}/`, { ...identity, 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(Date.parse(after.headers.get('last-modified') ?? '')).toBeGreaterThanOrEqual(
      Date.parse(before.headers.get('last-modified') ?? ''),
    );
    const html = await after.text();
    expect(articleIds(html)[0]).toBe(review.id);
    expect(LdBusiness.parse(jsonLdOf(html)).review[0]?.['@id']).toBe(permalinkOf(review.id, own().url));
  });
});
