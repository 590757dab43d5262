// The reviews' JSON is encoded once per review object and assembled: the bytes must be those of encoding the whole.
import fc from 'fast-check';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { adoptReviewsDataset, renderReviewsDataset, reviewsDataset, reviewsJson } from '../src/reviews/documents.js';
import { StoredReview, toPublic } from '../src/reviews/encoded-reviews.js';
import { compareNewestFirst, type PublishedReview, publishedFrom } from '../src/reviews/published.js';
import { NO_COUNTS } from '../src/reviews/verification.js';

const demo = generateDemo({ seed: 5, reviews: 300 });
// Texts with what JSON escapes or nests: quotes, backslashes, braces and brackets, and characters outside ASCII.
const awkward = ['He said "done" \\ left}, {"id":"x"} ]] [[', 'Zoë’s “fix” 👍\u2028', 'One " quote, then } and ]'];
const reviews: PublishedReview[] = demo.reviews
  .filter((r) => r.verified)
  .map((r, i) => ({
    ...publishedFrom(r, '2026-11-01T00:00:00.000Z'),
    text: i % 50 === 0 ? awkward[(i / 50) % 3]! : r.text,
  }))
  .sort(compareNewestFirst);

describe('assembled review JSON', () => {
  it('is byte for byte the JSON of the whole dataset, with and without a business, and with no reviews', async () => {
    // The first rendering encodes the reviews and finds each one's bytes; the next ones assemble what it found.
    for (const [business, list] of [
      [demo.business, reviews],
      [null, reviews],
      [demo.business, []],
      [demo.business, [...reviews.slice(0, 9), { ...reviews[9]!, rating: 1 }, ...reviews.slice(10)]],
    ] as const) {
      expect((await renderReviewsDataset({ business: business, verification: NO_COUNTS }, list)).toString('utf8')).toBe(
        JSON.stringify(reviewsDataset({ business: business, verification: NO_COUNTS }, list)),
      );
    }
    for (const review of reviews.filter((_, i) => i % 7 === 0))
      expect(Buffer.concat(reviewsJson([review])).toString('utf8')).toBe(JSON.stringify([toPublic(review)]));
  });

  it('encodes new reviews a slice at a time, pausing between slices', async () => {
    const many = generateDemo({ seed: 6, reviews: 12_000 })
      .reviews.map((r) => publishedFrom(r, '2026-11-01T00:00:00.000Z'))
      .sort(compareNewestFirst);
    let pauses = 0;
    const body = await renderReviewsDataset(
      { business: demo.business, verification: NO_COUNTS },
      many,
      async () => void pauses++,
    );
    // Three slices encoded, then copied into the body in slices of the same size.
    expect(pauses).toBe(3 + 2);
    expect(body.toString('utf8')).toBe(
      JSON.stringify(reviewsDataset({ business: demo.business, verification: NO_COUNTS }, many)),
    );
  });

  it('follows a new version of a review (a new object), and texts outside Latin-1', () => {
    const first = reviews.slice(0, 20);
    expect(Buffer.concat(reviewsJson(first)).toString('utf8')).toBe(JSON.stringify(first.map(toPublic)));
    const edited = [{ ...first[0]!, text: 'Zoë fixed it — “perfect” 👍 \u2028 done' }, ...first.slice(1)];
    expect(Buffer.concat(reviewsJson(edited)).toString('utf8')).toBe(JSON.stringify(edited.map(toPublic)));
    expect(Buffer.concat(reviewsJson([])).toString('utf8')).toBe('[]');
  });

  it('takes a stored dataset of the same data as its own, and refuses one that does not fit', async () => {
    // New objects for the same reviews (as a restart reads them): nothing of them is encoded yet.
    const copy = () => reviews.map((r) => ({ ...r }));
    const body = Buffer.from(
      JSON.stringify(reviewsDataset({ business: demo.business, verification: NO_COUNTS }, reviews)),
      'utf8',
    );
    const fresh = copy();
    expect(await adoptReviewsDataset({ business: demo.business, verification: NO_COUNTS }, fresh, body)).toBe(true);
    // Each review's bytes are now views of the stored body: listings and the next render are made of them.
    expect(Buffer.concat(reviewsJson(fresh.slice(3, 40))).toString('utf8')).toBe(
      JSON.stringify(fresh.slice(3, 40).map(toPublic)),
    );
    expect(reviewsJson(fresh.slice(0, 1))[1]!.buffer).toBe(body.buffer);
    expect((await renderReviewsDataset({ business: demo.business, verification: NO_COUNTS }, fresh)).equals(body)).toBe(
      true,
    );

    const text = body.toString('utf8');
    const second = text.indexOf(',{"id":');
    const third = text.indexOf(',{"id":', second + 1);
    const swapped = text.slice(0, second) + text.slice(third) + '';
    const refused = [
      [
        'another business',
        Buffer.from(JSON.stringify(reviewsDataset({ business: null, verification: NO_COUNTS }, reviews))),
      ],
      ['an entry missing', Buffer.from(swapped)],
      [
        'two entries swapped',
        Buffer.from(
          JSON.stringify(
            reviewsDataset({ business: demo.business, verification: NO_COUNTS }, [
              reviews[1]!,
              reviews[0]!,
              ...reviews.slice(2),
            ]),
          ),
        ),
      ],
      ['cut short', body.subarray(0, body.length - 10)],
      ['something after it', Buffer.concat([body, Buffer.from(' ')])],
    ] as const;
    for (const [what, bytes] of refused) {
      const others = copy();
      expect(await adoptReviewsDataset({ business: demo.business, verification: NO_COUNTS }, others, bytes), what).toBe(
        false,
      );
      // Nothing taken: the reviews are encoded afresh when asked for.
      expect(reviewsJson(others.slice(0, 1))[1]!.buffer, what).not.toBe(bytes.buffer);
    }
  });
});

describe('reviews read from the store', () => {
  const stored = (r: PublishedReview) => new StoredReview(r);

  it('read their text from their public JSON once it is encoded, exactly, whatever the text holds', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            text: fc.string({ unit: 'binary', minLength: 1 }),
            id: fc.string({ unit: 'binary', minLength: 1 }),
            reply: fc.option(fc.string({ unit: 'binary', minLength: 1 })),
          }),
          { minLength: 1, maxLength: 20 },
        ),
        async (records) => {
          const plain = records.map(({ text, id, reply }, i): PublishedReview => ({
            ...reviews[i]!,
            id: `${i}${id}`,
            text,
            ...(reply === null ? {} : { response: { date: '2026-01-02', text: reply } }),
          }));
          const held = plain.map(stored);
          const body = await renderReviewsDataset({ business: demo.business, verification: NO_COUNTS }, held);
          expect(body.toString('utf8')).toBe(
            JSON.stringify(reviewsDataset({ business: demo.business, verification: NO_COUNTS }, plain)),
          );
          held.forEach((review, i) => {
            expect(review.text).toBe(plain[i]!.text);
            expect(toPublic(review)).toEqual(toPublic(plain[i]!));
          });
          // Adopted by the reviews of a restart: their texts come from the stored bytes.
          const again = plain.map(stored);
          expect(await adoptReviewsDataset({ business: demo.business, verification: NO_COUNTS }, again, body)).toBe(
            true,
          );
          again.forEach((review, i) => expect(review.text).toBe(plain[i]!.text));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keep no text of their own once encoded: it is read from the dataset bytes', async () => {
    const held = reviews.slice(0, 30).map(stored);
    const body = await renderReviewsDataset({ business: demo.business, verification: NO_COUNTS }, held);
    // The same bytes, with one text changed in place: the review reads what the bytes say.
    const entry = Buffer.from(JSON.stringify(held[4]!.text).slice(1, -1), 'utf8');
    const at = body.indexOf(entry);
    expect(at).toBeGreaterThan(0);
    body.write('X', at, 'utf8');
    expect(held[4]!.text).toBe(`X${reviews[4]!.text.slice(1)}`);
  });

  it('show their text to spread, JSON, structured clone and a message to a thread, as a field of their own', async () => {
    const review = stored({
      ...reviews[0]!,
      title: 'A title',
      response: { date: '2026-01-02', text: 'Thanks, "text":"no"' },
    });
    await renderReviewsDataset({ business: demo.business, verification: NO_COUNTS }, [review]);
    const expected = {
      ...reviews[0]!,
      title: 'A title',
      response: { date: '2026-01-02', text: 'Thanks, "text":"no"' },
    };
    expect(Object.keys(review)).toEqual(Object.keys({ ...toPublic(review), updatedAt: '' }));
    expect({ ...review }).toEqual(expected);
    expect(JSON.parse(JSON.stringify(review))).toEqual(expected);
    expect(structuredClone(review)).toEqual(expected);
    const { port1, port2 } = new MessageChannel();
    const received = new Promise((done) => port2.once('message', done));
    port1.postMessage([review]);
    expect(await received).toEqual([expected]);
    port1.close();
    port2.close();
  });
});
