// Examples for the OpenAPI description, rendered from the deterministic demo business (seed 42) by the serving code itself.
//
// Why they are built with the document rather than committed: generating a dozen demo reviews and rendering them
// takes a few milliseconds, and examples made by the same renderers that serve the documents cannot drift from
// them. The insights are the exception: the insights engine costs about a second and 100 MB in the main thread,
// so its output for this same data is committed (insights-example.json), and test/openapi.test.ts proves it
// equal to what the engine gives (`npx vitest run test/openapi.test.ts -u` rewrites it after a deliberate change).
import { DEMO_DEFAULTS, generateDemo } from '../demo/generate.js';
import { pendingDocument } from '../publishing/insights.js';
import { documentNamed, type DocumentName } from '../reviews/catalogue.js';
import { toPublic } from '../reviews/encoded-reviews.js';
import { compareNewestFirst, publishedFrom, type PublishedData } from '../reviews/published.js';
import type { SearchResponse, SinceResponse } from '../reviews/responses.js';
import type { ReviewsDataset } from '../reviews/schemas.js';
import { SearchParams } from '../reviews/search.js';
import { DEFAULT_WINDOW_DAYS } from '../reviews/verification.js';
import { buildSnapshot } from '../reviews/snapshot.js';
import type { z } from 'zod';
import insightsReady from './insights-example.json' with { type: 'json' };

/**
 * The demo the examples show: the demo business of the default seed, with enough reviews for the insights to name
 * technicians, services and areas (it takes 5 mentions), and few enough to read.
 */
export const EXAMPLE_DEMO = { seed: DEMO_DEFAULTS.seed, reviews: 30 } as const;

/** As if the demo had been imported in one go on the evening of its newest review. */
const PUBLISHED_AT = `${DEMO_DEFAULTS.until}T18:00:00.000Z`;

/** Search parameters the search example shows. */
export const EXAMPLE_SEARCH = { rating: 5, limit: 2 } as const;

export interface NamedExample {
  summary: string;
  value: unknown;
}

export interface Examples {
  documents: Record<DocumentName, Record<string, NamedExample>>;
  search: z.output<typeof SearchResponse>;
  since: z.output<typeof SinceResponse>;
  /** Values from the demo business, for parameter examples. */
  technicianFirstName: string;
  serviceId: string;
}

/** The demo as the store would publish it: verified reviews only, newest first. */
export function exampleData(): PublishedData {
  const { business, reviews } = generateDemo(EXAMPLE_DEMO);
  const published = reviews
    .filter((r) => r.verified)
    .map((review) => publishedFrom(review, PUBLISHED_AT))
    .sort(compareNewestFirst);
  const received = reviews.length;
  const verification = {
    windowDays: DEFAULT_WINDOW_DAYS,
    bySource: { own: { received, published: published.length, unmatched: received - published.length, removed: 0 } },
  };
  return { version: { revision: 1, publishedAt: PUBLISHED_AT }, business, verification, reviews: published };
}

export async function buildExamples(baseUrl: string): Promise<Examples> {
  const data = exampleData();
  const snapshot = buildSnapshot(data);
  const render = async (name: DocumentName) => {
    const document = documentNamed(name);
    return (await document.render?.(data, { baseUrl }, `${baseUrl}${document.path}`))?.toString('utf8') ?? '';
  };
  const search = snapshot.index.search(SearchParams.parse(EXAMPLE_SEARCH));
  // The third newest date, so the since example lists a few reviews.
  const sinceDate = data.reviews[Math.min(2, data.reviews.length - 1)]?.date ?? DEMO_DEFAULTS.until;
  const since = snapshot.index.since(sinceDate);
  const reviews = JSON.parse(await render('reviews')) as ReviewsDataset;
  return {
    documents: {
      reviews: {
        demo: {
          summary: `The demo business (seed ${EXAMPLE_DEMO.seed}) with ${data.reviews.length} verified reviews`,
          value: reviews,
        },
      },
      insights: {
        ready: { summary: 'Computed for the demo business', value: insightsReady },
        building: {
          summary: 'Never built yet for this store: empty sections (served with Retry-After)',
          value: pendingDocument(),
        },
      },
      jsonFeed: { demo: { summary: 'The demo business', value: JSON.parse(await render('jsonFeed')) as unknown } },
      atomFeed: { demo: { summary: 'The demo business', value: await render('atomFeed') } },
    },
    search: { count: search.count, total: search.total, reviews: search.reviews.map(toPublic) },
    since: { since: sinceDate, count: since.length, reviews: since.map(toPublic) },
    technicianFirstName: data.business?.technicians[0]?.name.split(' ')[0] ?? 'Zoë',
    serviceId: data.business?.services[0]?.id ?? 'ac-repair',
  };
}
