// The pages in a real browser (Chromium): name, rating, charts, quotes, search and pagination with JavaScript on and off, permalinks from the feeds, /docs; no console errors, no other origin; screenshots in test-results/.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { ReviewsDataset } from '../src/reviews/schemas.js';
import { browserPresent, launchBrowser, withPage, type PageWatch } from './support/browser.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';

const SCREENSHOTS = resolve(import.meta.dirname, '../test-results');
const PAGE_SIZE = 20;
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 }, colorScheme: 'light' };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, colorScheme: 'light' };
const NO_JS: BrowserContextOptions = { ...DESKTOP, javaScriptEnabled: false };
const CHARTS = ['chart-ratings', 'chart-aspects', 'chart-trend'];

const demo = generateDemo({ seed: 11, reviews: 300 });

interface SearchBody {
  total: number;
  reviews: { id: string }[];
}
interface JsonFeed {
  items: { url: string }[];
}
interface AtomLink {
  '@_rel'?: string;
  '@_href': string;
}
interface AtomDocument {
  feed: { entry: { link: AtomLink[] }[] };
}

/** A word of five letters or more found in 25 to 60 reviews: its search has more than one page of results. */
function searchWord(texts: string[]): string {
  const words = [...new Set(texts.flatMap((text) => text.toLowerCase().match(/\p{L}{5,}/gu) ?? []))].sort();
  const word = words.find((w) => {
    const found = texts.filter((text) => text.toLowerCase().includes(w)).length;
    return found >= 25 && found <= 60;
  });
  if (!word) throw new Error('the demo data has no word in 25 to 60 reviews');
  return word;
}

const permalinks = (ids: string[]): string[] => ids.map((id) => `/reviews/${encodeURIComponent(id)}`);
const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The permalinks of the reviews the page lists, in order, as the page wrote them. */
function listedPermalinks(watch: PageWatch): Promise<string[]> {
  return watch.page
    .locator('ol.review-list article.review a.permalink')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
}

/** The page's width as laid out: wider than the viewport means horizontal scroll. */
const scrollWidth = (watch: PageWatch): Promise<number> =>
  watch.page.evaluate<number>('document.documentElement.scrollWidth');

function expectNoProblems(watch: PageWatch): void {
  expect(watch.errors, 'console errors and uncaught errors').toEqual([]);
  expect(watch.foreign(), 'requests to another origin').toEqual([]);
}

describe.skipIf(!browserPresent)('the site in a real browser', () => {
  let dir: ReturnType<typeof tempDir> | undefined;
  let server: RunningServer;
  let browser: Browser | undefined;
  let dataset: ReviewsDataset;
  let word: string;
  let found: SearchBody;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    dir = tempDir();
    server = await startServer(`${dir.path}/site.db`);
    await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
    await server.app.publisher.insightsReady();
    dataset = ReviewsDataset.parse(await getJson('/reviews.json'));
    word = searchWord(dataset.reviews.map((review) => review.text));
    found = (await getJson(`/api/reviews/search?query=${encodeURIComponent(word)}`)) as SearchBody;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    dir?.remove();
  });

  async function getJson(path: string): Promise<unknown> {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status, path).toBe(200);
    return res.json();
  }

  /** Opens `path` in a fresh context with `options`, expects a 200 and hands the watched page to `run`. */
  function visit<T>(options: BrowserContextOptions, path: string, run: (watch: PageWatch) => Promise<T>): Promise<T> {
    if (!browser) throw new Error('the browser is not running');
    return withPage(browser, server.url, options, async (watch) => {
      const response = await watch.page.goto(new URL(path, server.url).href);
      expect(response?.status(), `GET ${path}`).toBe(200);
      return run(watch);
    });
  }

  const screenshot = (watch: PageWatch, name: string) =>
    watch.page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });

  it('shows the business name, its rating and three titled charts, from its own origin alone and without console errors', async () => {
    await visit(DESKTOP, '/', async (watch) => {
      const { page } = watch;
      expect(squash((await page.locator('h1').textContent()) ?? '')).toContain(demo.business.name);
      const rating = dataset.aggregateRating;
      const value = page.locator('#rating .rating-value');
      expect(Number(await value.getAttribute('data-value'))).toBe(rating.ratingValue);
      expect(await value.textContent()).toContain((rating.ratingValue ?? 0).toFixed(1));
      expect(Number(await page.locator('#rating .review-count').getAttribute('data-value'))).toBe(rating.reviewCount);
      for (const chart of CHARTS) {
        const svg = page.locator(`#${chart} svg`).first();
        expect(await svg.isVisible(), `#${chart} svg is visible`).toBe(true);
        expect(squash((await svg.locator('title').first().textContent()) ?? ''), `#${chart} svg <title>`).not.toBe('');
      }
      await screenshot(watch, 'home-1280');
      expect(watch.requests.length).toBeGreaterThan(1);
      expectNoProblems(watch);
    });
  });

  it("opens an aspect's quotes on demand", async () => {
    await visit(DESKTOP, '/', async (watch) => {
      // By its id: once open, the element no longer matches :not([open]).
      const id = await watch.page
        .locator('details.aspect-quotes:not([open])')
        .first()
        .getAttribute('id', { timeout: 5_000 });
      expect(id, 'a closed details.aspect-quotes with an id').toMatch(/^aspect-/);
      const details = watch.page.locator(`details.aspect-quotes#${id}`);
      const quote = details.locator('blockquote').first();
      expect(await quote.isVisible()).toBe(false);
      await details.locator('summary').click();
      await quote.waitFor({ state: 'visible' });
      // The link goes with the quote: inside it or beside it.
      expect(
        await quote.locator('xpath=..').locator('a[href^="/reviews/"]').count(),
        'a link to the quoted review',
      ).toBeGreaterThan(0);
      expectNoProblems(watch);
    });
  });

  it('searches with JavaScript: renders the matching reviews in place and puts the query in the address bar', async () => {
    await visit(DESKTOP, '/', async (watch) => {
      const { page } = watch;
      const summary = page.locator('#results-summary');
      const before = await summary.textContent();
      await page.locator('#search [name=query]').fill(word);
      await page
        .locator('#search')
        .locator('button:not([type]), button[type=submit], input[type=submit]')
        .first()
        .click();
      await expect.poll(() => summary.textContent(), { timeout: 10_000 }).not.toBe(before);
      await expect
        .poll(() => listedPermalinks(watch), { timeout: 10_000 })
        .toEqual(permalinks(found.reviews.map((r) => r.id)));
      expect(await summary.textContent()).toContain(String(found.total));
      expect(new URL(page.url()).searchParams.get('query')).toBe(word);
      expect(
        watch.requests.some((url) => new URL(url).pathname === '/api/reviews/search'),
        'the script called /api/reviews/search',
      ).toBe(true);
      expectNoProblems(watch);
    });
  });

  it('searches without JavaScript: the server renders the matching reviews', async () => {
    await visit(NO_JS, '/', async (watch) => {
      const { page } = watch;
      await page.locator('#search [name=query]').fill(word);
      await page
        .locator('#search')
        .locator('button:not([type]), button[type=submit], input[type=submit]')
        .first()
        .click();
      await page.waitForURL((url) => url.searchParams.get('query') === word);
      expect(await listedPermalinks(watch)).toEqual(permalinks(found.reviews.map((r) => r.id)));
      expect(await page.locator('#results-summary').textContent()).toContain(String(found.total));
      expectNoProblems(watch);
    });
  });

  it('pages through the reviews without JavaScript, 20 a page in the order of /reviews.json', async () => {
    const ids = dataset.reviews.map((review) => review.id);
    await visit(NO_JS, '/', async (watch) => {
      const { page } = watch;
      expect(await listedPermalinks(watch)).toEqual(permalinks(ids.slice(0, PAGE_SIZE)));
      await page.locator('nav.pagination a[rel=next]').first().click();
      await page.waitForURL((url) => url.searchParams.get('page') === '2');
      expect(await listedPermalinks(watch)).toEqual(permalinks(ids.slice(PAGE_SIZE, 2 * PAGE_SIZE)));
      await page.locator('nav.pagination a[rel=prev]').first().click();
      await page.waitForURL((url) => url.searchParams.get('page') !== '2');
      expect(await listedPermalinks(watch)).toEqual(permalinks(ids.slice(0, PAGE_SIZE)));
      expectNoProblems(watch);
    });
  });

  it("opens a review's permalink from the JSON Feed's and the Atom feed's first link", async () => {
    const jsonFeed = (await getJson('/api/feed.json')) as JsonFeed;
    const atom = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'entry' || name === 'link' });
    const atomText = await (await fetch(`${server.url}/feed.xml`)).text();
    const atomFeed = atom.parse(atomText) as AtomDocument;
    const atomLink = atomFeed.feed.entry[0]?.link.find((link) => (link['@_rel'] ?? 'alternate') === 'alternate')?.[
      '@_href'
    ];
    const links = { 'JSON Feed': jsonFeed.items[0]?.url ?? '', Atom: atomLink ?? '' };
    for (const [feed, link] of Object.entries(links)) {
      expect(link, `the ${feed}'s first link`).toMatch(new RegExp(`^${server.url}/reviews/`));
      const id = decodeURIComponent(new URL(link).pathname.slice('/reviews/'.length));
      const review = dataset.reviews.find((r) => r.id === id);
      expect(review, `review ${id} is published`).toBeDefined();
      await visit(PHONE, link, async (watch) => {
        expect(squash(await watch.page.locator('article.review').first().innerText())).toContain(
          squash(review?.text ?? ''),
        );
        if (feed === 'JSON Feed') {
          await screenshot(watch, 'review-390');
          expect(await scrollWidth(watch), 'scroll width at 390 px').toBeLessThanOrEqual(390);
        }
        expectNoProblems(watch);
      });
    }
  });

  it('renders the API reference at /docs with every operation, from its own origin alone', async () => {
    await visit(DESKTOP, '/docs', async (watch) => {
      const { page } = watch;
      await page.locator('.opblock').first().waitFor({ state: 'visible', timeout: 15_000 });
      // Swagger UI breaks long paths with zero-width spaces.
      const operations = (await page.locator('.opblock').allInnerTexts()).map((text) => text.replace(/\u200b/g, ''));
      expect(operations.length).toBeGreaterThan(5);
      expect(
        operations.some((text) => text.includes('/api/reviews/search')),
        'an .opblock for /api/reviews/search',
      ).toBe(true);
      await screenshot(watch, 'docs-1280');
      expectNoProblems(watch);
    });
  });

  it('fits the home page to a 390 px phone screen without horizontal scroll, in light and dark', async () => {
    for (const [colorScheme, name] of [
      ['light', 'home-390'],
      ['dark', 'home-390-dark'],
    ] as const) {
      await visit({ ...PHONE, colorScheme }, '/', async (watch) => {
        expect(await scrollWidth(watch), `scroll width at 390 px, ${colorScheme}`).toBeLessThanOrEqual(390);
        await screenshot(watch, name);
        expectNoProblems(watch);
      });
    }
  });

  it('renders /embed with the three newest reviews linked in a new tab', async () => {
    await visit(PHONE, '/embed', async (watch) => {
      const hrefs = await watch.page
        .locator('a[target=_blank]')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
      const opened = hrefs.map((href) => new URL(href, server.url).pathname);
      for (const review of dataset.reviews.slice(0, 3))
        expect(opened).toContain(`/reviews/${encodeURIComponent(review.id)}`);
      await screenshot(watch, 'embed-390');
      expectNoProblems(watch);
    });
  });
});
