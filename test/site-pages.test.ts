// The pages stay safe and whole with any data: hostile text is shown as text everywhere (HTML, JSON-LD, XML,
// Markdown), an empty store gets pages that say so, charts break on quarters without reviews, and a sitemap past
// 50,000 URLs becomes an index of parts.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishedReview } from '../src/reviews/published.js';
import { quarterFigures, trendChart } from '../src/site/charts.js';
import { sitemap, sitemapPart, SITEMAP_URLS } from '../src/site/discovery.js';
import { newReview, PUBLIC_FIELDS } from './support/reviews.js';
import { publish, serverPerBlock, tempDir } from './support/server.js';

const dir = tempDir();
afterAll(() => dir.remove());

const HOSTILE = `</script><script>alert(1)</script><img src=x onerror=alert(2)> & "quotes" 'apos' ]]> <!-- -->`;

describe('hostile text in the data', () => {
  const server = serverPerBlock(`${dir.path}/hostile.db`);
  beforeAll(async () => {
    await publish(server(), {
      business: {
        name: `Bad <b>Biz</b> & "Co" </script>`,
        areaServed: [`Town <i>`],
        services: [{ id: 'ac-repair', name: 'AC <repair>', category: 'cooling' }],
        technicians: [{ name: 'Zoë <x>' }],
        telephone: '+1 555 <0>',
      },
      reviews: [
        newReview({
          id: 'hostile-1',
          date: '2026-01-02',
          text: HOSTILE,
          author: `<b>Mallory</b>`,
          title: `Title ${HOSTILE}`,
          technicians: ['Zoë <x>'],
          services: ['ac-repair'],
          serviceArea: 'Area <y>',
          response: { date: '2026-01-03', text: HOSTILE },
        }),
      ],
      replace: true,
    });
  });

  const text = async (path: string) => {
    const response = await fetch(`${server().url}${path}`);
    expect(response.status, path).toBe(200);
    return response.text();
  };

  it('shows it as text on the home page, the permalink and the embed: no element or attribute comes from the data', async () => {
    for (const path of ['/', '/reviews/hostile-1', '/embed', '/?query=alert']) {
      const html = await text(path);
      expect(html, path).not.toContain('<script>alert');
      expect(html, path).not.toContain('<img src=x');
      expect(html, path).not.toContain('<b>Mallory');
      expect(html, path).not.toContain('<b>Biz');
      expect(html, path).toContain('&lt;b&gt;Mallory&lt;/b&gt;');
      // The only scripts are the page's own file and the JSON-LD data block.
      for (const [tag] of html.matchAll(/<script\b[^>]*>/g))
        expect(tag, path).toMatch(/src="\/assets\/site\.[\w-]+\.js"|type="application\/ld\+json"/);
    }
  });

  it('keeps the JSON-LD block closed and parseable, with the text as it was', async () => {
    for (const path of ['/', '/reviews/hostile-1']) {
      const html = await text(path);
      const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
      expect(blocks, path).toHaveLength(1);
      const json = JSON.parse(blocks[0]![1]!) as { reviewBody?: string; review?: { reviewBody: string }[] };
      expect(json.reviewBody ?? json.review?.[0]?.reviewBody, path).toBe(HOSTILE);
    }
  });

  it('keeps the sitemap and the badge valid XML, and escapes Markdown in llms.txt', async () => {
    for (const path of ['/sitemap.xml', '/badge.svg']) expect(XMLValidator.validate(await text(path)), path).toBe(true);
    const llms = await text('/llms.txt');
    expect(llms.split('\n')[0]).toBe('# Bad \\<b\\>Biz\\</b\\> & "Co" \\</script\\>');
  });
});

describe('an empty store', () => {
  const server = serverPerBlock(`${dir.path}/empty.db`);
  const get = (path: string) => fetch(`${server().url}${path}`);

  it('serves a home page that says there are no reviews yet, with no rating in its JSON-LD', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('No reviews yet.');
    const block = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
    const json = JSON.parse(block![1]!) as Record<string, unknown>;
    expect(json['@type']).toEqual(['HomeAndConstructionBusiness']);
    expect(json.aggregateRating).toBeUndefined();
    expect(json.review).toEqual([]);
  });

  it('answers page 1 but not page 2, a badge saying none yet, and a sitemap of the home page alone', async () => {
    expect((await get('/?page=1')).status).toBe(200);
    expect((await get('/?page=2')).status).toBe(404);
    expect(await (await get('/badge.svg')).text()).toContain('none yet');
    const urls = new XMLParser().parse(await (await get('/sitemap.xml')).text()) as {
      urlset: { url: { loc: string } };
    };
    expect(urls.urlset.url.loc).toBe(`${server().url}/`);
  });

  it('refuses page numbers that are not one with a 400 page, and a write with 405', async () => {
    for (const bad of ['0', 'abc', '-1', '1.5']) {
      const response = await get(`/?page=${bad}`);
      expect(response.status, bad).toBe(400);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    const write = await fetch(`${server().url}/`, { method: 'POST', body: 'x' });
    expect(write.status).toBe(405);
    expect(write.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('the rating trend', () => {
  it('counts every quarter from the first review to the last, with no rating for a quarter without reviews', () => {
    const quarters = quarterFigures([
      { date: '2024-11-30', rating: 5 },
      { date: '2025-07-01', rating: 2 },
      { date: '2025-09-30', rating: 4 },
    ]);
    expect(quarters).toEqual([
      { quarter: '2024-Q4', reviews: 1, averageRating: 5 },
      { quarter: '2025-Q1', reviews: 0, averageRating: null },
      { quarter: '2025-Q2', reviews: 0, averageRating: null },
      { quarter: '2025-Q3', reviews: 2, averageRating: 3 },
    ]);
  });

  it('breaks its line at quarters without reviews and labels each year once, without overlapping labels', () => {
    const svg = trendChart(
      quarterFigures([
        { date: '2019-02-01', rating: 4 },
        { date: '2019-05-01', rating: 5 },
        { date: '2020-08-01', rating: 3 },
        { date: '2020-11-01', rating: 4 },
      ]),
    ).text;
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg.match(/<circle/g)).toHaveLength(4);
    const ten = quarterFigures(
      Array.from({ length: 40 }, (_, i) => ({
        date: `${2015 + Math.floor(i / 4)}-${String((i % 4) * 3 + 1).padStart(2, '0')}-01`,
        rating: 4,
      })),
    );
    const labels = [
      ...trendChart(ten).text.matchAll(
        /<text class="chart-axis" x="([\d.]+)" y="[\d.]+" text-anchor="middle">(\d{4})<\/text>/g,
      ),
    ];
    expect(labels.length).toBeGreaterThan(2);
    const xs = labels.map((m) => Number(m[1]));
    for (let i = 1; i < xs.length; i++) expect(xs[i]! - xs[i - 1]!).toBeGreaterThanOrEqual(30);
  });
});

describe('a sitemap past 50,000 URLs', () => {
  const links = { baseUrl: 'https://reviews.example' };
  const reviews: PublishedReview[] = Array.from({ length: SITEMAP_URLS + 10 }, (_, i) => ({
    ...newReview({ id: `r-${String(i).padStart(6, '0')}` }),
    ...PUBLIC_FIELDS,
    updatedAt: '2026-01-01T00:00:00.000Z',
  })) as PublishedReview[];

  it('is an index of parts that together list the home page and every permalink once', () => {
    const parser = new XMLParser({ isArray: (name) => name === 'url' || name === 'sitemap' });
    const index = parser.parse(sitemap(links, reviews, null)) as { sitemapindex: { sitemap: { loc: string }[] } };
    expect(index.sitemapindex.sitemap.map((s) => s.loc)).toEqual([
      'https://reviews.example/sitemap.xml?part=1',
      'https://reviews.example/sitemap.xml?part=2',
    ]);
    const locs = [1, 2].flatMap((part) =>
      (parser.parse(sitemapPart(links, reviews, null, part)) as { urlset: { url: { loc: string }[] } }).urlset.url.map(
        (u) => u.loc,
      ),
    );
    expect(locs).toHaveLength(reviews.length + 1);
    expect(new Set(locs).size).toBe(locs.length);
    expect(locs[0]).toBe('https://reviews.example/');
    expect(locs.at(-1)).toBe(`https://reviews.example/reviews/${reviews.at(-1)!.id}`);
  });
});

describe('searching from the home page', () => {
  const server = serverPerBlock(`${dir.path}/limited.db`, { RATE_LIMIT_QUERIES_PER_MINUTE: '3' });

  it("counts with the search API against the client's query allowance, while the pages themselves are not limited", async () => {
    const get = (path: string) => fetch(`${server().url}${path}`).then((r) => r.status);
    expect(await get('/api/reviews/search?query=a')).toBe(200);
    expect(await get('/?query=b')).toBe(200);
    expect(await get('/?rating=5')).toBe(200);
    expect(await get('/?query=c')).toBe(429);
    expect(await get('/api/reviews/search?query=d')).toBe(429);
    for (let i = 0; i < 5; i++) expect(await get(i % 2 ? '/' : '/?page=1')).toBe(200);
  });
});
