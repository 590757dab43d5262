// SearchIndex on its own: every filter alone and together, inclusive dates, limit and total, order, since() and get().
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { SearchIndex, SearchParams } from '../src/reviews/search.js';
import type { PublishedReview } from '../src/reviews/published.js';
import { newestFirst, publishedReview } from './support/reviews.js';
import { bruteForceSearch } from './support/search-oracle.js';

/** Search parameters as a caller writes them (limit optional). */
type Input = z.input<typeof SearchParams>;

const review = (id: string, date: string, overrides: Partial<PublishedReview> = {}): PublishedReview =>
  publishedReview({ id, date, ...overrides });

/** An index over `reviews` in the order the store hands them over: newest first. */
const indexOf = (reviews: PublishedReview[]) => new SearchIndex(newestFirst(reviews));

/** Searches with parameters as the HTTP layer and MCP tools pass them: validated, limit defaulted. */
const search = (index: SearchIndex, input: Input) => index.search(SearchParams.parse(input));
const ids = (result: { reviews: PublishedReview[] }) => result.reviews.map((r) => r.id);

describe('SearchIndex filters, each alone', () => {
  const index = indexOf([
    review('r1', '2024-01-10', { rating: 1 }),
    review('r2', '2024-02-10', { rating: 2 }),
    review('r3', '2024-03-10', { rating: 3 }),
    review('r4', '2024-04-10', { rating: 4 }),
    review('r5', '2024-05-10', { rating: 5 }),
    review('r5b', '2024-06-10', { rating: 5 }),
  ]);

  it('returns every review, newest first, without filters', () => {
    expect(ids(search(index, {}))).toEqual(['r5b', 'r5', 'r4', 'r3', 'r2', 'r1']);
  });

  it('keeps only the exact rating', () => {
    expect(ids(search(index, { rating: 5 }))).toEqual(['r5b', 'r5']);
    expect(ids(search(index, { rating: 2 }))).toEqual(['r2']);
  });

  it('keeps ratings at or above min_rating, a fraction included', () => {
    expect(ids(search(index, { min_rating: 4 }))).toEqual(['r5b', 'r5', 'r4']);
    expect(ids(search(index, { min_rating: 3.5 }))).toEqual(['r5b', 'r5', 'r4']);
    expect(ids(search(index, { min_rating: 1 }))).toHaveLength(6);
  });

  it('includes a review dated on since, and excludes the day before', () => {
    expect(ids(search(index, { since: '2024-05-10' }))).toEqual(['r5b', 'r5']);
    expect(ids(search(index, { since: '2024-05-11' }))).toEqual(['r5b']);
  });

  it('includes a review dated on until, and excludes the day after', () => {
    expect(ids(search(index, { until: '2024-02-10' }))).toEqual(['r2', 'r1']);
    expect(ids(search(index, { until: '2024-02-09' }))).toEqual(['r1']);
  });

  it('finds the reviews of one day when since and until name it', () => {
    expect(ids(search(index, { since: '2024-03-10', until: '2024-03-10' }))).toEqual(['r3']);
  });

  it('finds nothing between two reviews, before the oldest or after the newest', () => {
    expect(search(index, { since: '2024-03-11', until: '2024-04-09' })).toEqual({ count: 0, total: 0, reviews: [] });
    expect(search(index, { until: '2023-12-31' }).total).toBe(0);
    expect(search(index, { since: '2024-06-11' }).total).toBe(0);
  });
});

describe('SearchIndex text, technician and service filters', () => {
  const index = indexOf([
    review('cafe', '2024-01-01', { text: 'The CAFÉ next door recommended them; crème brûlée afterwards.' }),
    review('plain', '2024-01-02', { text: 'The cafe owner was happy. Facade lights fixed.' }),
    review('zoe', '2024-01-03', { technicians: ['Zoë Martínez'], services: ['ac-repair'] }),
    review('jose', '2024-01-04', {
      technicians: ['José Núñez', 'Zoë Martínez'],
      services: ['ac-repair', 'drain-cleaning'],
    }),
    review('mono', '2024-01-05', { technicians: ['Madonna'], services: ['drain-cleaning'] }),
  ]);

  it('matches query as a substring, whatever the case and accents on either side', () => {
    expect(ids(search(index, { query: 'cafe' }))).toEqual(['plain', 'cafe']);
    expect(ids(search(index, { query: 'CAFÉ' }))).toEqual(['plain', 'cafe']);
    expect(ids(search(index, { query: 'creme brulee' }))).toEqual(['cafe']);
    expect(ids(search(index, { query: 'FAÇADE' }))).toEqual(['plain']);
    expect(ids(search(index, { query: 'owner was' }))).toEqual(['plain']);
  });

  it('finds nothing for a query no text contains', () => {
    expect(search(index, { query: 'water heater' })).toEqual({ count: 0, total: 0, reviews: [] });
  });

  it('finds a technician by full name or first name, without case, accents or extra spaces', () => {
    for (const name of ['Zoë Martínez', 'zoe martinez', 'ZOË', 'zoe', '  Zoe   Martinez  ']) {
      expect(ids(search(index, { mentions_technician: name })), name).toEqual(['jose', 'zoe']);
    }
    expect(ids(search(index, { mentions_technician: 'jose' }))).toEqual(['jose']);
    expect(ids(search(index, { mentions_technician: 'madonna' }))).toEqual(['mono']);
  });

  it('does not find a technician by last name alone, nor by part of a name', () => {
    expect(search(index, { mentions_technician: 'Martinez' }).total).toBe(0);
    expect(search(index, { mentions_technician: 'zo' }).total).toBe(0);
    expect(search(index, { mentions_technician: 'Zoe Martinez Jr' }).total).toBe(0);
  });

  it('keeps reviews that name the service id, and finds nothing for an unknown one', () => {
    expect(ids(search(index, { mentions_service: 'ac-repair' }))).toEqual(['jose', 'zoe']);
    expect(ids(search(index, { mentions_service: 'drain-cleaning' }))).toEqual(['mono', 'jose']);
    expect(search(index, { mentions_service: 'panel-upgrade' }).total).toBe(0);
  });
});

describe('SearchIndex filters combined', () => {
  const index = indexOf([
    review('a', '2024-01-01', {
      rating: 5,
      technicians: ['Zoë Martínez'],
      services: ['ac-repair'],
      text: 'Quick and tidy.',
    }),
    review('b', '2024-02-01', {
      rating: 4,
      technicians: ['Zoë Martínez'],
      services: ['ac-repair'],
      text: 'Quick but pricey.',
    }),
    review('c', '2024-03-01', { rating: 5, technicians: ['Sam Lee'], services: ['ac-repair'], text: 'Quick work.' }),
    review('d', '2024-04-01', {
      rating: 5,
      technicians: ['Zoë Martínez'],
      services: ['drain-cleaning'],
      text: 'Quick work.',
    }),
    review('e', '2024-05-01', { rating: 5, technicians: ['Zoë Martínez'], services: ['ac-repair'], text: 'Slow.' }),
    review('f', '2024-06-01', {
      rating: 5,
      technicians: ['Zoë Martínez'],
      services: ['ac-repair'],
      text: 'Quick again.',
    }),
  ]);

  it('keeps only the reviews that pass every filter', () => {
    const result = search(index, {
      rating: 5,
      mentions_technician: 'zoe',
      mentions_service: 'ac-repair',
      query: 'quick',
      since: '2024-01-01',
      until: '2024-05-31',
    });
    expect(ids(result)).toEqual(['a']);
  });

  it('drops a review for failing any single one of the filters', () => {
    const all = {
      min_rating: 5,
      mentions_technician: 'zoe',
      mentions_service: 'ac-repair',
      query: 'quick',
      since: '2024-01-01',
      until: '2024-06-30',
    } as const;
    expect(ids(search(index, all))).toEqual(['f', 'a']);
    // Each review from b to e fails exactly one filter; lifting that filter lets it back in.
    expect(ids(search(index, { ...all, min_rating: undefined }))).toEqual(['f', 'b', 'a']);
    expect(ids(search(index, { ...all, mentions_technician: undefined }))).toEqual(['f', 'c', 'a']);
    expect(ids(search(index, { ...all, mentions_service: undefined }))).toEqual(['f', 'd', 'a']);
    expect(ids(search(index, { ...all, query: undefined }))).toEqual(['f', 'e', 'a']);
    expect(ids(search(index, { ...all, until: '2024-05-31' }))).toEqual(['a']);
  });
});

describe('SearchIndex limit, total and order', () => {
  const many = Array.from({ length: 30 }, (_, i) =>
    review(`m${String(i).padStart(2, '0')}`, `2024-01-${String(1 + (i % 10)).padStart(2, '0')}`, {
      rating: (i % 5) + 1,
    }),
  );
  const index = indexOf(many);

  it('returns 20 reviews by default, and total counts every match', () => {
    const result = search(index, {});
    expect(result.count).toBe(20);
    expect(result.reviews).toHaveLength(20);
    expect(result.total).toBe(30);
  });

  it.each([1, 7, 30, 100])('returns at most limit=%i reviews, the newest ones, with the same total', (limit) => {
    const result = search(index, { limit });
    expect(result.count).toBe(Math.min(limit, 30));
    expect(result.total).toBe(30);
    expect(ids(result)).toEqual(
      newestFirst(many)
        .slice(0, limit)
        .map((r) => r.id),
    );
  });

  it('counts the total of a filtered search beyond the limit', () => {
    const result = search(index, { rating: 3, limit: 2 });
    expect(result.count).toBe(2);
    expect(result.total).toBe(6);
  });

  it('orders reviews of the same date by id, descending, through every filter path', () => {
    const sameDay = indexOf([
      review('b', '2024-06-01'),
      review('c', '2024-06-01'),
      review('a', '2024-06-01'),
      review('z', '2024-05-31'),
    ]);
    expect(ids(search(sameDay, {}))).toEqual(['c', 'b', 'a', 'z']);
    expect(ids(search(sameDay, { rating: 5 }))).toEqual(['c', 'b', 'a', 'z']);
    expect(ids(search(sameDay, { since: '2024-06-01', until: '2024-06-01' }))).toEqual(['c', 'b', 'a']);
  });

  it('answers the same parameters the same way, whatever order they are written in', () => {
    const first = search(index, { rating: 2, since: '2024-01-02', limit: 3 });
    const second = search(index, { limit: 3, since: '2024-01-02', rating: 2 });
    expect(second).toEqual(first);
    expect(index.evaluate(SearchParams.parse({ since: '2024-01-02', rating: 2, limit: 3 }))).toEqual(first);
  });
});

describe('SearchIndex.since and SearchIndex.get', () => {
  const reviews = [
    review('old', '2023-12-31'),
    review('jan-a', '2024-01-01'),
    review('jan-b', '2024-01-01'),
    review('feb', '2024-02-01'),
  ];
  const index = indexOf(reviews);

  it('lists the reviews dated on or after the date, newest first', () => {
    expect(index.since('2024-01-01').map((r) => r.id)).toEqual(['feb', 'jan-b', 'jan-a']);
    expect(index.since('2024-01-02').map((r) => r.id)).toEqual(['feb']);
  });

  it('lists every review for a date before the oldest, and none after the newest', () => {
    expect(index.since('2000-01-01').map((r) => r.id)).toEqual(['feb', 'jan-b', 'jan-a', 'old']);
    expect(index.since('2024-02-02')).toEqual([]);
  });

  it('gets a review by id, the very object it was given', () => {
    expect(index.get('jan-a')).toBe(reviews[1]);
    expect(index.get('missing')).toBeUndefined();
  });

  it('is empty over no reviews', () => {
    const empty = new SearchIndex([]);
    expect(empty.search(SearchParams.parse({ query: 'x', rating: 5 }))).toEqual({ count: 0, total: 0, reviews: [] });
    expect(empty.since('2024-01-01')).toEqual([]);
    expect(empty.get('x')).toBeUndefined();
  });
});

describe('SearchIndex against a brute-force filter', () => {
  const WORDS = [
    'Zoë',
    'zoe',
    'café',
    'CAFE',
    'on',
    'time',
    'late',
    'tidy',
    'crème',
    'price',
    'Façade',
    'the',
    'AC',
    'fixed',
  ];
  const TECHNICIANS = ['Zoë Martínez', 'José Núñez', 'Sam Lee', 'Sam Ortiz', 'Priya'];
  const SERVICES = ['ac-repair', 'drain-cleaning', 'panel-upgrade'];
  const DATES = ['2024-01-01', '2024-01-02', '2024-02-15', '2024-03-01', '2024-03-02', '2025-07-04'];

  const reviewsArb = fc
    .uniqueArray(
      fc.record({
        id: fc.stringMatching(/^[a-z0-9]{1,6}$/),
        date: fc.constantFrom(...DATES),
        rating: fc.integer({ min: 1, max: 5 }),
        text: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((words) => words.join(' ')),
        technicians: fc.uniqueArray(fc.constantFrom(...TECHNICIANS), { maxLength: 2 }),
        services: fc.uniqueArray(fc.constantFrom(...SERVICES), { maxLength: 2 }),
      }),
      { selector: (r) => r.id, maxLength: 40 },
    )
    .map((records) => newestFirst(records.map((r) => review(r.id, r.date, r))));

  const paramsArb: fc.Arbitrary<Input> = fc
    .record(
      {
        rating: fc.integer({ min: 1, max: 5 }),
        min_rating: fc.constantFrom(1, 2.5, 3, 4, 4.5, 5),
        since: fc.constantFrom(...DATES, '2023-12-31', '2024-02-16', '2026-01-01'),
        until: fc.constantFrom(...DATES, '2023-12-31', '2024-02-16', '2026-01-01'),
        query: fc
          .oneof(
            fc.constantFrom(...WORDS, 'zoe cafe', 'ZOË', 'nothing-like-it'),
            fc.constantFrom(...WORDS).map((w) => w.slice(1)),
          )
          .filter((q) => q.length > 0),
        mentions_technician: fc.constantFrom(...TECHNICIANS, 'zoe', 'SAM', 'jose nunez', 'Martinez', 'Nobody'),
        mentions_service: fc.constantFrom(...SERVICES, 'no-such-service'),
        limit: fc.integer({ min: 1, max: 100 }),
      },
      { requiredKeys: [] },
    )
    .filter((p) => !(p.since && p.until && p.since > p.until));

  it('finds exactly what the brute-force filter finds, in the same order, for random reviews and parameters', () => {
    fc.assert(
      fc.property(reviewsArb, paramsArb, (reviews, input) => {
        const params = SearchParams.parse(input);
        const result = new SearchIndex(reviews).search(params);
        const expected = bruteForceSearch(reviews, params);
        expect(result.total).toBe(expected.total);
        expect(result.count).toBe(expected.ids.length);
        expect(ids(result)).toEqual(expected.ids);
      }),
      { numRuns: 500 },
    );
  });

  it('builds the same index a slice at a time, pausing between slices', async () => {
    const reviews = newestFirst(
      Array.from({ length: 12_345 }, (_, i) =>
        review(`r${i}`, DATES[i % DATES.length]!, {
          rating: (i % 5) + 1,
          text: `${WORDS[i % WORDS.length]} ${i}`,
          technicians: [TECHNICIANS[i % TECHNICIANS.length]!],
          services: [SERVICES[i % 3]!],
        }),
      ),
    );
    let pauses = 0;
    const sliced = await SearchIndex.build(reviews, async () => void pauses++);
    expect(pauses).toBe(3);
    sliced.makeWords();
    await new Promise((done) => setImmediate(done));
    // Texts go into the word index 1,000 at a time: 13 slices; then three steps of sealing it.
    expect(pauses).toBe(3 + 13 + 3);
    const whole = new SearchIndex(reviews);
    for (const input of [
      {},
      { rating: 3 },
      { mentions_technician: 'zoe' },
      { query: WORDS[1]! },
      { since: DATES[2]!, limit: 100 },
    ]) {
      const params = SearchParams.parse(input);
      expect(ids(sliced.search(params))).toEqual(ids(whole.search(params)));
      expect(sliced.search(params).total).toBe(whole.search(params).total);
    }
    expect(sliced.get('r77')).toBe(whole.get('r77'));
  });
});

describe('text search through the word index', () => {
  const VOCABULARY = [
    'water',
    'heater',
    'heaters',
    'late',
    'plate',
    'latest',
    'Zoë',
    'café',
    'a/c',
    "didn't",
    'on-time',
    '24h',
    'fix',
    'fixed',
    'prefix',
  ];
  const textArb = fc
    .array(fc.constantFrom(...VOCABULARY), { minLength: 1, maxLength: 8 })
    .chain((words) =>
      fc
        .array(fc.constantFrom(' ', ', ', '. ', ' - ', '!'), { minLength: words.length, maxLength: words.length })
        .map((seps) => words.map((w, i) => w + seps[i]).join('')),
    );
  const reviewsArb = fc
    .array(textArb, { minLength: 20, maxLength: 120 })
    .map((texts) =>
      newestFirst(
        texts.map((text, i) => review(`t${i}`, `2024-0${(i % 9) + 1}-1${i % 10}`, { text, rating: (i % 5) + 1 })),
      ),
    );

  it('finds what reading every text finds, for any piece of a text (across words, partial words, punctuation)', () => {
    fc.assert(
      fc.property(
        reviewsArb,
        fc.nat(),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (reviews, pick, start, length, withRating) => {
          const text = reviews[pick % reviews.length]!.text;
          const from = start % text.length;
          const query = text.slice(from, from + 1 + (length % 12));
          const params = SearchParams.parse({ query, limit: 100, ...(withRating ? { min_rating: 3 } : {}) });
          const expected = bruteForceSearch(reviews, params);
          const result = new SearchIndex(reviews).search(params);
          expect(result.total).toBe(expected.total);
          expect(ids(result)).toEqual(expected.ids);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('narrows by words the query needs whole, at the start or at the end of a word', () => {
    const reviews = newestFirst(
      Array.from({ length: 40 }, (_, i) =>
        review(`w${i}`, '2024-05-01', {
          text:
            i % 4 === 0
              ? 'The water heater was fixed.'
              : i % 4 === 1
                ? 'Waterproofing heaters, prefixed.'
                : 'Nothing to say.',
        }),
      ),
    );
    const index = new SearchIndex(reviews);
    const total = (query: string) => search(index, { query }).total;
    expect(total('water heater')).toBe(10);
    expect(total('ater heat')).toBe(10);
    expect(total('heater')).toBe(20);
    expect(total('fixed')).toBe(20);
    expect(total(' fixed')).toBe(10);
    expect(total('r was f')).toBe(10);
    expect(total('heaters,')).toBe(10);
    expect(total('.')).toBe(40);
    expect(total('no such words')).toBe(0);
  });

  it('reads every text until a built index has made its words, then uses them, with the same answers', async () => {
    const reviews = newestFirst(
      Array.from({ length: 300 }, (_, i) =>
        review(`b${i}`, '2024-05-01', {
          text: `${VOCABULARY[i % VOCABULARY.length]} and ${VOCABULARY[(i * 7) % VOCABULARY.length]}`,
        }),
      ),
    );
    const built = await SearchIndex.build(reviews, () => new Promise((done) => setImmediate(done)));
    const whole = new SearchIndex(reviews);
    for (const query of ['heater', 'late', "n't", 'fix and']) {
      const params = SearchParams.parse({ query, limit: 100 });
      // The first text search starts making the words and reads every text meanwhile.
      expect(ids(built.evaluate(params))).toEqual(ids(whole.evaluate(params)));
    }
    await new Promise((done) => setTimeout(done, 50));
    for (const query of ['heater', 'late', "n't", 'fix and', 'zoe', 'cafe']) {
      const params = SearchParams.parse({ query, limit: 100 });
      expect(built.evaluate(params).total).toBe(whole.evaluate(params).total);
    }
  });
});
