// Topics are what customers talk about: review boilerplate and aspect phrases are never topics, near-duplicates make
// one topic, and each topic names its phrases and quotes the sentences behind it.
import { PUBLIC_FIELDS } from './support/reviews.js';
import { describe, expect, it } from 'vitest';
import { Analyzer } from '../src/insights/analysis/analyzer.js';
import { aggregate } from '../src/insights/document/aggregate.js';
import { writtenForm } from '../src/insights/document/topic-name.js';
import type { PublishedReview } from '../src/reviews/published.js';

const openings = [
  'I called them after reading reviews on Yelp.',
  'Found them after reading reviews on Google.',
  'Booked after reading reviews on Nextdoor.',
];
const work = [
  'The ceiling fan in the nursery wobbled and he balanced it.',
  'He hung two ceiling fans in the bedrooms.',
  'Our water heater was leaking from the valve.',
  'He wore shoe covers the whole time.',
  'The new ceiling fan is silent.',
];

function reviews(
  text: (i: number) => string = (i) =>
    `${openings[i % openings.length]} ${work[i % work.length]} ${work[(i + 2) % work.length]}`,
): PublishedReview[] {
  return Array.from({ length: 40 }, (_, i) => ({
    id: `t-${String(i).padStart(3, '0')}`,
    date: `2026-0${1 + (i % 9)}-${String(10 + (i % 18)).padStart(2, '0')}`,
    rating: 1 + (i % 5),
    text: text(i),
    author: 'A. Customer',
    technicians: [],
    services: [],
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...PUBLIC_FIELDS,
  }));
}

function topicsOf(list: PublishedReview[]) {
  const analyzer = new Analyzer(null);
  return aggregate(null, list, new Map(list.map((r) => [r.id, analyzer.analyze(r)])), {
    generatedAt: '2026-11-01T00:00:00.000Z',
    lexiconVersion: 'test',
  }).topics;
}

/** The topics of 40 reviews, each two of `texts` in turn. */
const topicsOfTexts = (texts: readonly string[]) =>
  topicsOf(reviews((i) => `${texts[i % texts.length]} ${texts[(i + 1) % texts.length]}`));

describe('topics', () => {
  const list = reviews();
  const listed = topicsOf(list);
  const folded = (text: string) =>
    ` ${text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim()} `;

  it('leaves out review boilerplate and phrases that name an aspect, though every review has one', () => {
    const phrases = listed.flatMap((t) => t.phrases);
    expect(phrases).not.toContain('reading reviews');
    expect(phrases.some((p) => p.includes('review') || p.includes('yelp'))).toBe(false);
    expect(phrases).not.toContain('shoe covers');
    expect(phrases).toContain('water heater');
  });

  it('merges a phrase and its plural into one topic named by the more used, counting each review once', () => {
    const fans = listed.filter((t) => t.phrases.some((p) => p.startsWith('ceiling fan')));
    expect(fans).toHaveLength(1);
    const [topic] = fans;
    expect([...topic!.phrases].sort()).toEqual(['ceiling fan', 'ceiling fans']);
    const using = list.filter((r) => / ceiling fans? /.test(folded(r.text)));
    expect(topic!.reviewIds).toEqual(
      [...using]
        .sort((a, b) => (a.date === b.date ? (a.id < b.id ? 1 : -1) : a.date < b.date ? 1 : -1))
        .map((r) => r.id),
    );
    expect(topic!.mentions).toBe(using.length);
    const count = (phrase: string) => list.filter((r) => folded(r.text).includes(` ${phrase} `)).length;
    expect(topic!.phrase).toBe(count('ceiling fan') >= count('ceiling fans') ? 'ceiling fan' : 'ceiling fans');
  });

  it('quotes, for its newest uses, the sentence that uses one of its phrases, as written', () => {
    for (const topic of listed) {
      expect(topic.quotes.map((q) => q.reviewId)).toEqual(topic.examples);
      for (const quote of topic.quotes) {
        const review = list.find((r) => r.id === quote.reviewId)!;
        expect(review.text).toContain(quote.text);
        expect(quote.text).not.toMatch(/reading reviews/);
        expect(topic.phrases.some((p) => folded(quote.text).includes(` ${p} `))).toBe(true);
        expect(quote).toMatchObject({ date: review.date, rating: review.rating });
      }
    }
  });

  it('makes a phrase inside or overlapping a listed one part of its topic, so topics are distinct', () => {
    // "condenser fan" is nearly always "condenser fan motor"; "hot water heater" is always "water heater".
    const texts = [
      'He found a seized condenser fan motor on the roof.',
      'The fan motor on the blower was shot.',
      'Our hot water heater was leaking at the base.',
      'The water heater pilot kept going out.',
    ];
    const topics = topicsOfTexts(texts);
    const fan = topics.filter((t) => t.phrases.some((p) => p.includes('fan')));
    expect(fan).toHaveLength(1);
    expect(fan[0]!.phrases).toEqual(expect.arrayContaining(['fan motor', 'condenser fan']));
    const heater = topics.filter((t) => t.phrases.some((p) => p.includes('heater')));
    expect(heater).toHaveLength(1);
    expect(heater[0]!.phrases).toEqual(expect.arrayContaining(['water heater', 'hot water heater']));
  });

  it('names a topic as customers write it, hyphenated words whole and capitals kept', () => {
    const texts = [
      'It was time for the spring tune-up on the AC.',
      'The EV charger needed a 50-amp circuit from the panel.',
      'Spring tune-up went fine.',
      'Booked a spring tune-up and an EV charger quote.',
    ];
    const topics = topicsOfTexts(texts);
    const named = Object.fromEntries(topics.map((t) => [t.phrase, t.name]));
    expect(named).toMatchObject({
      'spring tune': 'spring tune-up',
      'ev charger': 'EV charger',
      'amp circuit': '50-amp circuit',
    });
  });

  it('never ends a topic in an adverb the tagger reads as a noun', () => {
    const texts = [
      'He found a wad of wipes halfway down the line.',
      'The main line had wipes halfway to the street.',
      'Roots were halfway through the pipe.',
    ];
    const topics = topicsOfTexts(texts);
    expect(topics.flatMap((t) => t.phrases).filter((p) => p.endsWith('halfway'))).toEqual([]);
  });
});

describe('a phrase as written', () => {
  it('finds the words of a phrase in a text and gives them as written', () => {
    expect(writtenForm('Tomás installed a 50-amp circuit and mounted it.', ['amp', 'circuit'])).toBe('50-amp circuit');
    expect(writtenForm('Water heater was toast. The AC repair was quick.', ['water', 'heater'])).toBe('water heater');
    expect(writtenForm('The AC repair was quick.', ['ac', 'repair'])).toBe('AC repair');
    expect(writtenForm('Booked the Spring Tune-Up.', ['spring', 'tune'])).toBe('spring tune-up');
    // The index folds accents and drops apostrophes; a capital that only opens a word reads as a sentence's.
    expect(writtenForm('We liked José’s crew.', ['joses', 'crew'])).toBe('josé’s crew');
  });

  it('does not join words across a sentence or clause break', () => {
    expect(writtenForm('We needed a new fan. Motor was fine.', ['fan', 'motor'])).toBeUndefined();
    expect(writtenForm('the fan, motor and belt', ['fan', 'motor'])).toBeUndefined();
  });
});
