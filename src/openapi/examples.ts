// Examples for the OpenAPI description, rendered by the serving code itself from the demo business (seed 42).
//
// The data is committed (demo-example.json: what the demo generator makes for these options) and rendered here when
// the document is built, so the examples cannot drift from the renderers that serve the documents, and a server
// never runs the demo generator. The insights are committed as output too (insights-example.json): the insights
// engine costs about a second and 100 MB in the main thread. test/openapi.test.ts proves both equal to what the
// generator and the engine give (`npx vitest run test/openapi.test.ts -u` rewrites them after a deliberate change).
import { pendingDocument } from '../publishing/insights.js';
import { documentNamed, type DocumentName } from '../reviews/catalogue.js';
import { toPublic } from '../reviews/encoded-reviews.js';
import { compareNewestFirst, publishedFrom, type PublishedData } from '../reviews/published.js';
import type { SearchResponse, SinceResponse } from '../reviews/responses.js';
import type { Business, ImportedReview, ReviewsDataset } from '../reviews/schemas.js';
import { SearchParams } from '../reviews/search.js';
import { DEFAULT_WINDOW_DAYS } from '../reviews/verification.js';
import { buildSnapshot } from '../reviews/snapshot.js';
import type { z } from 'zod';
import demoExample from './demo-example.json' with { type: 'json' };
import insightsReady from './insights-example.json' with { type: 'json' };

/**
 * The demo the examples show: the demo business of the default seed, with enough reviews for the insights to name
 * technicians, services and areas (it takes 5 mentions), and few enough to read.
 */
export const EXAMPLE_DEMO = { seed: 42, reviews: 30 } as const;

/** What the demo generator makes for EXAMPLE_DEMO, as committed, and the day its newest review may fall on. */
export interface ExampleDemo {
  seed: number;
  until: string;
  business: Business;
  reviews: ImportedReview[];
}

const DEMO = demoExample as unknown as ExampleDemo;

/** As if the demo had been imported in one go on the evening of its newest review. */
const PUBLISHED_AT = `${DEMO.until}T18:00:00.000Z`;

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
  const { business, reviews } = DEMO;
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
  const sinceDate = data.reviews[Math.min(2, data.reviews.length - 1)]?.date ?? DEMO.until;
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
