// The Atom and JSON Feed documents hold the 50 newest reviews, parse with real feed tools, conform to their specs and survive hostile text.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import FeedParser from 'feedparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { ReviewsDataset, type ImportedReview, type Review } from '../src/reviews/schemas.js';
import { compareNewestFirst } from './support/reviews.js';
import { publish, serverPerBlock, startServer, tempDir, type RunningServer } from './support/server.js';

const dir = tempDir();
let server: RunningServer;
const demo = generateDemo({ seed: 3, reviews: 300 });
const serviceId = demo.business.services[0]?.id ?? '';

// Dated after the demo's newest review (2026-11-15) so both land in the feeds.
const hostile: ImportedReview[] = [
  {
    id: 'zz-hostile-1',
    date: '2026-11-17',
    rating: 2,
    title: `Tags <b>bold</b> & "quotes" ]]> 'apostrophes'`,
    text: `Tech said "it's <fine> & done" ]]> then left 🙃. Café crème, naïve señor Núñez.\u0001 Tab\there.\nSecond line & <![CDATA[ x ]]>`,
    author: `Zoë "Z" <O'Brien> & Co`,
    technicians: ['Zoë Martínez'],
    services: [serviceId],
    serviceArea: 'Saint-Ló <&> "Nord"',
    response: { date: '2026-11-18', text: `Sorry & thanks <3 ]]> "we'll" fix it 🛠️` },
    verified: true,
  },
  {
    id: 'zz-hostile-2',
    date: '2026-11-16',
    rating: 5,
    text: '&amp; is not an entity here, &lt; neither; &#x26; &#38; 😀😀 Łódź Ørsted Ñandú',
    author: 'Łukasz Ś.',
    technicians: ['José <Núñez>'],
    services: [],
    verified: true,
  },
  {
    // Pasted from a CSV export: Windows line endings inside the text.
    id: 'zz-hostile-3',
    date: '2026-11-16',
    rating: 4,
    text: 'First line\r\nSecond line\r\n\r\nLast line, after a blank one.',
    author: 'Cora L.',
    technicians: [],
    services: [],
    verified: true,
  },
];
/** What a feed may carry for a review's text: XML 1.0 cannot hold C0 controls other than tab, LF and CR. */
const xmlSafe = (s: string) =>
  [...s].filter((c) => c.codePointAt(0)! >= 0x20 || c === '\t' || c === '\n' || c === '\r').join('');

let dataset: ReviewsDataset;
let newest: Review[];

beforeAll(async () => {
  server = await startServer(`${dir.path}/feeds.db`);
  await publish(server, { business: demo.business, reviews: [...demo.reviews, ...hostile], replace: true });
  dataset = ReviewsDataset.parse(await (await fetch(`${server.url}/reviews.json`)).json());
  newest = dataset.reviews.slice(0, 50);
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

const hubUrl = () => `${server.url}/api/websub/hub`;

function serviceName(id: string): string {
  return demo.business.services.find((s) => s.id === id)?.name ?? id;
}

/** The tags (JSON Feed) or categories (Atom) a review is expected to carry: its services, technicians and area. */
function expectedTags(review: Review): string[] {
  return [
    ...new Set([
      ...review.services.map(serviceName),
      ...review.technicians,
      ...(review.serviceArea ? [review.serviceArea] : []),
    ]),
  ].sort();
}

/** The feed text of a review holds its text, then the owner's response when there is one. */
function expectContentOf(content: string, review: Review, clean: (s: string) => string = (s) => s): void {
  const text = clean(review.text);
  if (!review.response) {
    expect(content, review.id).toBe(text);
    return;
  }
  expect(content.startsWith(text), review.id).toBe(true);
  expect(content.endsWith(clean(review.response.text)), review.id).toBe(true);
  expect(content.length, review.id).toBeGreaterThan(text.length + review.response.text.length);
}

function expectNewestFirst(reviews: readonly Review[]): void {
  for (let i = 1; i < reviews.length; i++) {
    const [a, b] = [reviews[i - 1]!, reviews[i]!];
    expect(compareNewestFirst(a, b), `${a.id} before ${b.id}`).toBeLessThan(0);
  }
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

describe('Atom feed', () => {
  interface ParsedAtom {
    meta: FeedParser.Meta;
    items: FeedParser.Item[];
    errors: Error[];
  }

  /** Streams the live feed into feedparser in strict mode, as a feed reader would. */
  async function parseAtom(): Promise<{ contentType: string | null } & ParsedAtom> {
    const res = await fetch(`${server.url}/feed.xml`);
    if (!res.body) throw new Error('the Atom feed has no body');
    const options: FeedParser.Options & { strict: boolean } = { strict: true, feedurl: `${server.url}/feed.xml` };
    const parser = new FeedParser(options);
    const items: FeedParser.Item[] = [];
    const errors: Error[] = [];
    let meta: FeedParser.Meta | undefined;
    const ended = new Promise<void>((resolve) => {
      parser.on('end', () => resolve());
      parser.on('error', (error: Error) => errors.push(error));
    });
    parser.on('meta', (m: FeedParser.Meta) => {
      meta = m;
    });
    parser.on('readable', () => {
      for (let item = parser.read(); item; item = parser.read()) items.push(item);
    });
    Readable.fromWeb(res.body).pipe(parser);
    await ended;
    if (!meta) throw new Error(`feedparser found no feed: ${errors.map((e) => e.message).join('; ')}`);
    return { contentType: res.headers.get('content-type'), meta, items, errors };
  }

  /** feedparser keeps the raw Atom elements beside its normalised fields; read them without `any`. */
  function rawLinks(meta: FeedParser.Meta): { rel?: string; href?: string }[] {
    const links: unknown = (meta as unknown as Record<string, unknown>)['atom:link'];
    return (Array.isArray(links) ? links : [links]).map((link: unknown) => {
      const attrs: unknown =
        typeof link === 'object' && link !== null ? (link as Record<string, unknown>)['@'] : undefined;
      return typeof attrs === 'object' && attrs !== null ? (attrs as { rel?: string; href?: string }) : {};
    });
  }

  /**
   * feedparser strips anything that looks like an HTML tag from its normalised `title`, even for type="text"
   * (a reader-side choice); the raw element beside it holds what the feed says.
   */
  function rawTitle(item: FeedParser.Item): { type?: string; text?: string } {
    const el: unknown = (item as unknown as Record<string, unknown>)['atom:title'];
    if (typeof el !== 'object' || el === null) return {};
    const { '@': attrs, '#': text } = el as { '@'?: { type?: string }; '#'?: unknown };
    return { type: attrs?.type, text: typeof text === 'string' ? text : undefined };
  }

  it('is served as application/atom+xml and holds only characters XML 1.0 allows', async () => {
    const res = await fetch(`${server.url}/feed.xml`);
    expect(res.headers.get('content-type')).toMatch(/^application\/atom\+xml\b/);
    const body = await res.text();
    expect(body.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    // XML 1.0 Char production: neither escaped nor raw, these may never appear.
    const forbidden = body.match(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu) ?? [];
    expect(forbidden.map((c) => c.codePointAt(0)?.toString(16))).toEqual([]);
    expect(XMLValidator.validate(body)).toBe(true);
  });

  it('parses in feedparser without errors, with the feed title, self link and WebSub hub link', async () => {
    const { contentType, meta, errors } = await parseAtom();
    expect(contentType).toMatch(/^application\/atom\+xml\b/);
    expect(errors.map((e) => e.message)).toEqual([]);
    expect(meta['#type']).toBe('atom');
    expect(meta.title).toBe(`${demo.business.name}: customer reviews`);
    const links = rawLinks(meta);
    expect(links.filter((l) => l.rel === 'self').map((l) => l.href)).toEqual([`${server.url}/feed.xml`]);
    expect(links.filter((l) => l.rel === 'hub').map((l) => l.href)).toEqual([hubUrl()]);
    expect(meta.xmlurl).toBe(`${server.url}/feed.xml`);
  });

  it('holds exactly the 50 newest reviews, newest first', async () => {
    const { items } = await parseAtom();
    expect(dataset.reviews.length).toBe([...demo.reviews, ...hostile].filter((r) => r.verified).length);
    expectNewestFirst(newest);
    expect(items).toHaveLength(50);
    items.forEach((item, i) => {
      const review = newest[i]!;
      expect(item.guid.endsWith(encodeURIComponent(review.id)), `${item.guid} is ${review.id}`).toBe(true);
      expect(item.pubdate?.toISOString().slice(0, 10)).toBe(review.date);
    });
    const published = items.map((item) => item.pubdate?.getTime() ?? NaN);
    expect(published).toEqual([...published].sort((a, b) => b - a));
    expect(new Set(items.map((item) => item.guid)).size).toBe(50);
  });

  it('gives every entry an id, title, dates, author, the review text and its categories', async () => {
    const { items } = await parseAtom();
    items.forEach((item, i) => {
      const review = newest[i]!;
      expect(item.guid.length).toBeGreaterThan(0);
      expect(item.title.length).toBeGreaterThan(0);
      expect(rawTitle(item).type).toBe('text');
      if (review.title) expect(rawTitle(item).text).toBe(xmlSafe(review.title));
      expect(item.pubdate).toBeInstanceOf(Date);
      expect(item.date).toBeInstanceOf(Date);
      expect(Number.isNaN(item.date?.getTime())).toBe(false);
      expect(item.author).toBe(xmlSafe(review.author));
      expectContentOf(item.description, review, xmlSafe);
      expect([...item.categories].sort()).toEqual(expectedTags(review).map(xmlSafe));
    });
  });

  it('keeps XML-hostile text intact, dropping only control characters', async () => {
    const { items } = await parseAtom();
    const [h1, h2] = [hostile[0]!, hostile[1]!];
    const first = items.find((item) => item.guid.endsWith(h1.id));
    const second = items.find((item) => item.guid.endsWith(h2.id));
    if (!first || !second) throw new Error('the hostile reviews are missing from the Atom feed');
    expect(rawTitle(first)).toEqual({ type: 'text', text: h1.title });
    expect(first.author).toBe(h1.author);
    expect(first.description).not.toContain('\u0001');
    expect(first.description.startsWith(h1.text.replace('\u0001', ''))).toBe(true);
    expect(first.description.endsWith(h1.response!.text)).toBe(true);
    expect(first.categories).toEqual(expect.arrayContaining([h1.serviceArea, 'Zoë Martínez']));
    expect(second.author).toBe(h2.author);
    expect(second.description).toBe(h2.text);
    expect(second.categories).toEqual(['José <Núñez>']);
  });

  describe('RFC 4287 structure', () => {
    type XmlNode = Record<string, unknown>;
    const isNode = (v: unknown): v is XmlNode => typeof v === 'object' && v !== null && !Array.isArray(v);
    /** Every element comes back as an array (isArray), so counting children is counting array items. */
    const children = (node: XmlNode, name: string): XmlNode[] => {
      const value = node[name];
      return Array.isArray(value) ? value.filter(isNode) : [];
    };
    const text = (node: XmlNode): string => (typeof node['#text'] === 'string' ? node['#text'] : '');

    async function parseXml(): Promise<XmlNode> {
      const body = await (await fetch(`${server.url}/feed.xml`)).text();
      const parser = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '@_',
        alwaysCreateTextNode: true,
        parseTagValue: false,
        parseAttributeValue: false,
        trimValues: false,
        // Numeric character references (&#13;) are core XML, but fast-xml-parser decodes them only with this on.
        htmlEntities: true,
        isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
      });
      const root: unknown = parser.parse(body, true);
      if (!isNode(root)) throw new Error('no document');
      const feeds = children(root, 'feed');
      expect(feeds).toHaveLength(1);
      return feeds[0]!;
    }

    it('gives the feed exactly one id, title and updated, an author and the Atom namespace', async () => {
      const feed = await parseXml();
      expect(feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
      for (const name of ['id', 'title', 'updated']) expect(children(feed, name), name).toHaveLength(1);
      expect(text(children(feed, 'id')[0]!)).toBe(`${server.url}/feed.xml`);
      expect(text(children(feed, 'updated')[0]!)).toMatch(RFC3339);
      // §4.1.1: without a feed author, every entry must have one.
      const entries = children(feed, 'entry');
      const feedHasAuthor = children(feed, 'author').length > 0;
      expect(feedHasAuthor || entries.every((e) => children(e, 'author').length > 0)).toBe(true);
      for (const author of children(feed, 'author')) expect(children(author, 'name')).toHaveLength(1);
      // §4.1.1: at most one alternate link per type and hreflang.
      const alternates = children(feed, 'link').filter((l) => (l['@_rel'] ?? 'alternate') === 'alternate');
      expect(new Set(alternates.map((l) => `${String(l['@_type'])}|${String(l['@_hreflang'])}`)).size).toBe(
        alternates.length,
      );
    });

    it('gives every entry exactly one id, title and updated, with unique ids and RFC 3339 dates', async () => {
      const feed = await parseXml();
      const entries = children(feed, 'entry');
      expect(entries).toHaveLength(50);
      const ids: string[] = [];
      for (const [i, entry] of entries.entries()) {
        for (const name of ['id', 'title', 'updated'])
          expect(children(entry, name), `entry ${i} ${name}`).toHaveLength(1);
        expect(children(entry, 'published').length).toBeLessThanOrEqual(1);
        expect(children(entry, 'content').length).toBeLessThanOrEqual(1);
        ids.push(text(children(entry, 'id')[0]!));
        expect(text(children(entry, 'updated')[0]!)).toMatch(RFC3339);
        for (const published of children(entry, 'published')) expect(text(published)).toMatch(RFC3339);
        for (const author of children(entry, 'author')) expect(children(author, 'name')).toHaveLength(1);
        for (const category of children(entry, 'category')) expect(typeof category['@_term']).toBe('string');
        // §4.1.3.3: text content has no child elements.
        for (const content of children(entry, 'content')) {
          expect(content['@_type']).toBe('text');
          expect(Object.keys(content).filter((k) => !k.startsWith('@_') && k !== '#text')).toEqual([]);
        }
        // §4.1.2: an entry without content must have an alternate link.
        if (children(entry, 'content').length === 0) {
          expect(children(entry, 'link').some((l) => (l['@_rel'] ?? 'alternate') === 'alternate')).toBe(true);
        }
      }
      expect(ids.every((id) => id.length > 0)).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).not.toContain(`${server.url}/feed.xml`);
    });

    const entryOf = (feed: XmlNode, id: string): XmlNode => {
      const entry = children(feed, 'entry').find((e) =>
        text(children(e, 'id')[0] ?? {}).endsWith(encodeURIComponent(id)),
      );
      if (!entry) throw new Error(`no entry for ${id}`);
      return entry;
    };

    it('keeps the hostile text intact for a second, independent XML parser', async () => {
      const feed = await parseXml();
      const entry = entryOf(feed, hostile[1]!.id);
      expect(text(children(entry, 'content')[0]!)).toBe(hostile[1]!.text);
      expect(text(children(children(entry, 'author')[0]!, 'name')[0]!)).toBe(hostile[1]!.author);
    });

    // XML 1.0 §2.11: a parser turns every literal CR (and CRLF) into LF, so a CR survives only as &#13;.
    it('keeps carriage returns in review text for a conforming XML parser', async () => {
      const feed = await parseXml();
      const review = hostile[2]!;
      expect(text(children(entryOf(feed, review.id), 'content')[0]!)).toBe(review.text);
    });
  });
});

describe('JSON Feed', () => {
  interface JsonFeedItem {
    id: string;
    url?: string;
    title?: string;
    content_text?: string;
    content_html?: string;
    date_published?: string;
    date_modified?: string;
    authors?: { name?: string }[];
    tags?: string[];
    _review?: unknown;
  }
  interface JsonFeed {
    version: string;
    title: string;
    feed_url?: string;
    home_page_url?: string;
    hubs?: { type: string; url: string }[];
    items: JsonFeedItem[];
  }

  const schema: unknown = JSON.parse(
    readFileSync(new URL('./support/jsonfeed-1.1.schema.json', import.meta.url), 'utf8'),
  );
  const ajv = new Ajv2020({ allErrors: true });
  // ajv-formats is CommonJS: under NodeNext its default export is the module object, whose .default is the plugin.
  formats.default(ajv);
  const validateFeed = ajv.compile<JsonFeed>(schema as object);

  async function getFeed(): Promise<{ contentType: string | null; body: unknown }> {
    const res = await fetch(`${server.url}/api/feed.json`);
    return { contentType: res.headers.get('content-type'), body: await res.json() };
  }

  async function validFeed(): Promise<JsonFeed> {
    const { body } = await getFeed();
    if (!validateFeed(body)) throw new Error(ajv.errorsText(validateFeed.errors));
    return body;
  }

  it('is served as application/feed+json', async () => {
    const { contentType } = await getFeed();
    expect(contentType).toMatch(/^application\/feed\+json\b/);
  });

  it('conforms to the JSON Feed 1.1 schema', async () => {
    const { body } = await getFeed();
    const valid = validateFeed(body);
    expect(valid, JSON.stringify(validateFeed.errors, null, 2)).toBe(true);
  });

  it('has a schema that rejects a feed without version, an item without id and an item without content', async () => {
    const feed = await validFeed();
    const [item] = feed.items;
    if (!item) throw new Error('the feed has no items');
    const { version: _version, ...withoutVersion } = feed;
    const { id: _id, ...itemWithoutId } = item;
    const { content_text: _text, content_html: _html, ...itemWithoutContent } = item;
    const cases: [string, unknown][] = [
      ['no version', withoutVersion],
      ['item without id', { ...feed, items: [itemWithoutId] }],
      ['item without content', { ...feed, items: [itemWithoutContent] }],
      ['version 1.0 url', { ...feed, version: 'https://jsonfeed.org/version/1' }],
      ['date that is not RFC 3339', { ...feed, items: [{ ...item, date_published: '2026-11-17' }] }],
      ['hub without url', { ...feed, hubs: [{ type: 'WebSub' }] }],
      ['unknown key that is not an extension', { ...feed, item_count: 50 }],
      ['extension name with a dot', { ...feed, '_a.b': {} }],
      ['author object with nothing in it', { ...feed, items: [{ ...item, authors: [{}] }] }],
    ];
    for (const [name, invalid] of cases) expect(validateFeed(invalid), name).toBe(false);
    expect(validateFeed({ ...feed, items: [{ ...itemWithoutContent, content_html: '<p>x</p>' }] })).toBe(true);
    expect(validateFeed({ ...feed, _ext: { about: 'https://example.org/' } })).toBe(true);
  });

  it('names itself and announces the WebSub hub', async () => {
    const feed = await validFeed();
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.title).toBe(`${demo.business.name}: customer reviews`);
    expect(feed.feed_url).toBe(`${server.url}/api/feed.json`);
    expect(feed.hubs).toContainEqual({ type: 'WebSub', url: hubUrl() });
  });

  it('holds the 50 newest reviews, newest first, dated in RFC 3339', async () => {
    const feed = await validFeed();
    expect(feed.items).toHaveLength(50);
    const published = feed.items.map((item) => item.date_published ?? '');
    for (const date of published) {
      expect(date).toMatch(RFC3339);
      expect(Number.isNaN(Date.parse(date))).toBe(false);
    }
    const times = published.map((d) => Date.parse(d));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(feed.items.map((item) => item.id)).size).toBe(50);
  });

  it('has items equal to the first 50 reviews of /reviews.json', async () => {
    const feed = await validFeed();
    expectNewestFirst(newest);
    feed.items.forEach((item, i) => {
      const review = newest[i]!;
      expect(item._review, review.id).toEqual({
        about: `${server.url}/.well-known/openapi.json`,
        id: review.id,
        rating: review.rating,
        technicians: review.technicians,
        services: review.services,
        ...(review.serviceArea ? { serviceArea: review.serviceArea } : {}),
      });
      expect(item.id.endsWith(encodeURIComponent(review.id))).toBe(true);
      expect(item.date_published?.slice(0, 10)).toBe(review.date);
      expect(item.authors).toEqual([{ name: review.author }]);
      if (review.title) expect(item.title).toBe(review.title);
      expectContentOf(item.content_text ?? '', review);
      expect([...(item.tags ?? [])].sort()).toEqual(expectedTags(review));
    });
    // JSON carries every character, the control character included.
    expect(feed.items[0]?.content_text?.startsWith(hostile[0]!.text)).toBe(true);
  });
});

describe('feeds of an empty store', () => {
  const empty = serverPerBlock(`${dir.path}/empty.db`);

  it('serves a valid JSON Feed with no items', async () => {
    const ajv = new Ajv2020({ allErrors: true });
    formats.default(ajv);
    const validate = ajv.compile(
      JSON.parse(readFileSync(new URL('./support/jsonfeed-1.1.schema.json', import.meta.url), 'utf8')) as object,
    );
    const res = await fetch(`${empty().url}/api/feed.json`);
    expect(res.status).toBe(200);
    const body: unknown = await res.json();
    expect(validate(body), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(body).toMatchObject({ items: [], hubs: [{ type: 'WebSub', url: `${empty().url}/api/websub/hub` }] });
  });

  it('serves a well-formed Atom feed with no entries but its id, title and updated', async () => {
    const body = await (await fetch(`${empty().url}/feed.xml`)).text();
    expect(XMLValidator.validate(body)).toBe(true);
    const root: unknown = new XMLParser({ isArray: () => false }).parse(body);
    const feed: unknown =
      typeof root === 'object' && root !== null ? (root as Record<string, unknown>).feed : undefined;
    expect(feed).toMatchObject({
      id: `${empty().url}/feed.xml`,
      title: expect.any(String),
      updated: expect.stringMatching(RFC3339),
    });
    expect(feed).not.toHaveProperty('entry');
  });
});
