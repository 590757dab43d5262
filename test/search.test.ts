// Search over real HTTP agrees with a brute-force filter of the same data, for every filter and their combinations.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import type { ImportedReview } from '../src/reviews/schemas.js';
import { newestFirst } from './support/reviews.js';
import { bruteForceSearch, strip, type SearchFilters } from './support/search-oracle.js';
import { publish, startServer, tempDir, type RunningServer } from './support/server.js';

const dir = tempDir();
let server: RunningServer;
const demo = generateDemo({ seed: 7, reviews: 800 });
// Hand-made records that exercise accents, case and ordering ties on the same date.
const extra: ImportedReview[] = [
  {
    id: 'zz-accent-1',
    date: '2024-06-01',
    rating: 5,
    text: 'Zoë was PUNCTUAL and the café owner next door said the Crème job was perfect.',
    author: 'Émile R.',
    technicians: ['Zoë Martínez'],
    services: [],
    verified: true,
  },
  {
    id: 'zz-accent-2',
    date: '2024-06-01',
    rating: 4,
    text: 'Façade wiring redone; señor Núñez explained everything.',
    author: 'Ana P.',
    technicians: ['José Núñez'],
    services: [],
    verified: true,
  },
  {
    id: 'zz-accent-0',
    date: '2024-06-01',
    rating: 1,
    text: 'Never showed up.',
    author: 'Al K.',
    technicians: [],
    services: [],
    verified: true,
  },
  {
    id: 'zz-hidden',
    date: '2024-06-02',
    rating: 5,
    text: 'Unverified: must never appear in search.',
    author: 'X Y.',
    technicians: ['Zoë Martínez'],
    services: [],
    verified: false,
  },
];
const all = [...demo.reviews, ...extra];
const published = newestFirst(all.filter((r) => r.verified));

async function search(
  p: SearchFilters,
): Promise<{ status: number; body: { count: number; total: number; reviews: { id: string }[] } }> {
  const qs = new URLSearchParams(Object.entries(p).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await fetch(`${server.url}/api/reviews/search?${qs}`);
  return { status: res.status, body: (await res.json()) as never };
}

const technicianNames = [...demo.business.technicians.map((t) => t.name), 'Zoë Martínez', 'José Núñez'];
const varyCase = (s: string) => fc.constantFrom(s, s.toUpperCase(), s.toLowerCase(), strip(s));
const dates = fc
  .date({ min: new Date('2021-06-01'), max: new Date('2026-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const queries = fc.oneof(
  fc
    .tuple(fc.constantFrom(...published.slice(0, 300)), fc.nat(), fc.integer({ min: 2, max: 12 }))
    .chain(([r, start, len]) => {
      const from = start % Math.max(1, r.text.length - len);
      return varyCase(r.text.slice(from, from + len));
    }),
  fc.constantFrom(
    'ZOË',
    'zoe',
    'cafe',
    'CRÈME',
    'facade',
    'nunez',
    'the',
    'ac',
    'water heater',
    'late',
    'zzzz-not-there',
  ),
);
const technicianQueries = fc
  .constantFrom(...technicianNames)
  .chain((name) => fc.oneof(varyCase(name), varyCase(name.split(' ')[0]!), fc.constant('Nobody Atall')));

const paramsArb: fc.Arbitrary<SearchFilters> = fc
  .record(
    {
      rating: fc.integer({ min: 1, max: 5 }),
      min_rating: fc.constantFrom(1, 1.5, 2, 3, 3.7, 4, 4.5, 5),
      since: dates,
      until: dates,
      query: queries,
      mentions_technician: technicianQueries,
      mentions_service: fc.constantFrom(...demo.business.services.map((s) => s.id), 'no-such-service'),
      limit: fc.oneof(fc.constantFrom(1, 20, 100), fc.integer({ min: 1, max: 100 })),
    },
    { requiredKeys: [] },
  )
  .filter((p) => !(p.since && p.until && p.since > p.until));

beforeAll(async () => {
  server = await startServer(`${dir.path}/search.db`);
  await publish(server, { business: demo.business, reviews: all, replace: true });
});
afterAll(async () => {
  await server.close();
  dir.remove();
});

describe('search', () => {
  it('matches a brute-force filter for random combinations of every filter', async () => {
    await fc.assert(
      fc.asyncProperty(paramsArb, async (p) => {
        const { status, body } = await search(p);
        const expected = bruteForceSearch(published, p);
        expect(status).toBe(200);
        expect(body.total).toBe(expected.total);
        expect(body.count).toBe(expected.ids.length);
        expect(body.reviews.map((r) => r.id)).toEqual(expected.ids);
      }),
      { numRuns: 300 },
    );
  });

  it('returns 20 reviews by default, newest first, with total counting every match', async () => {
    const { body } = await search({});
    expect(body.count).toBe(20);
    expect(body.total).toBe(published.length);
    expect(body.reviews.map((r) => r.id)).toEqual(published.slice(0, 20).map((r) => r.id));
  });

  it.each([1, 20, 100])('honours limit=%i', async (limit) => {
    const { body } = await search({ limit });
    expect(body.count).toBe(limit);
    expect(body.reviews).toHaveLength(limit);
  });

  it('orders reviews of the same date by id descending', async () => {
    const { body } = await search({ since: '2024-06-01', until: '2024-06-01', limit: 100 });
    const sameDay = body.reviews.map((r) => r.id).filter((id) => id.startsWith('zz-'));
    expect(sameDay).toEqual(['zz-accent-2', 'zz-accent-1', 'zz-accent-0']);
  });

  it('finds technicians by first name regardless of case and accents', async () => {
    for (const name of ['zoe', 'ZOË', 'Zoe Martinez', 'zoë martínez']) {
      const { body } = await search({ mentions_technician: name, since: '2024-06-01', until: '2024-06-01' });
      expect(body.reviews.map((r) => r.id)).toContain('zz-accent-1');
    }
    const { body } = await search({ mentions_technician: 'jose', since: '2024-06-01', until: '2024-06-01' });
    expect(body.reviews.map((r) => r.id)).toContain('zz-accent-2');
  });

  it('matches query case- and accent-insensitively in both directions', async () => {
    for (const query of ['CAFE', 'café', 'creme', 'FAÇADE', 'nunez']) {
      const { body } = await search({ query, limit: 100 });
      expect(body.total, query).toBeGreaterThan(0);
    }
  });

  it('never returns unverified reviews', async () => {
    const { body } = await search({ query: 'Unverified: must never appear', limit: 100 });
    expect(body.total).toBe(0);
    const { body: byTech } = await search({ mentions_technician: 'zoe', since: '2024-06-02', until: '2024-06-02' });
    expect(byTech.reviews.map((r) => r.id)).not.toContain('zz-hidden');
  });
});
