// The insights engine: negation, contrast, entity recognition, determinism, and every figure traceable to its reviews.
import { publishedFrom } from '../src/reviews/published.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { Analyzer } from '../src/insights/analysis/analyzer.js';
import { InsightsEngine } from '../src/insights/engine.js';
import { InsightsDocument } from '../src/reviews/insights-document.js';
import { fold } from '../src/reviews/text.js';
import type { PublishedReview } from '../src/reviews/published.js';
import { newBusiness } from './support/business.js';
import { newestFirst } from './support/reviews.js';
import { publish, runCli, startServer, tempDir, writeJson, type RunningServer } from './support/server.js';
import { sleep } from './support/wait.js';

// The analyzer's cases name these services and technicians (with aliases), so they replace the factory's.
const business = newBusiness({
  name: 'Test Air & Plumbing',
  areaServed: ['North'],
  services: [
    { id: 'ac-repair', name: 'AC Repair', category: 'cooling' },
    { id: 'ac-install', name: 'AC Installation', category: 'cooling' },
    { id: 'water-heater-repair', name: 'Water Heater Repair', category: 'plumbing' },
    { id: 'panel-upgrade', name: 'Electrical Panel Upgrade', category: 'electrical' },
  ],
  technicians: [{ name: 'Zoë Martínez' }, { name: 'Robert Okafor', aliases: ['Rob', 'Bobby'] }, { name: 'Bill Hayes' }],
});
const analyzer = new Analyzer(business);
const aspectsOf = (text: string) =>
  Object.fromEntries(analyzer.analyze({ id: 't', text }).aspects.map((a) => [a.aspect, a.polarity]));

describe('negation', () => {
  it.each([
    ['They were not on time.', 'punctuality', 'negative'],
    ['He was on time.', 'punctuality', 'positive'],
    ['The tech never called back.', 'responsiveness', 'negative'],
    ['No mess left behind at all.', 'cleanliness', 'positive'],
    ['They left a mess in the garage.', 'cleanliness', 'negative'],
    ["The price wasn't cheap.", 'price', 'negative'],
    ['Not rude at all, very patient.', 'professionalism', 'positive'],
    ["He didn't explain anything.", 'communication', 'negative'],
    ['Nobody told us about the delay.', 'communication', 'negative'],
    ["Couldn't have been nicer.", 'professionalism', 'positive'],
    ['Toilet still runs after they "fixed" it.', 'quality', 'negative'],
    ['Diagnosed a bad flame sensor in minutes.', 'expertise', 'positive'],
  ])('%s → %s %s', (text, aspect, polarity) => {
    expect(aspectsOf(text)[aspect]).toBe(polarity);
  });

  it('does not carry a negation across a comma', () => {
    expect(aspectsOf('No dust, no mess, no mud.').cleanliness).toBe('positive');
  });
});

describe('contrast', () => {
  it('judges each side of "but" on its own', () => {
    const aspects = aspectsOf('Zoë was friendly and knowledgeable, but the price was steep.');
    expect(aspects).toMatchObject({ professionalism: 'positive', expertise: 'positive', price: 'negative' });
  });

  it('weighs the clause after the contrast more in the overall sentiment', () => {
    const after = analyzer.analyze({ id: 'a', text: 'The price was fair, but the repair failed within a week.' });
    const before = analyzer.analyze({ id: 'b', text: 'The repair failed within a week, but the price was fair.' });
    for (const { aspects } of [after, before])
      expect(aspects.map((j) => `${j.aspect} ${j.polarity}`).sort()).toEqual(['price positive', 'quality negative']);
    expect(after.sentiment.label).toBe('negative');
    expect(before.sentiment.label).toBe('positive');
  });

  it('gives the deciding clause as evidence', () => {
    const [judgement] = analyzer
      .analyze({ id: 'e', text: 'Great guy; however the bill was outrageous.' })
      .aspects.filter((a) => a.aspect === 'price');
    expect(judgement?.evidence).toBe('however the bill was outrageous');
    expect(judgement?.cues.join(' ')).toContain('outrageous');
  });
});

describe('technicians and services', () => {
  it('recognises technicians by full name, first name, nickname, without case or accents', () => {
    expect(analyzer.analyze({ id: 'z', text: 'zoe fixed it in an hour' }).technicians).toEqual(['Zoë Martínez']);
    expect(analyzer.analyze({ id: 'z', text: 'ZOË MARTINEZ was great' }).technicians).toEqual(['Zoë Martínez']);
    expect(analyzer.analyze({ id: 'r', text: 'Bobby and Zoe came out' }).technicians).toEqual([
      'Zoë Martínez',
      'Robert Okafor',
    ]);
  });

  it('reads a name that is also a word only when capitalised', () => {
    expect(analyzer.analyze({ id: 'b', text: 'the bill was higher than the quote' }).technicians).toEqual([]);
    expect(analyzer.analyze({ id: 'b', text: 'Bill was great' }).technicians).toEqual(['Bill Hayes']);
  });

  it('keeps technicians named in the fields, even ones the catalogue does not know', () => {
    expect(
      analyzer.analyze({ id: 'f', text: 'Great job.', technicians: ['Robert Okafor', 'Sam New'] }).technicians,
    ).toEqual(['Robert Okafor', 'Sam New']);
  });

  it('maps everyday words to catalogue services', () => {
    expect(analyzer.analyze({ id: 's', text: 'Our AC stopped cooling and they fixed it.' }).services).toEqual([
      'ac-repair',
    ]);
    expect(analyzer.analyze({ id: 's', text: 'They installed a new AC.' }).services).toEqual(['ac-install']);
    expect(
      analyzer.analyze({ id: 's', text: 'No hot water this morning, the water heater pilot was out.' }).services,
    ).toEqual(['water-heater-repair']);
    expect(analyzer.analyze({ id: 's', text: 'Replaced our breaker panel.' }).services).toEqual(['panel-upgrade']);
  });
});

describe('insights dataset', () => {
  const demo = generateDemo({ seed: 5, reviews: 600 });
  const published: PublishedReview[] = newestFirst(
    demo.reviews.filter((r) => r.verified).map((r) => publishedFrom(r, '2026-11-01T00:00:00.000Z')),
  );

  const input = {
    business: demo.business,
    reviews: published,
    asOf: '2026-11-01T00:00:00.000Z',
    generatedAt: '2026-11-01T00:00:01.000Z',
  };

  it('is deterministic: two engines, same reviews, same bytes', async () => {
    const first = JSON.stringify((await new InsightsEngine().build(input)).insights);
    const second = JSON.stringify((await new InsightsEngine().build(input)).insights);
    expect(second).toBe(first);
  });

  it('re-analyses only reviews that changed', async () => {
    const engine = new InsightsEngine();
    expect((await engine.build(input)).fresh.size).toBe(published.length);
    const changed = published.map((r, i) =>
      i === 3 ? { ...r, text: `${r.text} Update: still great.`, updatedAt: '2026-11-02T00:00:00.000Z' } : r,
    );
    expect([...(await engine.build({ ...input, reviews: changed })).fresh.keys()]).toEqual([published[3]!.id]);
    const removed = await engine.build({ ...input, reviews: changed.filter((_, i) => i !== 5) });
    expect(removed.fresh.size).toBe(0);
    expect(removed.dropped).toEqual([published[5]!.id]);
  });

  it('reuses analyses handed in from the store when their key matches, and only then', async () => {
    const first = new InsightsEngine();
    const { fresh } = await first.build(input);
    const second = new InsightsEngine();
    second.remember(fresh);
    expect((await second.build(input)).fresh.size).toBe(0);
    const third = new InsightsEngine('another analyzer');
    third.remember(fresh);
    expect((await third.build(input)).fresh.size).toBe(published.length);
  });

  let server: RunningServer;
  const dir = tempDir();
  beforeAll(async () => {
    server = await startServer(`${dir.path}/insights.db`);
    await publish(server, { business: demo.business, reviews: demo.reviews, replace: true });
    await server.app.publisher.insightsReady();
  });
  afterAll(async () => {
    await server.close();
    dir.remove();
  });

  it('is served ready, valid and computed from the verified reviews', async () => {
    const doc = InsightsDocument.parse(await (await fetch(`${server.url}/insights.json`)).json());
    expect(doc.status).toBe('ready');
    expect(doc.reviewCount).toBe(published.length);
    expect(doc.aspects.map((a) => a.id)).toEqual([
      'punctuality',
      'responsiveness',
      'price',
      'quality',
      'professionalism',
      'communication',
      'cleanliness',
      'expertise',
    ]);
    expect(doc.entities.technicians.length).toBeGreaterThan(0);
    expect(doc.topics.length).toBeGreaterThan(0);
    expect(doc.faq.length).toBeGreaterThan(0);
    expect(doc.summary.text.length).toBeGreaterThan(50);
  });

  it('has every figure reproducible from the reviews it cites, by the analyze command', async () => {
    const doc = (await (await fetch(`${server.url}/insights.json`)).json()) as {
      aspects: {
        id: string;
        mentions: number;
        positive: number;
        negative: number;
        neutral: number;
        reviewIds: { positive: string[]; negative: string[]; neutral: string[] };
        quotes: {
          positive: { reviewId: string; text: string; rating: number }[];
          negative: { reviewId: string; text: string }[];
        };
        trend: { quarter: string; mentions: number }[];
      }[];
      entities: {
        technicians: { name: string; mentions: number; averageRating: number; reviewIds: string[] }[];
        services: { id: string; mentions: number; averageRating: number; reviewIds: string[] }[];
        serviceAreas: { name: string; mentions: number; reviewIds: string[] }[];
      };
      topics: {
        phrase: string;
        phrases: string[];
        mentions: number;
        reviewIds: string[];
        quotes: { reviewId: string; text: string }[];
      }[];
      faq: { reviewIds: string[] }[];
      summary: { figures: { reviewCount: number; averageRating: number } };
    };
    const file = writeJson(`${dir.path}/published.json`, {
      business: demo.business,
      reviews: published.map(({ updatedAt: _u, verification: _v, ...r }) => ({ ...r, verified: true })),
    });
    const cli = await runCli(['analyze', file], server.databaseUrl);
    expect(cli.code, cli.stderr).toBe(0);
    const analyses = new Map(
      cli.stdout
        .trim()
        .split('\n')
        .map((line) => {
          const a = JSON.parse(line) as {
            id: string;
            aspects: { aspect: string; score: number }[];
            technicians: string[];
            services: string[];
          };
          return [a.id, a];
        }),
    );
    const byId = new Map(published.map((r) => [r.id, r]));
    const net = (id: string, aspect: string) =>
      analyses
        .get(id)!
        .aspects.filter((a) => a.aspect === aspect)
        .reduce((s, a) => s + a.score, 0);
    const mentions = (id: string, aspect: string) => analyses.get(id)!.aspects.some((a) => a.aspect === aspect);
    const cancels = (x: number) => Math.abs(x) < 1e-9;

    for (const aspect of doc.aspects) {
      const expectedPositive = published
        .filter((r) => net(r.id, aspect.id) > 0 && !cancels(net(r.id, aspect.id)))
        .map((r) => r.id);
      const expectedNegative = published
        .filter((r) => net(r.id, aspect.id) < 0 && !cancels(net(r.id, aspect.id)))
        .map((r) => r.id);
      const expectedNeutral = published
        .filter((r) => mentions(r.id, aspect.id) && cancels(net(r.id, aspect.id)))
        .map((r) => r.id);
      expect(aspect.reviewIds.positive, aspect.id).toEqual(expectedPositive);
      expect(aspect.reviewIds.negative, aspect.id).toEqual(expectedNegative);
      expect(aspect.reviewIds.neutral, aspect.id).toEqual(expectedNeutral);
      expect(aspect.positive).toBe(expectedPositive.length);
      expect(aspect.negative).toBe(expectedNegative.length);
      expect(aspect.neutral).toBe(expectedNeutral.length);
      expect(aspect.mentions).toBe(expectedPositive.length + expectedNegative.length + expectedNeutral.length);
      expect(aspect.trend.reduce((s, q) => s + q.mentions, 0)).toBe(aspect.mentions);
      for (const quote of [...aspect.quotes.positive, ...aspect.quotes.negative]) {
        expect(byId.get(quote.reviewId)!.text).toContain(quote.text);
      }
    }
    for (const t of doc.entities.technicians) {
      expect(t.reviewIds).toEqual(
        published.filter((r) => analyses.get(r.id)!.technicians.includes(t.name)).map((r) => r.id),
      );
      expect(t.mentions).toBe(t.reviewIds.length);
      expect(t.averageRating).toBe(
        Math.round((t.reviewIds.reduce((s, id) => s + byId.get(id)!.rating, 0) / t.mentions) * 100) / 100,
      );
    }
    for (const s of doc.entities.services) {
      expect(s.reviewIds).toEqual(
        published.filter((r) => analyses.get(r.id)!.services.includes(s.id)).map((r) => r.id),
      );
      expect(s.mentions).toBe(s.reviewIds.length);
    }
    for (const a of doc.entities.serviceAreas) {
      expect(a.reviewIds).toEqual(published.filter((r) => r.serviceArea === a.name).map((r) => r.id));
    }
    for (const topic of doc.topics) {
      expect(topic.mentions).toBe(topic.reviewIds.length);
      expect(topic.phrases[0]).toBe(topic.phrase);
      const words = (text: string) =>
        ` ${fold(text)
          .replace(/['’]/g, '')
          .replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
      for (const id of topic.reviewIds)
        expect(
          topic.phrases.some((p) => words(byId.get(id)!.text).includes(` ${p} `)),
          id,
        ).toBe(true);
      for (const quote of topic.quotes) expect(byId.get(quote.reviewId)!.text).toContain(quote.text);
    }
    for (const q of doc.faq) for (const id of q.reviewIds) expect(byId.has(id)).toBe(true);
    expect(doc.summary.figures.reviewCount).toBe(published.length);
    expect(doc.summary.figures.averageRating).toBe(
      Math.round((published.reduce((s, r) => s + r.rating, 0) / published.length) * 100) / 100,
    );
  });

  it('follows a new import within seconds', async () => {
    const before = (await (await fetch(`${server.url}/insights.json`)).json()) as { reviewCount: number };
    const file = writeJson(`${dir.path}/more.json`, {
      reviews: [
        {
          id: 'zz-new',
          date: '2026-11-20',
          rating: 1,
          text: 'Three hours late and rude about it.',
          author: 'N N.',
          verified: true,
        },
      ],
    });
    expect((await runCli(['import', file], server.databaseUrl)).code).toBe(0);
    const deadline = Date.now() + 10_000;
    let after = before;
    while (after.reviewCount === before.reviewCount && Date.now() < deadline) {
      await sleep(100);
      after = (await (await fetch(`${server.url}/insights.json`)).json()) as { reviewCount: number };
    }
    expect(after.reviewCount).toBe(before.reviewCount + 1);
  });
});
