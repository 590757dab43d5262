// The overview of a stored insights document (what pages show) is the document with every list of review ids
// empty, and nothing else changed: whatever the ids and texts hold, and however the bytes are laid out.
import { describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { Analyzer } from '../src/insights/analysis/analyzer.js';
import { aggregate } from '../src/insights/document/aggregate.js';
import { overviewOf, withoutIdLists } from '../src/publishing/insights-overview.js';
import type { InsightsDocument } from '../src/reviews/insights-document.js';
import { compareNewestFirst, type PublishedReview, publishedFrom } from '../src/reviews/published.js';

/** Ids and texts that look like the document's own keys and brackets, escaped in its JSON. */
const TRICKY_IDS = ['"reviewIds":[', 'a\\', '\\"examples":{"x":[', ']}', 'ü-ñ-日本', '\\\\"reviewIds":["'];
const TRICKY_TEXT = ' Said "reviewIds":["x"] and \\"examples":[ then ]}} \\\\';

function demoDocument(): InsightsDocument {
  const demo = generateDemo({ seed: 5, reviews: 300 });
  const analyzer = new Analyzer(demo.business);
  const reviews: PublishedReview[] = demo.reviews
    .filter((r) => r.verified)
    .map((r, i) => ({
      ...publishedFrom(r, '2026-11-01T00:00:00.000Z'),
      id: `${TRICKY_IDS[i % TRICKY_IDS.length]}${i}`,
      text: r.text + (i % 3 === 0 ? TRICKY_TEXT : ''),
    }))
    .sort(compareNewestFirst);
  const analyses = new Map(reviews.map((r) => [r.id, analyzer.analyze(r)]));
  return JSON.parse(
    JSON.stringify(
      aggregate(demo.business, reviews, analyses, { generatedAt: '2026-11-01T00:00:00.000Z', lexiconVersion: 'test' }),
    ),
  ) as InsightsDocument;
}

/** The contract, path by path: every list of review ids in the document's shape, empty. */
function withEmptyIdLists(document: InsightsDocument): InsightsDocument {
  const copy = structuredClone(document);
  if (copy.status !== 'ready') return copy;
  for (const aspect of copy.aspects) aspect.reviewIds = { positive: [], negative: [], neutral: [] };
  for (const entities of Object.values(copy.entities)) for (const entity of entities) entity.reviewIds = [];
  for (const topic of copy.topics) Object.assign(topic, { examples: [], reviewIds: [] });
  for (const item of copy.faq) item.reviewIds = [];
  return copy;
}

describe('the overview of a stored insights document', () => {
  const document = demoDocument();

  it('is the document with every list of review ids empty, whatever the ids and quotes hold', () => {
    expect(document.status).toBe('ready');
    const quoted = JSON.stringify(document);
    // The document does hold the tricky ids and texts, inside lists and quotes.
    expect(quoted).toContain('\\"reviewIds\\":[');
    expect(quoted).toContain('and \\\\\\"examples\\":[');
    // Read from the compact bytes, without parsing the lists (the way taken for a stored document).
    expect(JSON.parse(withoutIdLists(Buffer.from(quoted)))).toEqual(withEmptyIdLists(document));
    expect(overviewOf(Buffer.from(quoted))).toEqual(withEmptyIdLists(document));
  });

  it('is the same when the bytes are laid out otherwise, or a list holds something other than ids', () => {
    const expected = withEmptyIdLists(document);
    expect(overviewOf(Buffer.from(JSON.stringify(document, null, 2)))).toEqual(expected);
    const odd = structuredClone(document) as unknown as { faq: { reviewIds: unknown[] }[] };
    odd.faq[0]!.reviewIds = [1, { id: 'x' }];
    expect(overviewOf(Buffer.from(JSON.stringify(odd)))).toEqual(expected);
  });

  it('is the pending document as it is', () => {
    const pending = {
      status: 'building',
      generatedAt: null,
      asOf: null,
      reviewCount: 0,
      aspects: [],
      entities: { technicians: [], services: [], serviceAreas: [] },
      topics: [],
      faq: [],
      summary: { text: '', basis: [] },
    };
    expect(overviewOf(Buffer.from(JSON.stringify(pending)))).toEqual(pending);
  });
});
