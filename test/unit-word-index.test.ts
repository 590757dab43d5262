// Text search from the words and separators of the texts answers exactly what folding the text and `includes` answer:
// across words, partial words, punctuation and repeated separators, before the word index is made and after.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SearchIndex, SearchParams } from '../src/reviews/search.js';
import type { PublishedReview } from '../src/reviews/published.js';
import { shapeOf } from '../src/reviews/query-shape.js';
import { fold } from '../src/reviews/text.js';
import { WordIndex } from '../src/reviews/word-index.js';
import { hasBit } from '../src/reviews/bitset.js';
import { newestFirst, publishedReview } from './support/reviews.js';

const review = (id: string, text: string, date = '2024-05-01'): PublishedReview => publishedReview({ id, date, text });

/** The contract: the reviews whose folded text includes the folded query, newest first. */
const holding = (reviews: readonly PublishedReview[], query: string) =>
  reviews.filter((r) => fold(r.text).includes(fold(query))).map((r) => r.id);

const answer = (index: SearchIndex, query: string) => {
  const result = index.evaluate(SearchParams.parse({ query, limit: 100 }));
  return { total: result.total, ids: result.reviews.map((r) => r.id) };
};

/** A turn of the event loop: a built index makes its words in slices between turns. */
const turn = () => new Promise<void>((done) => setImmediate(done));

/** The answers of an index made at once, and of a built one before and after its words are made. */
async function answers(reviews: readonly PublishedReview[], queries: readonly string[]) {
  const built = await SearchIndex.build(reviews, turn);
  const before = queries.map((query) => answer(built, query));
  for (let i = 0; i < 5; i++) await turn();
  const after = queries.map((query) => answer(built, query));
  const whole = new SearchIndex(reviews);
  return { before, after, whole: queries.map((query) => answer(whole, query)) };
}

async function expectContract(reviews: readonly PublishedReview[], queries: readonly string[]): Promise<void> {
  const { before, after, whole } = await answers(reviews, queries);
  queries.forEach((query, i) => {
    const ids = holding(reviews, query);
    const expected = { total: ids.length, ids: ids.slice(0, 100) };
    expect(before[i], `before the words: ${JSON.stringify(query)}`).toEqual(expected);
    expect(after[i], `after the words: ${JSON.stringify(query)}`).toEqual(expected);
    expect(whole[i], `made at once: ${JSON.stringify(query)}`).toEqual(expected);
  });
}

describe('the shape of a query', () => {
  it.each([
    ['late', '', [['late', 'inside']], [], ''],
    [
      'water heater',
      '',
      [
        ['water', 'end'],
        ['heater', 'start'],
      ],
      [' '],
      '',
    ],
    [
      'a water heater was',
      '',
      [
        ['a', 'end'],
        ['water', 'whole'],
        ['heater', 'whole'],
        ['was', 'start'],
      ],
      [' ', ' ', ' '],
      '',
    ],
    [' fixed', ' ', [['fixed', 'start']], [], ''],
    ['heaters,', '', [['heaters', 'end']], [], ','],
    ['", late!! ', '", ', [['late', 'whole']], [], '!! '],
    [
      'water,  heater',
      '',
      [
        ['water', 'end'],
        ['heater', 'start'],
      ],
      [',  '],
      '',
    ],
  ])('%j: lead %j, fragments %j, between %j, trail %j', (query, lead, fragments, between, trail) => {
    expect(shapeOf(query)).toEqual({
      lead,
      fragments: fragments.map(([text, fit]) => ({ text, fit })),
      between,
      trail,
    });
  });

  it('has none without a letter or digit, or with half a surrogate pair', () => {
    for (const query of ['', ' ', '. ', '!!', '\ud835', 'b\udc9c'])
      expect(shapeOf(query), JSON.stringify(query)).toBeUndefined();
    expect(shapeOf('\ud835\udc9cb')?.fragments).toEqual([{ text: '\ud835\udc9cb', fit: 'inside' }]);
  });
});

describe('text search by words and separators, fixed cases', () => {
  const texts = {
    plain: 'The water heater was fixed.',
    comma: 'Water, heater and more.',
    twoSpaces: 'water  heater, twice spaced',
    dash: 'a water-heater install',
    apart: 'water was near the heater',
    partial: 'Hotwater heaters prefixed.',
    later: 'hotwater, heater — then water heater!',
    quoted: '"Water heater" they said',
    accents: 'Café crème at the Façade; ZOË came',
    digits: 'A 24h service, 3/4 inch pipe',
    repeated: 'heater heater heater!! ok',
    separatorsOnly: '... !!',
    empty: '',
    astral: 'x\ud835\udc9cb and 𝒜b',
    emoji: 'Great 😀!! job — done…',
  };
  const reviews = newestFirst(Object.entries(texts).map(([id, text]) => review(id, text)));

  it.each([
    ['a fragment inside a word', ['ate', 'otwat', 'eate', 'heater', 'ZOE', 'creme', '24']],
    [
      'a fragment ending a word, then one starting one',
      ['water heater', 'ter hea', 'r h', 'WATER HEATER', 'cafe cr', 'e c'],
    ],
    [
      'whole words between the first and last fragments',
      ['he water heater wa', 'the water heater was fixed', 'water was near the heater', 'heater heater heater'],
    ],
    [
      'a separator before or after a fragment',
      [' heater', ' heaters', 'heater.', 'heater!', 'heater!!', 'heater!! ', '"water', '" they', ' fixed.', 'fixed. '],
    ],
    [
      'separators that must match exactly',
      [
        'water, heater',
        'water,  heater',
        'water  heater',
        'water-heater',
        'water - heater',
        'water,heater',
        ', heater',
        'r — t',
        '3/4 inch',
        'h service, 3',
      ],
    ],
    [
      'separators alone, and queries no text has',
      [
        '.',
        '...',
        ' !!',
        '!! ',
        ', ',
        '😀!',
        ' 😀!! ',
        '—',
        ' — ',
        '…',
        '!!!',
        'no such words',
        'heater heater heater heater',
        'the water heater was fixed. and more',
      ],
    ],
    ['letters split by a surrogate pair', ['\udc9cb', '\ud835\udc9cb', 'x\ud835', '𝒜b and', 'b and 𝒜']],
  ])('%s', async (_name, queries) => {
    await expectContract(reviews, queries);
  });

  it('does not match words in order across the end of one text and the start of the next', async () => {
    const texts = newestFirst([
      review('ends', 'Fixed the water ', '2024-05-02'),
      review('starts', 'heater, all good', '2024-05-01'),
      review('whole', 'a water heater; water, water', '2024-04-01'),
    ]);
    const { before, after, whole } = await answers(texts, ['water heater', 'water heater,', ' heater', 'good a']);
    const expected = [
      { total: 1, ids: ['whole'] },
      { total: 0, ids: [] },
      { total: 1, ids: ['whole'] },
      { total: 0, ids: [] },
    ];
    expect({ before, after, whole }).toEqual({ before: expected, after: expected, whole: expected });
  });

  it('does not match words in order that other words or other separators part', async () => {
    const { after } = await answers(reviews, ['water heater', 'water  heater', 'water, heater']);
    expect(after.map((a) => a.ids.sort())).toEqual([
      ['later', 'partial', 'plain', 'quoted'],
      ['twoSpaces'],
      ['comma', 'later'],
    ]);
  });
});

describe('text search by words and separators, when the other filters leave few texts', () => {
  it('tests those texts rather than marking the postings of words most texts have', () => {
    const reviews = newestFirst(
      Array.from({ length: 200 }, (_, i) =>
        review(
          `r${String(i).padStart(3, '0')}`,
          i % 3 ? 'water heater, water' : 'water, heater water',
          i < 2 ? '2024-06-01' : '2024-01-01',
        ),
      ),
    );
    const index = new SearchIndex(reviews);
    for (const query of ['water', 'water heater', 'heater water', ', heater', 'ater']) {
      const result = index.evaluate(SearchParams.parse({ query, since: '2024-06-01', limit: 100 }));
      const expected = reviews.filter((r) => r.date >= '2024-06-01' && fold(r.text).includes(query)).map((r) => r.id);
      expect({ total: result.total, ids: result.reviews.map((r) => r.id) }, query).toEqual({
        total: expected.length,
        ids: expected,
      });
    }
  });
});

describe('text search by words and separators, over many words and long texts', () => {
  it('answers the same once words with their separators outnumber 65,536', async () => {
    const reviews = newestFirst(
      Array.from({ length: 70_000 }, (_, i) =>
        review(`r${String(i).padStart(5, '0')}`, `Item ${i}: u${i} water heater`),
      ),
    );
    await expectContract(reviews, [
      'u69999 water',
      '12: u12 water heater',
      'item 65537: u65537',
      '7: u7 w',
      'heater',
      'water heater',
      ': u1',
    ]);
  });

  it('answers the same over texts of thousands of words', async () => {
    const long = Array.from({ length: 3000 }, (_, i) => `w${i % 997}`).join(' ') + ' water heater';
    const reviews = newestFirst([review('long', long), review('short', 'water heater'), review('other', `${long}!`)]);
    await expectContract(reviews, ['w996 w0 w1', 'water heater', 'heater!', 'w5 w6 w7 w8', 'w996 water heater']);
  });
});

describe('text search by words and separators, against folding and includes', () => {
  const WORDS = [
    'water',
    'Water',
    'heater',
    'heaters',
    'preheater',
    'hotwater',
    'waterproof',
    'a',
    'the',
    'café',
    'CAFE',
    'Zoë',
    '24h',
    'x',
    'ß',
    'naïve',
    '½',
    '日本',
    '𝒜b',
  ];
  /** Lone surrogates among them: two in a row can make a letter of the text. */
  const SEPARATORS = [
    ' ',
    '  ',
    ', ',
    ',',
    '. ',
    '.',
    '!! ',
    ' - ',
    '-',
    '/',
    "'",
    '"',
    ' "',
    '; ',
    '\n',
    '—',
    '’',
    '👍',
    ' 👍 ',
    '\ud835',
    '\udc9c',
  ];
  /** Common words, and rare ones: the index keeps the texts of a word as bits or as a list, by how many have it. */
  const wordArb = fc.oneof(
    fc.constantFrom(...WORDS),
    fc.nat(299).map((n) => `Rare${n}é`),
  );
  const textArb = fc
    .tuple(
      fc.constantFrom('', ...SEPARATORS),
      fc.array(fc.tuple(wordArb, fc.constantFrom(...SEPARATORS)), { minLength: 0, maxLength: 10 }),
      fc.boolean(),
    )
    .map(([lead, words, ends]) => {
      const text = lead + words.map(([word, separator]) => word + separator).join('');
      return ends ? text : text.replace(/[^\p{L}\p{N}]+$/u, '');
    });
  const reviewsArb = fc
    .array(textArb, { minLength: 1, maxLength: 90, size: 'max' })
    .map((texts) => newestFirst(texts.map((text, i) => review(`t${i}`, text, `2024-0${(i % 9) + 1}-1${i % 10}`))));
  /** Words and separators put together: often in no text, or in one with other separators between them. */
  const composedArb = fc
    .tuple(
      fc.constantFrom('', ...SEPARATORS),
      fc.array(fc.tuple(wordArb, fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 4 }),
      fc.nat(4),
      fc.nat(4),
      fc.boolean(),
    )
    .map(([lead, words, cutStart, cutEnd, trail]) => {
      const query = lead + words.map(([word, separator]) => word + separator).join('');
      const end = trail ? query.length : query.length - words[words.length - 1]![1].length;
      return query.slice(Math.min(cutStart, end - 1), Math.max(1, end - cutEnd));
    })
    .filter((query) => query.length > 0);
  /** A piece of one of the texts, cut anywhere. */
  const pieceOf = (reviews: PublishedReview[], pick: number, start: number, length: number) => {
    const text = reviews[pick % reviews.length]!.text || 'water heater';
    const from = start % text.length;
    return text.slice(from, from + 1 + (length % 24));
  };

  it('finds exactly the texts that include a piece of a text, before and after the words are made', async () => {
    await fc.assert(
      fc.asyncProperty(
        reviewsArb,
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.boolean()), { minLength: 1, maxLength: 5 }),
        async (reviews, picks) => {
          const queries = picks.map(([pick, start, length, upper]) => {
            const piece = pieceOf(reviews, pick, start, length);
            return upper ? piece.toUpperCase() : piece;
          });
          await expectContract(reviews, queries);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds exactly the texts that include words and separators put together, before and after the words are made', async () => {
    await fc.assert(
      fc.asyncProperty(reviewsArb, fc.array(composedArb, { minLength: 1, maxLength: 5 }), async (reviews, queries) => {
        await expectContract(reviews, queries);
      }),
      { numRuns: 300 },
    );
  });

  it('answers the same from the occurrences of a word, within a range of texts or not, and from reading whole texts', () => {
    /** The positions `match` finds when the other filters leave `within` texts: Infinity reads occurrences, 0 texts. */
    const found = (words: WordIndex, texts: number, query: string, within: number, from = 0, to = texts) => {
      const match = words.match(fold(query), within, from, to);
      if (!match) return undefined;
      const positions = Array.from({ length: to - from }, (_, i) => from + i).filter(
        (p) => !match.candidates || hasBit(match.candidates, p),
      );
      return match.exact ? positions : positions.filter((p) => match.test(p));
    };
    fc.assert(
      fc.property(
        reviewsArb,
        fc.array(composedArb, { minLength: 1, maxLength: 5 }),
        fc.nat(),
        fc.nat(),
        (reviews, queries, a, b) => {
          // A range of positions, as a date range gives one.
          const [from, to] = [a % (reviews.length + 1), b % (reviews.length + 1)].sort((x, y) => x - y) as [
            number,
            number,
          ];
          const words = new WordIndex(reviews.length);
          for (const r of reviews) words.add(fold(r.text));
          words.seal();
          for (const query of queries) {
            const expected = reviews.flatMap((r, p) => (fold(r.text).includes(fold(query)) ? [p] : []));
            const byOccurrences = found(words, reviews.length, query, Infinity);
            if (byOccurrences === undefined) continue;
            expect(byOccurrences, `from occurrences: ${JSON.stringify(query)}`).toEqual(expected);
            expect(found(words, reviews.length, query, 0), `reading texts: ${JSON.stringify(query)}`).toEqual(expected);
            const inRange = expected.filter((p) => p >= from && p < to);
            expect(
              found(words, reviews.length, query, Infinity, from, to),
              `from occurrences in [${from}, ${to}): ${JSON.stringify(query)}`,
            ).toEqual(inRange);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers the same with other filters, and a date range, narrowing the texts', () => {
    fc.assert(
      fc.property(reviewsArb, composedArb, fc.constantFrom('2024-03-01', '2024-06-15'), (reviews, query, since) => {
        const index = new SearchIndex(reviews);
        const result = index.evaluate(SearchParams.parse({ query, since, limit: 3 }));
        const expected = reviews.filter((r) => r.date >= since && fold(r.text).includes(fold(query)));
        expect(result.total).toBe(expected.length);
        expect(result.reviews.map((r) => r.id)).toEqual(expected.slice(0, 3).map((r) => r.id));
      }),
      { numRuns: 300 },
    );
  });
});

describe('making the word index of a built SearchIndex', () => {
  const reviews = newestFirst(
    Array.from({ length: 50 }, (_, i) => review(`r${i}`, i % 2 ? 'The water heater was fixed.' : 'Water, heater.')),
  );
  const params = SearchParams.parse({ query: 'water heater', limit: 100 });
  const expected = holding(reviews, 'water heater');

  it('reports a failed try, reads texts meanwhile, and tries again on the next text search', async () => {
    let pauses = 0;
    const failing = new Set([2]);
    const errors: unknown[] = [];
    const pause = async () => {
      if (failing.has(++pauses)) throw new Error(`pause ${pauses} failed`);
    };
    const index = await SearchIndex.build(reviews, pause, (error) => errors.push(error));
    expect(pauses).toBe(1);
    expect(index.evaluate(params).reviews.map((r) => r.id)).toEqual(expected);
    await turn();
    expect(errors.map((e) => (e as Error).message)).toEqual(['pause 2 failed']);
    expect(index.evaluate(params).reviews.map((r) => r.id)).toEqual(expected);
    await turn();
    // The second try: one slice of texts, then three steps of sealing the index.
    expect(pauses).toBe(6);
    // Made: later text searches start no other try.
    expect(index.evaluate(SearchParams.parse({ query: 'fixed', limit: 100 })).total).toBe(25);
    await turn();
    expect(pauses).toBe(6);
    expect(errors).toHaveLength(1);
  });

  it('stops trying after three failures, and answers by reading texts', async () => {
    let pauses = 0;
    const errors: unknown[] = [];
    const pause = async () => {
      if (++pauses > 1) throw new Error('no more pauses');
    };
    const index = await SearchIndex.build(reviews, pause, (error) => errors.push(error));
    for (let i = 0; i < 5; i++) {
      expect(index.evaluate(params).total).toBe(expected.length);
      await turn();
    }
    expect(errors).toHaveLength(3);
    expect(pauses).toBe(4);
  });

  it('reports a failure as a process warning when the caller names no place for it', async () => {
    const warnings: Error[] = [];
    const listen = (warning: Error) => warnings.push(warning);
    process.on('warning', listen);
    try {
      let pauses = 0;
      const index = await SearchIndex.build(reviews, async () => {
        if (++pauses === 2) throw new Error('pause failed');
      });
      index.evaluate(params);
      for (let i = 0; i < 3; i++) await turn();
      expect(warnings.map((w) => w.name)).toEqual(['SearchIndexWarning']);
      expect(warnings[0]!.message).toContain('pause failed');
    } finally {
      process.off('warning', listen);
    }
  });
});
