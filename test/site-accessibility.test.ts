// Every HTML page passes axe-core at WCAG 2.2 AA, in light and dark, at 390 and 1280 px, in Debian's Chromium;
// tabbing through the home page shows where focus is at every stop and reaches the charts' tables; a page made
// inaccessible on purpose fails the same check.
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContextOptions, ElementHandle, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { describeViolations, runAxe, WCAG_AA_TAGS } from './support/axe.js';
import { browserPresent, launchBrowser, withPage } from './support/browser.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';

/** What a page's path may be made from: the data the server was given. */
interface SiteData {
  reviewId: string;
}

interface PageUnderTest {
  name: string;
  path: (data: SiteData) => string;
  status: number;
  /** A selector that is visible once the page has drawn itself (for pages their script renders). */
  ready?: string;
  /** Parts that are another project's markup, not the page's own. */
  exclude?: string[];
}

/** Every HTML page people are sent to. A new page is one more line here. */
const PAGES: PageUnderTest[] = [
  { name: 'home', path: () => '/', status: 200 },
  { name: 'reviews, page 2', path: () => '/?page=2', status: 200 },
  { name: 'search results', path: () => '/?rating=5', status: 200 },
  { name: 'permalink', path: ({ reviewId }) => `/reviews/${encodeURIComponent(reviewId)}`, status: 200 },
  { name: 'embed', path: () => '/embed', status: 200 },
  // The chrome around Swagger UI, once Swagger UI has drawn the operations into it.
  { name: 'API reference', path: () => '/docs', status: 200, ready: '.opblock', exclude: ['#swagger-ui'] },
  { name: '404 page', path: () => '/reviews/no-such-review', status: 404 },
  { name: '400 page', path: () => '/?rating=9', status: 400 },
  { name: 'verification', path: () => '/verification', status: 200 },
];

/** WCAG 2.2 AA, and axe's best practices beside it: landmarks, one h1, heading levels in order (no WCAG rule checks those). */
const PAGE_TAGS = [...WCAG_AA_TAGS, 'best-practice'];

const SCHEMES = ['light', 'dark'] as const;
const WIDTHS = [390, 1280] as const;
const VIEWS = SCHEMES.flatMap((colorScheme) => WIDTHS.map((width) => ({ colorScheme, width })));
const contextOptions = (view: (typeof VIEWS)[number]): BrowserContextOptions => ({
  viewport: { width: view.width, height: 844 },
  colorScheme: view.colorScheme,
});

const CHARTS = ['chart-ratings', 'chart-aspects', 'chart-trend'];
/** More Tab presses than the home page has stops: the walk ends when focus comes back round. */
const MAX_TABS = 400;

function expectNoViolations(results: AxeResults, where: string): void {
  expect(describeViolations(results.violations), `axe-core violations on ${where}`).toEqual([]);
}

/**
 * Where focus is, and whether it is drawn: an outline at least 2 px wide, or a box shadow. `inside` when focus is
 * in a part of a form field the browser draws itself (a date field's calendar button): its style is not computed
 * for the page, so how it looks is compared instead.
 */
interface FocusStop {
  element: string;
  visible: boolean;
  inside: boolean;
  chart: string | null;
}
const FOCUS_STOP = `(() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  const figures = el.matches('details.chart-figures > summary') ? el.closest('figure.chart') : null;
  return {
    element: el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' “' + (el.textContent || '').trim().slice(0, 40) + '”',
    visible: outlined || style.boxShadow !== 'none',
    inside: !el.matches(':focus'),
    chart: figures ? figures.id : null,
  };
})()`;

/**
 * Tabs through the page from its top until focus leaves it or comes back round, opening each chart's table on the
 * way. A stop focused `inside` counts as visible when the element looks different once focus has moved on.
 */
async function tabThrough(page: Page): Promise<FocusStop[]> {
  const stops: FocusStop[] = [];
  let pending: { stop: FocusStop; element: ElementHandle; focused: Buffer } | undefined;
  for (let i = 0; i < MAX_TABS; i++) {
    await page.keyboard.press('Tab');
    if (pending) {
      pending.stop.visible = !(await pending.element.screenshot()).equals(pending.focused);
      pending = undefined;
    }
    const stop = await page.evaluate<FocusStop | null>(FOCUS_STOP);
    if (!stop || (stops[0] && stop.element === stops[0].element)) break;
    stops.push(stop);
    if (stop.chart) await page.keyboard.press('Enter');
    if (stop.inside) {
      const element = (await page.evaluateHandle('document.activeElement')).asElement();
      if (element) pending = { stop, element, focused: await element.screenshot() };
    }
  }
  return stops;
}

describe.skipIf(!browserPresent)('the pages at WCAG 2.2 AA', () => {
  let dir: ReturnType<typeof tempDir> | undefined;
  let server: RunningServer;
  let browser: Browser | undefined;
  const data: SiteData = { reviewId: '' };

  beforeAll(async () => {
    dir = tempDir();
    server = await startServer(`${dir.path}/site.db`);
    const demo = generateDemo({ seed: 11, reviews: 300 });
    await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
    await server.app.publisher.insightsReady();
    // One with a reply from the business: its permalink has the most parts.
    data.reviewId = (demo.reviews.find((review) => review.response) ?? demo.reviews[0]!).id;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    dir?.remove();
  });

  /** Opens `path` in a fresh context with `options`, expects `status` and hands the page to `run`. */
  function visit<T>(
    options: BrowserContextOptions,
    path: string,
    status: number,
    run: (page: Page) => Promise<T>,
  ): Promise<T> {
    if (!browser) throw new Error('the browser is not running');
    return withPage(browser, server.url, options, async ({ page }) => {
      const response = await page.goto(new URL(path, server.url).href);
      expect(response?.status(), `GET ${path}`).toBe(status);
      expect(response?.headers()['content-type'], `GET ${path}`).toMatch(/^text\/html/);
      return run(page);
    });
  }

  describe.each(VIEWS)('$colorScheme at $width px', (view) => {
    it.each(PAGES)('$name has no violation', async (target) => {
      const path = target.path(data);
      await visit(contextOptions(view), path, target.status, async (page) => {
        if (target.ready) await page.locator(target.ready).first().waitFor({ state: 'visible', timeout: 15_000 });
        expectNoViolations(
          await runAxe(page, { exclude: target.exclude, tags: PAGE_TAGS }),
          `${path} (${view.colorScheme}, ${view.width} px)`,
        );
      });
    });
  });

  it.each(VIEWS)(
    'tabbing through the home page shows focus at every stop and opens the three charts’ tables ($colorScheme, $width px)',
    async (view) => {
      await visit(contextOptions(view), '/', 200, async (page) => {
        const stops = await tabThrough(page);
        expect(stops.length, 'focus stops').toBeGreaterThan(20);
        expect(stops[0]?.element, 'the first stop').toContain('Skip to content');
        expect(
          stops.filter((stop) => !stop.visible).map((stop) => stop.element),
          'stops without a visible focus indicator',
        ).toEqual([]);
        expect(
          stops.flatMap((stop) => (stop.chart ? [stop.chart] : [])),
          'charts whose figures were reached',
        ).toEqual(CHARTS);
        for (const chart of CHARTS)
          expect(await page.locator(`#${chart} table`).isVisible(), `#${chart}'s table, opened from the keyboard`).toBe(
            true,
          );
      });
    },
  );

  it('fails a page with a deliberate violation', async () => {
    await visit(contextOptions({ colorScheme: 'light', width: 1280 }), '/', 200, async (page) => {
      // The home page, spoilt: the search field loses its label (and placeholder), the business name its contrast.
      await page.evaluate(
        `document.querySelector('label[for=q]').remove(); document.querySelector('#q').removeAttribute('placeholder'); document.querySelector('h1').style.color = '#c8c8c8'`,
      );
      const spoilt = await runAxe(page);
      expect(new Set(spoilt.violations.map((v) => v.id))).toEqual(new Set(['label', 'color-contrast']));
      expect(() => expectNoViolations(spoilt, 'the spoilt home page')).toThrow(
        /axe-core violations on the spoilt home page/,
      );
      // And a page of nothing but an image without a text alternative.
      await page.setContent(
        '<!doctype html><html lang="en"><head><title>An image</title></head><body><main><img src="/badge.svg"></main></body></html>',
      );
      expect((await runAxe(page)).violations.map((v) => v.id)).toEqual(['image-alt']);
    });
  });
});
