// Behaviour of the demo generator: deterministic, schema-valid, realistic in shape and in text.
import { describe, expect, it } from 'vitest';
import { DEMO_DEFAULTS, generateDemo } from '../src/demo/generate.js';
import { Business, ImportedReview } from '../src/reviews/schemas.js';

const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const share = <T>(items: readonly T[], test: (item: T) => boolean): number => items.filter(test).length / items.length;
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const daysBetween = (from: string, to: string): number =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

const demo = generateDemo();
const { business, reviews } = demo;

describe('generateDemo determinism', () => {
  it('gives byte-identical JSON for the same options', () => {
    expect(JSON.stringify(generateDemo({ seed: 42 }))).toBe(JSON.stringify(generateDemo({ seed: 42 })));
    expect(JSON.stringify(generateDemo(DEMO_DEFAULTS))).toBe(JSON.stringify(demo));
  });

  it('gives a different business and different reviews for a different seed', () => {
    const other = generateDemo({ seed: 43 });
    expect(JSON.stringify(other.business)).not.toBe(JSON.stringify(business));
    expect(other.reviews.map((r) => r.text)).not.toEqual(reviews.map((r) => r.text));
  });

  it('keeps the business the same whatever the number of reviews asked for', () => {
    expect(generateDemo({ reviews: 10 }).business).toEqual(business);
  });

  it('uses the documented defaults', () => {
    expect(DEMO_DEFAULTS).toEqual({ seed: 42, reviews: 1500, until: '2026-11-15' });
    expect(reviews).toHaveLength(1500);
  });

  it('rejects an impossible until date and a bad review count', () => {
    expect(() => generateDemo({ until: '2025-02-30' })).toThrow(RangeError);
    expect(() => generateDemo({ until: '15/11/2026' })).toThrow(RangeError);
    expect(() => generateDemo({ reviews: -1 })).toThrow(RangeError);
    expect(() => generateDemo({ reviews: 1.5 })).toThrow(RangeError);
    expect(generateDemo({ reviews: 0 }).reviews).toEqual([]);
  });
});

describe('generateDemo business', () => {
  it('passes the Business schema unchanged', () => {
    expect(Business.parse(business)).toEqual(business);
  });

  it('keeps the catalogue within bounds for every seed', () => {
    for (let seed = 0; seed < 40; seed++) {
      const b = generateDemo({ seed, reviews: 0 }).business;
      expect(b.technicians.length).toBeGreaterThanOrEqual(6);
      expect(b.technicians.length).toBeLessThanOrEqual(10);
      expect(b.areaServed.length).toBeGreaterThanOrEqual(8);
      expect(b.areaServed.length).toBeLessThanOrEqual(15);
      expect(b.services.length).toBeGreaterThanOrEqual(12);
      expect(b.services.length).toBeLessThanOrEqual(18);
      expect(new Set(b.services.map((s) => s.category))).toEqual(new Set(['cooling', 'plumbing', 'electrical']));
      expect(new Set(b.services.map((s) => s.id)).size).toBe(b.services.length);
      expect(new Set(b.areaServed).size).toBe(b.areaServed.length);
      expect(b.url).toMatch(/^https:\/\/[a-z]+\.example$/);
    }
  });

  it('has core services, an accented technician and nicknamed ones', () => {
    const ids = business.services.map((s) => s.id);
    expect(ids).toEqual(expect.arrayContaining(['ac-repair', 'water-heater-install', 'panel-upgrade']));
    const names = business.technicians.map((t) => t.name);
    expect(names).toContain('Zoë Martínez');
    expect(business.technicians).toContainEqual({ name: 'Robert Okafor', aliases: ['Rob', 'Bobby'] });
    expect(names.some((n) => fold(n) !== n.toLowerCase())).toBe(true);
  });
});

describe('generateDemo reviews', () => {
  it('passes the ImportedReview schema unchanged, with unique sequential ids', () => {
    for (const review of reviews) expect(ImportedReview.parse(review)).toEqual(review);
    expect(reviews.map((r) => r.id)).toEqual(reviews.map((_, i) => `rv-${String(i + 1).padStart(6, '0')}`));
  });

  it('refers only to technicians, services and areas from the catalogue', () => {
    const technicians = new Set(business.technicians.map((t) => t.name));
    const services = new Set(business.services.map((s) => s.id));
    const areas = new Set(business.areaServed);
    for (const review of reviews) {
      expect(review.technicians.length).toBeLessThanOrEqual(2);
      expect(new Set(review.technicians).size).toBe(review.technicians.length);
      for (const name of review.technicians) expect(technicians.has(name)).toBe(true);
      expect(review.services.length).toBeGreaterThanOrEqual(1);
      expect(review.services.length).toBeLessThanOrEqual(2);
      for (const id of review.services) expect(services.has(id)).toBe(true);
      if (review.serviceArea !== undefined) expect(areas.has(review.serviceArea)).toBe(true);
    }
    expect(share(reviews, (r) => r.technicians.length === 1)).toBeGreaterThan(0.7);
    expect(share(reviews, (r) => r.serviceArea === undefined)).toBeGreaterThan(0);
    expect(new Set(reviews.map((r) => r.source)).size).toBeGreaterThanOrEqual(4);
    expect(share(reviews, (r) => r.title !== undefined)).toBeGreaterThan(0.1);
  });

  it('uses every rating level with the usual skew towards five stars', () => {
    const expected: Record<number, number> = { 1: 0.1, 2: 0.05, 3: 0.07, 4: 0.18, 5: 0.6 };
    for (const [rating, target] of Object.entries(expected)) {
      const actual = share(reviews, (r) => r.rating === Number(rating));
      expect(actual).toBeGreaterThan(0);
      expect(Math.abs(actual - target)).toBeLessThan(0.04);
    }
  });

  it('marks about 97% of reviews verified and leaves some unverified', () => {
    const verified = share(reviews, (r) => r.verified);
    expect(verified).toBeGreaterThan(0.95);
    expect(verified).toBeLessThan(0.99);
  });

  it('has owner replies on about a quarter of reviews, more on low ratings, dated on or after the review', () => {
    const answered = reviews.filter((r) => r.response !== undefined);
    expect(answered.length / reviews.length).toBeGreaterThan(0.18);
    expect(answered.length / reviews.length).toBeLessThan(0.35);
    const low = reviews.filter((r) => r.rating <= 2);
    const high = reviews.filter((r) => r.rating >= 4);
    expect(share(low, (r) => r.response !== undefined)).toBeGreaterThan(
      2 * share(high, (r) => r.response !== undefined),
    );
    for (const review of answered) {
      const response = review.response ?? { date: '', text: '' };
      expect(response.date >= review.date).toBe(true);
      expect(response.date <= DEMO_DEFAULTS.until).toBe(true);
      expect(response.text).toContain(review.author.split(' ')[0] ?? '');
    }
  });

  it('dates reviews within the five years before until, the newest on until', () => {
    for (const until of [DEMO_DEFAULTS.until, '2024-02-29']) {
      const dated = until === DEMO_DEFAULTS.until ? reviews : generateDemo({ until }).reviews;
      for (const review of dated) {
        expect(daysBetween(review.date, until)).toBeGreaterThanOrEqual(0);
        expect(daysBetween(review.date, until)).toBeLessThan(5 * 365 + 2);
      }
      expect(dated.at(-1)?.date).toBe(until);
      expect(dated.map((r) => r.date)).toEqual(dated.map((r) => r.date).sort());
    }
  });

  it('grows over time and follows the seasons', () => {
    const inYear = (year: string): number => reviews.filter((r) => r.date.startsWith(year)).length;
    expect(inYear('2025')).toBeGreaterThan(1.5 * inYear('2022'));
    const category = new Map(business.services.map((s) => [s.id, s.category]));
    const months = (list: readonly string[]) => reviews.filter((r) => list.includes(r.date.slice(5, 7)));
    const summer = months(['06', '07', '08']);
    const winter = months(['12', '01', '02']);
    const cooling = (r: ImportedReview): boolean => category.get(r.services[0] ?? '') === 'cooling';
    const waterHeater = (r: ImportedReview): boolean => /water-heater/.test(r.services[0] ?? '');
    expect(share(summer, cooling)).toBeGreaterThan(share(winter, cooling) + 0.15);
    expect(share(winter, waterHeater)).toBeGreaterThan(share(summer, waterHeater));
  });
});

describe('generateDemo text', () => {
  it('repeats fewer than 2% of texts and varies their length', () => {
    const texts = reviews.map((r) => r.text);
    expect(texts.length - new Set(texts).size).toBeLessThan(0.02 * texts.length);
    const words = texts.map((t) => t.split(/\s+/).length);
    expect(Math.min(...words)).toBeLessThanOrEqual(6);
    expect(Math.max(...words)).toBeGreaterThanOrEqual(70);
  });

  it('mentions the listed technician by name, first name or nickname in most reviews that list one', () => {
    const forms = new Map(
      business.technicians.map((t) => [
        t.name,
        [t.name, t.name.split(' ')[0] ?? t.name, ...(t.aliases ?? [])].map(fold),
      ]),
    );
    const listed = reviews.filter((r) => r.technicians.length > 0);
    const mentioned = share(listed, (r) =>
      (forms.get(r.technicians[0] ?? '') ?? []).some((form) => new RegExp(`\\b${escape(form)}\\b`).test(fold(r.text))),
    );
    expect(mentioned).toBeGreaterThan(0.6);
  });

  it('writes praise into high ratings and complaints into low ones', () => {
    const praise =
      /\b(great|recommend|professional|fair|on time|friendly|thank|best|perfectly|quick|honest|knowledgeable|polite|excellent|awesome|worth)/;
    const complaint =
      /\b(never|not|late|overpriced|rude|avoid|disappointed|waste|broke|ridiculous|steep|sloppy|nobody|worst|terrible|no-show|zero)\b/;
    const tone = (r: ImportedReview): number =>
      (praise.test(fold(r.text)) ? 1 : 0) - (complaint.test(fold(r.text)) ? 1 : 0);
    const mean = (list: readonly ImportedReview[]): number => list.reduce((sum, r) => sum + tone(r), 0) / list.length;
    expect(mean(reviews.filter((r) => r.rating === 5))).toBeGreaterThan(0.4);
    expect(mean(reviews.filter((r) => r.rating === 1))).toBeLessThan(-0.4);
  });

  it('uses negation, contrast and the everyday names of services', () => {
    const texts = reviews.map((r) => fold(r.text));
    const phrases = [
      /not on time/,
      /never called back/,
      /no mess left behind/,
      / but /,
      /water heater/,
      /\b(ac|a\/c)\b/,
      /breaker panel|electrical panel/,
    ];
    for (const phrase of phrases)
      expect(
        texts.some((t) => phrase.test(t)),
        String(phrase),
      ).toBe(true);
  });
});

describe('generateDemo at scale', () => {
  // How fast is the benchmark's business (`reviews demo --reviews 100000 --out f` prints it), not a test's.
  it('generates 100,000 reviews with unique ids', () => {
    const large = generateDemo({ reviews: 100_000 });
    expect(large.reviews).toHaveLength(100_000);
    expect(new Set(large.reviews.map((r) => r.id)).size).toBe(100_000);
  });
});
