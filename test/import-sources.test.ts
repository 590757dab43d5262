// Importing review platforms' answers (Google, Trustpilot, Podium, Birdeye) with the CLI, as the public then sees them;
// and the imports refused. Fixtures: test/fixtures/sources (README.md there); the business is in America/Phoenix.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli, startServer, tempDir, writeJson, type CliResult, type RunningServer } from './support/server.js';
import { until } from './support/wait.js';

// Each test runs the CLI three to six times (a second or more each on a busy two-core machine).
vi.setConfig({ testTimeout: 180_000 });

const fx = (path: string) => resolve(import.meta.dirname, 'fixtures/sources', path);
const PAGES = [fx('google/page-1.json'), fx('google/page-2.json')];
const TP = (suffix: string) => `trustpilot:6820a1b2c3d4e5f601a2b3c${suffix}`;
const G = (n: string) => `google:AbFvOqG00${n}`;

interface Review {
  id: string;
  date: string;
  rating: number;
  text: string;
  author: string;
  source?: string;
  title?: string;
  response?: { date: string; text: string };
  language: string;
  translation?: { language: string; text: string };
  verification: { method: string; date: string };
}
interface Summary {
  format: string;
  source: string;
  rejected: number;
  skipped: number;
  added: number;
  updated: number;
  unchanged: number;
  withdrawn: number;
  olderIgnored: number;
  stored: { verified: number; unverified: number; removed: number; withdrawn: number };
  version: { revision: number };
}
interface Dataset {
  etag: string | null;
  aggregateRating: { reviewCount: number; distribution: Record<string, number> };
  reviews: Review[];
  byId: Map<string, Review>;
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A new SQLite store holding the Phoenix business, served on loopback, with the operator's CLI over it. */
async function service() {
  const dir = tempDir('reviews-sources-');
  cleanups.push(() => dir.remove());
  const db = `sqlite:${dir.path}/reviews.db`;
  const business = writeJson(`${dir.path}/business.json`, {
    business: { name: 'Saguaro Comfort Home Services', timeZone: 'America/Phoenix' },
    reviews: [],
  });
  const made = await runCli(['import', business], db);
  expect(made.code, made.stderr).toBe(0);
  const server: RunningServer = await startServer(`${dir.path}/reviews.db`);
  cleanups.push(() => server.close());
  const served = () => server.app.publisher.current().snapshot.version.revision;
  const text = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return { status: response.status, body: await response.text(), etag: response.headers.get('etag') };
  };
  return {
    dir: dir.path,
    server,
    cli: (args: string[]) => runCli(args, db),
    text,
    /** `reviews import --from <from> <files…> <flags…> --json`; waits until the server serves what it stored. */
    async import(from: string, files: string[], ...flags: string[]): Promise<Summary> {
      const result = await runCli(['import', '--from', from, ...files, ...flags, '--json'], db);
      expect(result.code, result.stderr).toBe(0);
      const summary = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Summary;
      await until(
        () => served() >= summary.version.revision,
        30_000,
        `revision ${summary.version.revision} to be served`,
      );
      return summary;
    },
    async dataset(): Promise<Dataset> {
      const { status, body, etag } = await text('/reviews.json');
      expect(status).toBe(200);
      const data = JSON.parse(body) as Omit<Dataset, 'etag' | 'byId'>;
      return { ...data, etag, byId: new Map(data.reviews.map((r) => [r.id, r])) };
    },
    async feedItems(): Promise<{ language: string; date_published: string; _review: { id: string } }[]> {
      return (JSON.parse((await text('/api/feed.json')).body) as { items: never[] }).items;
    },
    /** Runs a command that must be refused: exit 1, the store's version and the public reviews as they were. */
    async refused(args: string[]): Promise<CliResult> {
      const version = await server.store.currentVersion();
      const before = await this.dataset();
      const result = await runCli(args, db);
      expect(result.code, result.stdout + result.stderr).toBe(1);
      expect(await server.store.currentVersion()).toEqual(version);
      await server.app.publisher.refresh();
      const after = await this.dataset();
      expect(after.reviews).toEqual(before.reviews);
      expect(after.etag).toBe(before.etag);
      return result;
    },
  };
}
type Service = Awaited<ReturnType<typeof service>>;

const withoutVerificationDate = (reviews: Review[]) =>
  reviews.map(({ verification, ...rest }) => ({ ...rest, method: verification.method }));

/** Every public rendering of a review set: the dataset, both feeds, search, the home page and each permalink. */
async function publicBytes(s: Service, ids: string[]): Promise<string> {
  const paths = [
    '/reviews.json',
    '/api/feed.json',
    '/feed.xml',
    '/api/reviews/search',
    '/',
    ...ids.map((id) => `/reviews/${encodeURIComponent(id)}`),
  ];
  const bodies = await Promise.all(
    paths.map(async (path) => {
      const { status, body } = await s.text(path);
      expect(status, path).toBe(200);
      return body;
    }),
  );
  return bodies.join('\n');
}

describe('Google Business Profile reviews.list answers', () => {
  it('maps both pages in Phoenix dates, publishes the rating-only review with empty text and skips the unrated one', async () => {
    const s = await service();
    const summary = await s.import('google', PAGES, '--verified');
    expect(summary).toMatchObject({
      format: 'google',
      source: 'google',
      rejected: 0,
      skipped: 1,
      added: 8,
      updated: 0,
      stored: { verified: 8, unverified: 0 },
    });
    const data = await s.dataset();
    expect(data.reviews.map((r) => r.id)).toEqual([G('1'), G('2'), G('3'), G('4'), G('5'), G('6'), G('8'), G('9')]);
    expect(data.byId.has(G('7'))).toBe(false);
    expect(data.byId.get(G('1'))).toMatchObject({
      date: '2025-06-01',
      rating: 5,
      author: 'Dana Whitfield',
      source: 'google',
      language: 'en',
      text: expect.stringMatching(/^Our AC quit on the first 110° day\. .* no upsell\.$/),
      // The reply's time 2025-06-02T01:12:44.5Z is the evening of June 1 in Phoenix.
      response: {
        date: '2025-06-01',
        text: "Thank you, Dana! We're glad Luis got you cooled down before the heat wave. — Saguaro Comfort Home Services",
      },
      verification: { method: 'operator' },
    });
    expect(data.byId.get(G('2'))).toMatchObject({
      date: '2025-05-20',
      rating: 1,
      author: 'Marcus Lee',
      text: expect.stringMatching(/^Water heater replacement was scheduled for 8am/),
    });
    expect(data.byId.get(G('2'))?.response).toBeUndefined();
    expect(data.byId.get(G('3'))).toMatchObject({ date: '2025-05-01', rating: 4, author: 'Priya Raman', text: '' });
    expect(data.byId.get(G('4'))).toMatchObject({
      date: '2025-04-10',
      rating: 3,
      author: 'A Google User',
      text: expect.stringMatching(/^Drain is clear now/),
    });
    expect(data.byId.get(G('5'))).toMatchObject({
      date: '2025-03-28',
      rating: 5,
      author: 'Guadalupe Ortiz',
      language: 'es',
      text: 'Excelente trabajo instalando nuestro cargador para carro eléctrico. Marisol nos explicó todo y dejó el garaje impecable.',
      translation: {
        language: 'en',
        text: 'Excellent work installing our electric car charger. Marisol explained everything to us and left the garage spotless.',
      },
    });
    expect(data.byId.get(G('6'))).toMatchObject({ date: '2025-03-14', rating: 2, author: 'Tom Becker' });
    expect(data.byId.get(G('8'))).toMatchObject({
      date: '2025-02-05',
      rating: 5,
      author: 'Rosa Delgado',
      text: 'Fast drain cleaning, fair price, very friendly technician.',
    });
    expect(data.byId.get(G('8'))?.translation).toBeUndefined();
    expect(data.byId.get(G('9'))).toMatchObject({ date: '2025-01-18', rating: 4, author: "Kevin O'Brien" });
    expect(data.aggregateRating).toMatchObject({ reviewCount: 8, distribution: { 1: 1, 2: 1, 3: 1, 4: 2, 5: 3 } });
    // The customer's language travels to both feeds.
    expect((await s.feedItems()).find((item) => item._review.id === G('5'))?.language).toBe('es');
    expect((await s.text('/feed.xml')).body).toMatch(/<entry xml:lang="es">\s*<id>[^<]*AbFvOqG005<\/id>/);
  });

  it('imports pages.json, the two pages in one array, exactly as the two page files', async () => {
    const [apart, together] = await Promise.all([service(), service()]);
    const a = await apart.import('google', PAGES, '--verified');
    const b = await together.import('google', [fx('google/pages.json')], '--verified');
    // Times are not results: the import's and its matching's.
    const result = (r: Summary & { match?: object }) => ({
      ...r,
      file: 0,
      files: 0,
      ms: 0,
      version: 0,
      match: { ...r.match, ms: 0 },
    });
    expect(result(b)).toEqual(result(a));
    expect(withoutVerificationDate((await together.dataset()).reviews)).toEqual(
      withoutVerificationDate((await apart.dataset()).reviews),
    );
  });

  it('imports a bare review object, and a review written at 23:30 Phoenix time keeps its local date', async () => {
    const s = await service();
    expect(await s.import('google', [fx('google/single-review.json')], '--verified')).toMatchObject({
      added: 1,
      skipped: 0,
    });
    // createTime 2025-03-15T06:30:00Z is 2025-03-14 23:30 in Phoenix.
    expect((await s.dataset()).reviews).toMatchObject([
      { id: G('6'), date: '2025-03-14', rating: 2, author: 'Tom Becker' },
    ]);
    const search = async (query: string) =>
      (JSON.parse((await s.text(`/api/reviews/search?${query}`)).body) as { reviews: Review[] }).reviews.map(
        (r) => r.id,
      );
    expect(await search('since=2025-03-14&until=2025-03-14')).toEqual([G('6')]);
    expect(await search('since=2025-03-15')).toEqual([]);
    expect((await s.feedItems())[0]?.date_published).toMatch(/^2025-03-14/);
  });

  it('updates an edited review and a changed reply from a newer answer, and ignores an older copy', async () => {
    const s = await service();
    await s.import('google', PAGES, '--verified');
    const summary = await s.import('google', [fx('google/edited.json')], '--verified');
    expect(summary).toMatchObject({ added: 0, updated: 2, olderIgnored: 1, withdrawn: 0 });
    const data = await s.dataset();
    expect(data.byId.get(G('2'))).toMatchObject({
      date: '2025-05-20',
      rating: 4,
      text: expect.stringMatching(/^Update: the install day was a mess .* knocked \$150 off\.$/),
      response: {
        date: '2025-05-22',
        text: "Marcus, we're sorry about the missed window on install day. Thank you for giving us the chance to make it right.",
      },
    });
    expect(data.byId.get(G('1'))).toMatchObject({
      rating: 5,
      response: {
        date: '2025-06-05',
        text: 'Thank you, Dana! Luis says hi — and remember your free 30-day AC check-up is on us. — Saguaro Comfort Home Services',
      },
    });
    expect(data.byId.get(G('4'))).toMatchObject({ rating: 3, text: expect.stringMatching(/^Drain is clear now/) });
    expect(data.aggregateRating.distribution).toMatchObject({ 1: 0, 4: 3 });
  });

  it('--complete withdraws only the Google review missing from the full list; without it nothing is withdrawn', async () => {
    const s = await service();
    await s.import('trustpilot', [fx('trustpilot/page.json')]);
    await s.import('google', PAGES, '--verified');
    expect(await s.import('google', [fx('google/complete.json')], '--verified')).toMatchObject({
      withdrawn: 0,
      added: 0,
      updated: 0,
    });
    expect((await s.dataset()).byId.has(G('9'))).toBe(true);

    const summary = await s.import('google', [fx('google/complete.json')], '--verified', '--complete');
    expect(summary).toMatchObject({ withdrawn: 1, added: 0, updated: 0, stored: { withdrawn: 1 } });
    const data = await s.dataset();
    expect(data.reviews.map((r) => r.id).sort()).toEqual(
      [G('1'), G('2'), G('3'), G('4'), G('5'), G('6'), G('8'), TP('4'), TP('6'), TP('7')].sort(),
    );
    expect((await s.feedItems()).map((item) => item._review.id)).not.toContain(G('9'));
    expect((await s.text('/feed.xml')).body).not.toContain('AbFvOqG009');
    expect((await s.text('/api/reviews/search?query=heat%20pump')).body).not.toContain('AbFvOqG009');
    expect((await s.text(`/reviews/${encodeURIComponent(G('9'))}`)).status).toBe(404);
  });
});

describe('Trustpilot business-unit reviews', () => {
  it('maps title, language and reply; publishes the platform-verified reviews, the unverified one only with --verified', async () => {
    const s = await service();
    expect(await s.import('trustpilot', [fx('trustpilot/page.json')])).toMatchObject({
      format: 'trustpilot',
      source: 'trustpilot',
      added: 4,
      skipped: 0,
      stored: { verified: 3, unverified: 1 },
    });
    let data = await s.dataset();
    expect(data.reviews.map((r) => r.id)).toEqual([TP('4'), TP('6'), TP('7')]);
    expect(data.byId.get(TP('4'))).toMatchObject({
      date: '2025-05-10',
      rating: 5,
      author: 'Rosa Q.',
      source: 'trustpilot',
      language: 'en',
      title: 'AC tune-up done right',
      text: expect.stringMatching(/^Technician was on time, .* holding 76 now\.$/),
      response: { date: '2025-05-11', text: 'Thanks Rosa! See you at the fall furnace check.' },
      verification: { method: 'platform' },
    });
    // 2025-04-22T01:05:00Z is the evening of April 21 in Phoenix; the language is Trustpilot's.
    expect(data.byId.get(TP('6'))).toMatchObject({
      date: '2025-04-21',
      rating: 4,
      author: 'Carmen Villalobos',
      language: 'es',
      title: 'Rápidos y honestos',
      text: expect.stringMatching(/^Vinieron el mismo día/),
      verification: { method: 'platform' },
    });
    expect(data.byId.get(TP('6'))?.translation).toBeUndefined();
    expect(data.byId.get(TP('7'))).toMatchObject({
      date: '2025-03-30',
      rating: 5,
      response: { date: '2025-03-31', text: 'Enjoy the charger, Jordan!' },
    });

    expect(await s.import('trustpilot', [fx('trustpilot/single-review.json')], '--verified')).toMatchObject({
      added: 0,
      stored: { verified: 4, unverified: 0 },
    });
    data = await s.dataset();
    expect(data.byId.get(TP('5'))).toMatchObject({
      date: '2025-05-02',
      rating: 2,
      author: 'Bill Hartman',
      title: 'Water heater install dragged on',
      text: expect.stringMatching(/^Quote was fine but/),
      verification: { method: 'operator' },
    });
    expect(data.byId.get(TP('5'))?.response).toBeUndefined();
  });

  it('reads a time without a zone as UTC before taking the Phoenix date', async () => {
    const s = await service();
    const review = JSON.parse(readFileSync(fx('trustpilot/single-review.json'), 'utf8')) as Record<string, unknown>;
    // 03:11 UTC is 20:11 the day before in Phoenix; read as local time it would stay on May 2.
    const file = writeJson(`${s.dir}/early.json`, { ...review, createdAt: '2025-05-02T03:11:12' });
    await s.import('trustpilot', [file], '--verified');
    expect((await s.dataset()).byId.get(TP('5'))).toMatchObject({ date: '2025-05-01', rating: 2 });
  });

  it('updates a review edited later and adds its reply, keeping its date', async () => {
    const s = await service();
    await s.import('trustpilot', [fx('trustpilot/page.json')], '--verified');
    expect(await s.import('trustpilot', [fx('trustpilot/edited.json')], '--verified')).toMatchObject({
      added: 0,
      updated: 1,
      olderIgnored: 0,
    });
    expect((await s.dataset()).byId.get(TP('5'))).toMatchObject({
      date: '2025-05-02',
      rating: 4,
      title: 'Slow start, but they made it right',
      text: expect.stringMatching(/^Install took two days .* working great\.$/),
      response: {
        date: '2025-05-08',
        text: "Bill, thank you for the update. We've added a venting-kit check to our truck list so this doesn't happen again.",
      },
    });
  });

  it('--complete withdraws the Trustpilot review missing from the full list and leaves Google reviews alone', async () => {
    const s = await service();
    await s.import('google', [fx('google/page-1.json')], '--verified');
    await s.import('trustpilot', [fx('trustpilot/page.json')]);
    expect(await s.import('trustpilot', [fx('trustpilot/complete.json')], '--complete')).toMatchObject({
      withdrawn: 1,
      added: 0,
      updated: 0,
      stored: { withdrawn: 1 },
    });
    const ids = (await s.dataset()).reviews.map((r) => r.id);
    expect(ids.sort()).toEqual([G('1'), G('2'), G('3'), G('4'), G('5'), TP('4'), TP('6')].sort());
    expect((await s.feedItems()).map((item) => item._review.id)).not.toContain(TP('7'));
    expect((await s.text(`/reviews/${encodeURIComponent(TP('7'))}`)).status).toBe(404);
  });

  it('never publishes referenceId or referralEmail', async () => {
    const s = await service();
    await s.import('trustpilot', [fx('trustpilot/page.json')], '--verified');
    await s.import('trustpilot', [fx('trustpilot/edited.json')], '--verified');
    const ids = [TP('4'), TP('5'), TP('6'), TP('7')];
    expect((await s.dataset()).reviews.map((r) => r.id).sort()).toEqual(ids);
    const bytes = await publicBytes(s, ids);
    for (const secret of [
      'JOB-24817',
      'rosa.quintero@example.com',
      'JOB-24790',
      'bill.hartman@example.net',
      'JOB-24655',
      'carmen.v@example.org',
      'JOB-24512',
      'jpike@example.com',
      'referenceId',
      'referralEmail',
    ]) {
      expect(bytes, secret).not.toContain(secret);
    }
  });
});

describe('aggregators', () => {
  it('Podium: a Google review already imported from Google is one review; the Facebook recommendation is skipped', async () => {
    const s = await service();
    await s.import('google', PAGES, '--verified');
    const summary = await s.import('podium', [fx('podium/reviews.json')], '--verified');
    expect(summary).toMatchObject({
      format: 'podium',
      rejected: 0,
      skipped: 1,
      added: 2,
      stored: { verified: 10, unverified: 0 },
    });
    const data = await s.dataset();
    expect(data.reviews.filter((r) => r.id === G('1'))).toHaveLength(1);
    expect(data.reviews).toHaveLength(10);
    expect((await s.feedItems()).filter((item) => item._review.id === G('1'))).toHaveLength(1);
    expect(data.byId.get(G('1'))).toMatchObject({
      author: 'Dana Whitfield',
      rating: 5,
      date: '2025-06-01',
      text: expect.stringMatching(/^Our AC quit/),
    });
    // 2025-02-11T05:30:00Z is the evening of February 10 in Phoenix.
    expect(data.byId.get('google:AbFvOqG010')).toMatchObject({
      date: '2025-02-10',
      rating: 3,
      author: 'Sam Okafor',
      source: 'google',
      text: expect.stringMatching(/^Sewer camera inspection found roots/),
      response: {
        date: '2025-02-12',
        text: "Thanks for the honest feedback, Sam. We've sent you a coupon toward the root cutting.",
      },
    });
    expect(data.byId.get('facebook:10155512340000111_1650022334455667')).toMatchObject({
      date: '2018-04-02',
      rating: 4,
      author: 'Linda Marsh',
      source: 'facebook',
    });
    expect(data.reviews.some((r) => r.id.includes('2218733449911223') || r.author === 'Hector Ruiz')).toBe(false);
  });

  it('Birdeye: numeric and string ids, calendar dates as given, replies; reviews rated 0 are skipped', async () => {
    const s = await service();
    const summary = await s.import('birdeye', [fx('birdeye/reviews.json')], '--verified');
    expect(summary).toMatchObject({ format: 'birdeye', rejected: 0, skipped: 2, added: 2 });
    const data = await s.dataset();
    expect(data.reviews.map((r) => r.id)).toEqual(['birdeye:4410023001', 'birdeye:4410023003']);
    expect(data.byId.get('birdeye:4410023001')).toMatchObject({
      date: '2025-06-01',
      rating: 5,
      author: 'Dana Whitfield',
      source: 'google',
      text: expect.stringMatching(/^Our AC quit/),
      response: {
        date: '2025-06-01',
        text: "Thank you, Dana! We're glad Luis got you cooled down before the heat wave. — Saguaro Comfort Home Services",
      },
    });
    expect(data.byId.get('birdeye:4410023003')).toMatchObject({
      date: '2025-04-03',
      rating: 4,
      author: 'Grace K.',
      source: 'birdeye',
      title: 'Same-day water heater swap',
      text: expect.stringMatching(/^Old tank water heater was leaking/),
      response: { date: '2025-04-04', text: 'Thanks Grace, enjoy the hot showers!' },
    });
  });
});

describe('importing the same file again', () => {
  it.each([
    ['google', PAGES],
    ['trustpilot', [fx('trustpilot/page.json')]],
    ['podium', [fx('podium/reviews.json')]],
    ['birdeye', [fx('birdeye/reviews.json')]],
  ])('changes nothing for %s: no additions or updates, the same ETag', async (from, files) => {
    const s = await service();
    const first = await s.import(from, files, '--verified');
    expect(first.added).toBeGreaterThan(0);
    const before = await s.dataset();
    const again = await s.import(from, files, '--verified');
    expect(again).toMatchObject({ added: 0, updated: 0, withdrawn: 0, unchanged: first.added, version: first.version });
    await s.server.app.publisher.refresh();
    expect((await s.dataset()).etag).toBe(before.etag);
  });
});

describe('imports refused, with nothing changed', () => {
  it('refuses Yelp content, naming its terms', async () => {
    const s = await service();
    await s.import('google', PAGES, '--verified');
    const result = await s.refused(['import', '--from', 'yelp', fx('yelp/reviews.json')]);
    expect(result.stderr).toMatch(/Yelp/);
    expect(result.stderr).toMatch(/terms/i);
    expect(result.stderr).toMatch(/stor/i);
  });

  it("refuses a file that is not the named platform's, saying once what was expected", async () => {
    const s = await service();
    const result = await s.refused(['import', '--from', 'google', fx('not-a-review-file.json')]);
    expect(
      result.stderr.split('not a google file: expected a Google Business Profile reviews.list answer'),
    ).toHaveLength(2);
  });

  it("leaves platforms' reviews alone when the own format's --replace makes its reviews equal a file", async () => {
    const s = await service();
    await s.import('google', PAGES, '--verified');
    const own = writeJson(`${s.dir}/own.json`, {
      reviews: [
        { id: 'own-1', date: '2025-06-02', rating: 5, text: 'Fixed the AC fast.', author: 'Ann B.', verified: true },
      ],
    });
    const replaced = await s.cli(['import', own, '--replace', '--json']);
    expect(replaced.code, replaced.stderr).toBe(0);
    const summary = JSON.parse(replaced.stdout) as Summary & { removed: number };
    expect(summary.removed).toBe(0);
    await until(
      () => s.server.app.publisher.current().snapshot.version.revision >= summary.version.revision,
      30_000,
      'the replace to be served',
    );
    const ids = (await s.dataset()).reviews.map((r) => r.id);
    expect(ids).toContain('own-1');
    expect(ids.filter((id) => id.startsWith('google:'))).toHaveLength(8);
  });

  it('refuses --replace with --from, and --complete without --from', async () => {
    const s = await service();
    await s.import('google', PAGES, '--verified');
    expect((await s.refused(['import', '--from', 'google', '--replace', fx('google/page-1.json')])).stderr).toMatch(
      /--replace/,
    );
    const own = writeJson(`${s.dir}/own.json`, {
      reviews: [{ id: 'own-1', date: '2025-06-10', rating: 5, text: 'Great.', author: 'Ann B.', verified: true }],
    });
    expect((await s.refused(['import', '--complete', own])).stderr).toMatch(/--complete/);
  });
});
