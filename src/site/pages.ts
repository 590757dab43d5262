// The pages of one served version, rendered from its snapshot and insights and encoded once: the home page (made
// as soon as a version or its insights are served), the rest when first asked for, kept in the version's cache.
import type { FastifyRequest } from 'fastify';
import { numericKeys, parseQuery } from '../http/query.js';
import {
  CACHE_CONTROL,
  encodeRepresentation,
  type EncodeOptions,
  type Representation,
} from '../publishing/representation.js';
import type { View } from '../publishing/view.js';
import { DOCUMENT_CACHE_CONTROL } from '../reviews/catalogue.js';
import { toPublic } from '../reviews/encoded-reviews.js';
import type { Links } from '../reviews/links.js';
import { SearchParams, searchKey } from '../reviews/search.js';
import type { Assets } from './assets.js';
import { badgeSvg, embedPage } from './badge.js';
import { quarterFigures, type QuarterFigures } from './charts.js';
import { llmsTxt, robotsTxt, sitemap, sitemapPart, sitemapParts } from './discovery.js';
import { docsPage } from './docs.js';
import { plural } from './html.js';
import { FILTER_NAMES, homePage, isSearch, PAGE_SIZE, type Filters, type Listing } from './home.js';
import type { SiteContext } from './layout.js';
import { problemPage, reviewPage } from './review-page.js';
import { verificationPage } from './verification-page.js';

/** A page, or why there is none: the status and the page that says so. */
export type PageAnswer =
  { ok: true; representation: Representation } | { ok: false; status: 400 | 404 | 429; html: string };

/** Reviews in the home page's JSON-LD. */
const JSON_LD_REVIEWS = 10;

/** The badge is embedded on other sites: kept an hour, then revalidated in the background for a day. */
const BADGE_CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';

const FILTER_NUMERIC = numericKeys(SearchParams);
const PAGE_NUMBER = /^[1-9]\d{0,6}$/;

const HTML = 'text/html; charset=utf-8';

export class SitePages {
  private readonly context: SiteContext;
  /** Per snapshot: review counts per quarter (every review read once per version). */
  private readonly quarters = new WeakMap<View['snapshot'], QuarterFigures[]>();

  constructor(
    private readonly links: Links,
    readonly assets: Assets,
  ) {
    this.context = { links, assets: assets.site };
  }

  /** The home page, a page of the reviews or search results, from `/`'s query string. */
  async home(view: View, query: Record<string, unknown>): Promise<PageAnswer> {
    const parsed = this.listingRequest(query);
    const business = view.snapshot.business;
    if (!parsed.ok) {
      const listing: Listing = {
        reviews: [],
        total: 0,
        page: 1,
        pages: 1,
        filters: parsed.filters,
        problems: parsed.problems,
      };
      return { ok: false, status: 400, html: homePage(this.context, this.homeData(view), listing) };
    }
    const { filters, page } = parsed;
    const index = view.snapshot.index;
    const found = isSearch(filters)
      ? index.evaluate({ ...filters, limit: page * PAGE_SIZE } as SearchParams)
      : undefined;
    const total = found ? found.total : view.snapshot.reviews.length;
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    if (page > pages) {
      return {
        ok: false,
        status: 404,
        html: problemPage(
          this.context,
          business,
          'No such page',
          `There are ${pages} page${pages === 1 ? '' : 's'} of ${isSearch(filters) ? 'results' : 'reviews'}; page ${page} is past the last.`,
        ),
      };
    }
    const key = `site:home:${view.insights.representation.variants.identity.etag}:${searchKey({ ...filters, limit: 0 } as SearchParams)}:${page}`;
    const representation = await view.queries.get(key, () => {
      const all = found ? found.reviews : view.snapshot.reviews;
      const reviews = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map(toPublic);
      const listing: Listing = { reviews, total, page, pages, ...(isSearch(filters) ? { filters } : {}) };
      const full = !isSearch(filters) && page === 1;
      return this.encode(
        homePage(this.context, this.homeData(view), listing),
        view,
        { contentType: HTML, cacheControl: DOCUMENT_CACHE_CONTROL, effort: full ? 'best' : 'fast' },
        true,
      );
    });
    return { ok: true, representation };
  }

  /** Makes the home page of this view now, so its first visitor does not wait for it. */
  async warm(view: View): Promise<void> {
    await this.home(view, {});
  }

  /** A review's permalink page; a 404 page for an id not published in this version. */
  async review(view: View, id: string): Promise<PageAnswer> {
    const review = view.snapshot.index.get(id);
    if (!review)
      return {
        ok: false,
        status: 404,
        html: this.notFoundPage(
          view,
          `No published review has the id “${id}”. It may never have existed, or it is no longer published.`,
        ),
      };
    const representation = await view.queries.get(`site:review:${id}`, () =>
      this.encode(reviewPage(this.context, view.snapshot.business, toPublic(review)), view, {
        contentType: HTML,
        cacheControl: DOCUMENT_CACHE_CONTROL,
        effort: 'fast',
      }),
    );
    return { ok: true, representation };
  }

  /** The page for a search refused because this client used its allowance; the wait is the refusal's Retry-After. */
  tooManySearches(view: View, retryAfterSeconds: number): PageAnswer {
    const wait =
      Number.isInteger(retryAfterSeconds) && retryAfterSeconds > 0
        ? `in ${plural(retryAfterSeconds, 'second')}`
        : 'in a minute';
    const explanation = `Searches from this address have used the allowance of the last minute. Please search again ${wait}; the reviews themselves can be read meanwhile.`;
    return {
      ok: false,
      status: 429,
      html: problemPage(this.context, view.snapshot.business, 'Too many searches', explanation),
    };
  }

  notFoundPage(view: View | undefined, explanation: string): string {
    return problemPage(this.context, view?.snapshot.business ?? null, 'Not found', explanation);
  }

  embed(view: View): Promise<Representation> {
    return view.queries.get('site:embed', () => {
      const newest = view.snapshot.reviews.slice(0, 3).map(toPublic);
      return this.encode(embedPage(this.context, view.snapshot.business, view.snapshot.aggregateRating, newest), view, {
        contentType: HTML,
        cacheControl: DOCUMENT_CACHE_CONTROL,
        effort: 'fast',
      });
    });
  }

  badge(view: View): Promise<Representation> {
    return view.queries.get('site:badge', () =>
      this.encode(badgeSvg(view.snapshot.aggregateRating), view, {
        contentType: 'image/svg+xml',
        cacheControl: BADGE_CACHE_CONTROL,
        effort: 'best',
      }),
    );
  }

  llms(view: View): Promise<Representation> {
    const { insights } = view;
    return view.queries.get(`site:llms:${insights.representation.variants.identity.etag}`, () =>
      this.encode(
        llmsTxt(
          this.links,
          view.snapshot.business,
          view.snapshot.aggregateRating,
          insights.overview.status === 'ready' ? insights.overview.summary.text : undefined,
        ),
        view,
        { contentType: 'text/markdown; charset=utf-8', cacheControl: DOCUMENT_CACHE_CONTROL, effort: 'best' },
        true,
      ),
    );
  }

  robots(view: View): Promise<Representation> {
    return view.queries.get('site:robots', () =>
      this.encode(robotsTxt(this.links), view, {
        contentType: 'text/plain; charset=utf-8',
        cacheControl: CACHE_CONTROL.static,
        effort: 'best',
      }),
    );
  }

  /** The sitemap (or its index, past 50,000 URLs), or one part of it; undefined for a part that does not exist. */
  sitemap(view: View, part: string | undefined): Promise<Representation> | undefined {
    const { reviews, version } = view.snapshot;
    const n = part === undefined ? 0 : PAGE_NUMBER.test(part) ? Number(part) : -1;
    if (n < 0 || n > sitemapParts(reviews.length) || (n > 0 && sitemapParts(reviews.length) === 1)) return undefined;
    return view.queries.get(`site:sitemap:${n}`, () =>
      this.encode(
        n === 0
          ? sitemap(this.links, reviews, version.publishedAt)
          : sitemapPart(this.links, reviews, version.publishedAt, n),
        view,
        {
          contentType: 'application/xml; charset=utf-8',
          cacheControl: DOCUMENT_CACHE_CONTROL,
          effort: 'fast',
        },
      ),
    );
  }

  verification(view: View): Promise<Representation> {
    return view.queries.get('site:verification', () =>
      this.encode(verificationPage(this.context, view.snapshot.business, view.snapshot.verification), view, {
        contentType: HTML,
        cacheControl: DOCUMENT_CACHE_CONTROL,
        effort: 'fast',
      }),
    );
  }

  docs(view: View): Promise<Representation> {
    return view.queries.get('site:docs', () =>
      this.encode(docsPage(this.assets, view.snapshot.business, this.links.baseUrl), view, {
        contentType: HTML,
        cacheControl: DOCUMENT_CACHE_CONTROL,
        effort: 'best',
      }),
    );
  }

  private homeData(view: View) {
    const { snapshot } = view;
    let quarters = this.quarters.get(snapshot);
    if (!quarters) this.quarters.set(snapshot, (quarters = quarterFigures(snapshot.reviews)));
    return {
      business: snapshot.business,
      aggregate: snapshot.aggregateRating,
      verification: snapshot.verification,
      insights: view.insights.overview,
      quarters,
      newest: snapshot.reviews.slice(0, JSON_LD_REVIEWS).map(toPublic),
    };
  }

  /** The filters and page number of `/`'s query string; other parameters (campaign tags…) are ignored. */
  private listingRequest(
    query: Record<string, unknown>,
  ): { ok: true; filters: Filters; page: number } | { ok: false; filters: Filters; problems: string[] } {
    const raw: Record<string, unknown> = {};
    for (const name of FILTER_NAMES) {
      const value = query[name];
      // An empty field of the form means "any".
      if (value !== undefined && value !== '') raw[name] = value;
    }
    const problems: string[] = [];
    const pageText = query.page;
    if (pageText !== undefined && (typeof pageText !== 'string' || !PAGE_NUMBER.test(pageText)))
      problems.push('page: must be a page number (1, 2, …)');
    const parsed = parseQuery(SearchParams, FILTER_NUMERIC, raw);
    if (!parsed.ok) problems.push(...parsed.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
    const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => typeof v === 'string')) as Filters;
    if (!parsed.ok || problems.length) return { ok: false, filters: given, problems };
    const { limit: _limit, ...filters } = parsed.value;
    return { ok: true, filters, page: pageText === undefined ? 1 : Number(pageText) };
  }

  /** Encodes a page of this view; its Last-Modified is the data's, or the insights' when it shows them and they are newer. */
  private encode(
    body: string,
    view: View,
    options: Omit<EncodeOptions, 'lastModified'>,
    showsInsights = false,
  ): Promise<Representation> {
    const insightsModified = showsInsights && view.insights.lastModified ? new Date(view.insights.lastModified) : null;
    const lastModified =
      insightsModified && (!view.lastModified || insightsModified > view.lastModified)
        ? insightsModified
        : view.lastModified;
    return encodeRepresentation(body, { ...options, lastModified }).then((rep) => ({
      ...rep,
      lastModifiedShared: view.lastModifiedShared,
    }));
  }
}

/** Whether a client asked for JSON rather than HTML (API clients get the JSON error body, browsers the page). */
export function prefersJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /application\/(?:[\w.+-]*\+)?json/i.test(accept) && !/text\/html/i.test(accept);
}
