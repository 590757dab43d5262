// The job ledger through the CLI, on real SQLite files: import-jobs, the verification rule (reference, name and
// window, nicknames, accents, ambiguity, order of arrival, blind to the rating), the operator's word over the
// ledger, `unmatched`, and the public verification summary equal to what the store holds.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgres, schemasPerFile } from './support/postgres.js';
import { runCli, startServer, tempDir, writeJson } from './support/server.js';
import { openSqlite } from './support/sqlite.js';
import { until } from './support/wait.js';

const freshSchema = schemasPerFile();
const dir = tempDir();
afterAll(() => dir.remove());

/** The engine the matching tests of one block run on: each test gets a store of its own. */
let engine: 'sqlite' | 'postgres' = 'sqlite';

const business = {
  name: 'Ledger Test Cooling',
  timeZone: 'America/Phoenix',
  areaServed: ['Phoenix', 'Tempe'],
  services: [{ id: 'ac-repair', name: 'AC Repair', category: 'cooling' }],
  technicians: [{ name: 'Zoë Martínez', aliases: ['Zoe'] }],
};

interface Review {
  id: string;
  date: string;
  rating?: number;
  text?: string;
  author: string;
  reference?: string;
  verified?: boolean;
  technicians?: string[];
}
interface Job {
  id: string;
  completed: string;
  customer: string;
  email?: string;
  phone?: string;
  technicians?: string;
  services?: string;
  area?: string;
}

let stores = 0;
/** A fresh store with the business and these reviews (none verified by its record unless it says so). */
async function storeWith(reviews: Review[]): Promise<string> {
  const url = engine === 'postgres' ? await freshSchema() : `sqlite:${join(dir.path, `ledger-${++stores}.db`)}`;
  ++stores;
  const file = writeJson(join(dir.path, `reviews-${stores}.json`), {
    business,
    reviews: reviews.map((r) => ({ rating: 5, text: 'The technician fixed it.', language: 'en', ...r })),
  });
  const result = await runCli(['import', file], url);
  expect(result.code, result.stderr).toBe(0);
  return url;
}

let files = 0;
function jobsCsv(jobs: Job[]): string {
  const cell = (v: string | undefined) => (v === undefined ? '' : /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const rows = jobs.map((j) =>
    [j.id, j.completed, j.customer, j.email, j.phone, j.technicians, j.services, j.area].map(cell).join(','),
  );
  const path = join(dir.path, `jobs-${++files}.csv`);
  writeFileSync(path, ['id,completed,customer,email,phone,technicians,services,area', ...rows].join('\n'));
  return path;
}

async function importJobs(url: string, jobs: Job[], env: Record<string, string> = {}) {
  const result = await runCli(['import-jobs', jobsCsv(jobs), '--json'], url, env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as {
    added: number;
    updated: number;
    unchanged: number;
    match: { verified: number; unverified: number };
    version: { revision: number };
  };
}

interface Status {
  state: string;
  verification: { method: string; date: string } | null;
  decided: boolean;
  match?: { state: string; candidates: string[] };
}
async function status(url: string, id: string): Promise<Status> {
  const result = await runCli(['status', id, '--json'], url);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Status;
}
const method = async (url: string, id: string) => (await status(url, id)).verification?.method ?? null;

for (const on of ['sqlite', 'postgres'] as const)
  describe.skipIf(on === 'postgres' && !postgres)(`matching a review to a completed job (${on})`, () => {
    beforeAll(() => {
      engine = on;
    });

    it('verifies a review by the job reference it carries, whatever its case and a leading #', async () => {
      const url = await storeWith([{ id: 'r', date: '2026-03-05', author: 'Q', reference: '#j-100' }]);
      expect(await method(url, 'r')).toBeNull();
      await importJobs(url, [{ id: 'J-100', completed: '2026-03-01', customer: 'Somebody Else' }]);
      expect(await status(url, 'r')).toMatchObject({ state: 'published', verification: { method: 'reference' } });
    });

    it('verifies by first name and last initial within the window after the job, its edges included', async () => {
      const url = await storeWith([
        { id: 'before', date: '2026-02-28', author: 'Robert Smith' },
        { id: 'same-day', date: '2026-03-01', author: 'Robert Smith' },
        { id: 'day-60', date: '2026-04-30', author: 'Robert S.' },
        { id: 'day-61', date: '2026-05-01', author: 'Robert S.' },
        { id: 'other-initial', date: '2026-03-02', author: 'Robert T.' },
        { id: 'first-only', date: '2026-03-02', author: 'Robert' },
      ]);
      await importJobs(url, [{ id: 'J-1', completed: '2026-03-01', customer: 'Robert Smith' }]);
      expect(await method(url, 'same-day')).toBe('job');
      expect(await method(url, 'day-60')).toBe('job');
      expect(await method(url, 'before')).toBeNull();
      expect(await method(url, 'day-61')).toBeNull();
      expect(await method(url, 'other-initial')).toBeNull();
      expect((await status(url, 'first-only')).match).toMatchObject({ state: 'unnamed' });
    });

    it('holds a whole last name to the job’s where both give one, and an initial to any', async () => {
      const url = await storeWith([
        { id: 'full', date: '2026-03-10', author: 'Robert Smith' },
        { id: 'initial', date: '2026-03-10', author: 'Robert S.' },
      ]);
      await importJobs(url, [
        { id: 'J-1', completed: '2026-03-01', customer: 'Robert Smith' },
        { id: 'J-2', completed: '2026-03-05', customer: 'Robert Stone' },
      ]);
      expect(await method(url, 'full')).toBe('job');
      expect(await status(url, 'initial')).toMatchObject({
        state: 'unpublished',
        match: { state: 'ambiguous', candidates: ['2026-03-01', '2026-03-05'] },
      });
    });

    it('takes two visits to one customer for one customer, and "Last, First" for a name', async () => {
      const url = await storeWith([
        { id: 'repeat', date: '2026-03-20', author: 'Uma W.' },
        { id: 'namesakes', date: '2026-03-20', author: 'Vic W.' },
        { id: 'comma', date: '2026-03-20', author: 'Wes Young' },
      ]);
      await importJobs(url, [
        { id: 'J-30', completed: '2026-03-01', customer: 'Uma Webb', phone: '(602) 555-0130' },
        { id: 'J-31', completed: '2026-03-15', customer: 'Uma Webb', phone: '+1 602 555 0130' },
        { id: 'J-32', completed: '2026-03-01', customer: 'Vic Webb', phone: '602-555-0132' },
        { id: 'J-33', completed: '2026-03-15', customer: 'Vic Webb', phone: '602-555-0133' },
        { id: 'J-34', completed: '2026-03-10', customer: 'Young, Wes' },
      ]);
      expect(await method(url, 'repeat')).toBe('job');
      expect(await status(url, 'namesakes')).toMatchObject({
        match: { state: 'ambiguous', candidates: ['2026-03-01', '2026-03-15'] },
      });
      expect(await method(url, 'comma')).toBe('job');
    });

    it('reads a nickname as the name it stands for, and folds case and accents', async () => {
      const url = await storeWith([
        { id: 'bob', date: '2026-03-10', author: 'bob s.' },
        { id: 'zoe', date: '2026-03-10', author: 'Zoe Nunez' },
      ]);
      await importJobs(url, [
        { id: 'J-1', completed: '2026-03-01', customer: 'ROBERT SMITH' },
        { id: 'J-2', completed: '2026-03-02', customer: 'Zoë Núñez' },
      ]);
      expect(await method(url, 'bob')).toBe('job');
      expect(await method(url, 'zoe')).toBe('job');
    });

    it('verifies nothing when two jobs fit, and lists the review with the jobs’ dates only', async () => {
      const url = await storeWith([{ id: 'dana', date: '2026-03-20', author: 'Dana K.' }]);
      await importJobs(url, [
        {
          id: 'J-7',
          completed: '2026-03-01',
          customer: 'Dana Kim',
          email: 'dana.kim@example.test',
          phone: '602-555-0107',
        },
        { id: 'J-8', completed: '2026-03-10', customer: 'Dana Kline', email: 'dkline@example.test' },
      ]);
      expect(await status(url, 'dana')).toMatchObject({
        state: 'unpublished',
        verification: null,
        match: { state: 'ambiguous', candidates: ['2026-03-01', '2026-03-10'] },
      });
      const listed = await runCli(['unmatched', '--json'], url);
      expect(listed.code, listed.stderr).toBe(0);
      const unmatched = JSON.parse(listed.stdout) as {
        total: number;
        reviews: { id: string; state: string; candidates: string[] }[];
      };
      expect(unmatched.total).toBe(1);
      expect(unmatched.reviews[0]).toMatchObject({
        id: 'dana',
        state: 'ambiguous',
        candidates: ['2026-03-01', '2026-03-10'],
      });
      const text = await runCli(['unmatched'], url);
      for (const output of [listed.stdout, text.stdout]) {
        for (const secret of ['J-7', 'J-8', 'dana.kim', 'dkline', '555-0107', 'Kim', 'Kline'])
          expect(output).not.toContain(secret);
      }
      expect(text.stdout).toContain('2026-03-01, 2026-03-10');
    });

    it('publishes a review that waited once its job arrives, and leaves one with no job unpublished', async () => {
      const url = await storeWith([
        { id: 'waits', date: '2026-03-03', author: 'Ana Lopez' },
        { id: 'no-job', date: '2026-03-03', author: 'Carl Jones' },
      ]);
      expect((await status(url, 'waits')).state).toBe('unpublished');
      const listed = JSON.parse((await runCli(['unmatched', '--json'], url)).stdout) as { total: number };
      expect(listed.total).toBe(2);
      const imported = await importJobs(url, [
        { id: 'J-3', completed: '2026-03-02T20:00:00-07:00', customer: 'Ana López' },
      ]);
      expect(imported.match.verified).toBe(1);
      expect(await status(url, 'waits')).toMatchObject({ state: 'published', verification: { method: 'job' } });
      expect(await status(url, 'no-job')).toMatchObject({ state: 'unpublished', match: { state: 'none' } });
    });

    it('matches a review imported after its job at that import', async () => {
      const url = await storeWith([]);
      await importJobs(url, [{ id: 'J-4', completed: '2026-03-01', customer: 'Eve Adams' }]);
      const later = writeJson(join(dir.path, 'later.json'), {
        reviews: [{ id: 'late', date: '2026-03-09', rating: 3, text: 'Fine.', author: 'Eve A.', language: 'en' }],
      });
      const result = await runCli(['import', later, '--json'], url);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ added: 1, match: { verified: 1 } });
      expect(await method(url, 'late')).toBe('job');
    });

    it('treats a one-star and a five-star review alike', async () => {
      const url = await storeWith([
        { id: 'one', date: '2026-03-05', author: 'Gia Park', rating: 1, text: 'Awful, rude and late. Never again.' },
        {
          id: 'five',
          date: '2026-03-05',
          author: 'Hal Park',
          rating: 5,
          text: 'Wonderful, kind and on time. Thank you!',
        },
        { id: 'one-alone', date: '2026-03-05', author: 'Ivy Stone', rating: 1, text: 'Awful.' },
        { id: 'five-alone', date: '2026-03-05', author: 'Jon Stone', rating: 5, text: 'Wonderful.' },
      ]);
      await importJobs(url, [
        { id: 'J-5', completed: '2026-03-01', customer: 'Gia Park' },
        { id: 'J-6', completed: '2026-03-01', customer: 'Hal Park' },
      ]);
      expect(await status(url, 'one')).toMatchObject({ state: 'published', verification: { method: 'job' } });
      expect(await status(url, 'five')).toMatchObject({ state: 'published', verification: { method: 'job' } });
      expect(await status(url, 'one-alone')).toMatchObject({ state: 'unpublished', match: { state: 'none' } });
      expect(await status(url, 'five-alone')).toMatchObject({ state: 'unpublished', match: { state: 'none' } });
    });

    it('lets the operator decide what the ledger cannot, and the operator’s unverify outlasts a match', async () => {
      const url = await storeWith([
        { id: 'cash', date: '2026-03-05', author: 'Kim Cash' },
        { id: 'doubt', date: '2026-03-05', author: 'Lee Doubt' },
        { id: 'vouched', date: '2026-03-05', author: 'Max Word', verified: true },
      ]);
      await importJobs(url, [
        { id: 'J-9', completed: '2026-03-01', customer: 'Lee Doubt' },
        { id: 'J-10', completed: '2026-03-01', customer: 'Max Word' },
      ]);
      expect(await method(url, 'doubt')).toBe('job');
      // A record of the service's own format that says "verified" is the operator's word, not the ledger's.
      expect(await method(url, 'vouched')).toBe('operator');
      expect((await runCli(['verify', 'cash', '--reason', 'paid in cash, no job record'], url)).code).toBe(0);
      expect((await runCli(['unverify', 'doubt', '--reason', 'the customer says it is not theirs'], url)).code).toBe(0);
      await importJobs(url, [
        { id: 'J-11', completed: '2026-03-02', customer: 'Kim Cash' },
        { id: 'J-9', completed: '2026-03-01', customer: 'Lee Doubt' },
      ]);
      expect(await status(url, 'cash')).toMatchObject({
        state: 'published',
        verification: { method: 'operator' },
        decided: true,
      });
      expect(await status(url, 'doubt')).toMatchObject({ state: 'unpublished', verification: null, decided: true });
    });

    it('takes a job its system no longer has as completed out of the ledger, and its review with it', async () => {
      const url = await storeWith([{ id: 'r', date: '2026-03-05', author: 'Yara Quist' }]);
      const job = (status: string) => ({
        id: 'job_cancelled_later',
        customer: { first_name: 'Yara', last_name: 'Quist' },
        work_status: status,
        work_timestamps: status === 'user canceled' ? {} : { completed_at: '2026-03-01T18:00:00Z' },
        address: { city: 'Tempe' },
      });
      const hcp = (status: string) =>
        writeJson(join(dir.path, `hcp-${++files}.json`), { jobs: [job(status)], page: 1, total_pages: 1 });
      const first = await runCli(['import-jobs', '--from', 'housecallpro', hcp('complete rated'), '--json'], url);
      expect(first.code, first.stderr).toBe(0);
      expect(await method(url, 'r')).toBe('job');
      const again = await runCli(['import-jobs', '--from', 'housecallpro', hcp('user canceled'), '--json'], url);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({
        removed: 1,
        skipped: 1,
        match: { unverified: 1 },
        stored: { jobs: 0 },
      });
      expect(await status(url, 'r')).toMatchObject({ state: 'unpublished', match: { state: 'none' } });
    });

    it('matches again with a new window, and a job import of the same file changes nothing', async () => {
      const url = await storeWith([{ id: 'day-30', date: '2026-03-31', author: 'Nia Brook' }]);
      const first = await importJobs(url, [{ id: 'J-12', completed: '2026-03-01', customer: 'Nia Brook' }]);
      expect(await method(url, 'day-30')).toBe('job');
      const again = await importJobs(url, [{ id: 'J-12', completed: '2026-03-01', customer: 'Nia Brook' }]);
      expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 1, match: { verified: 0, unverified: 0 } });
      expect(again.version).toEqual(first.version);
      const narrower = await importJobs(url, [{ id: 'J-12', completed: '2026-03-01', customer: 'Nia Brook' }], {
        VERIFY_WINDOW_DAYS: '10',
      });
      expect(narrower.match.unverified).toBe(1);
      expect(await method(url, 'day-30')).toBeNull();
    });

    it('refuses a file with an invalid job, naming the place and field, and changes nothing', async () => {
      const url = await storeWith([{ id: 'r', date: '2026-03-05', author: 'Ola Tran' }]);
      const file = jobsCsv([
        { id: 'J-13', completed: '2026-03-01', customer: 'Ola Tran' },
        { id: 'J-14', completed: '2026-02-30', customer: 'Pia Tran', email: 'pia.private@example.test' },
        { id: 'J-15', completed: '2026-03-01', customer: 'Quin Tran', services: 'not-a-service' },
      ]);
      const result = await runCli(['import-jobs', file], url);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${file}: line 3: completed:`);
      expect(result.stderr).toContain(`${file}: line 4: services.0:`);
      expect(result.stderr).toContain('nothing was changed');
      expect(result.stderr).not.toContain('pia.private');
      expect(await method(url, 'r')).toBeNull();
      // A file without its header row: the first job's cells would be the columns; they are counted, not printed.
      const headless = join(dir.path, 'headless.csv');
      writeFileSync(headless, 'J-16,2026-03-01,Ria Private,ria.private@example.test,602-555-0116,,,\n');
      const refused = await runCli(['import-jobs', headless], url);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/is the header row missing/);
      for (const secret of ['J-16', 'Ria', 'ria.private', '555-0116']) expect(refused.stderr).not.toContain(secret);
      const skipped = await runCli(['import-jobs', file, '--skip-invalid', '--json'], url);
      expect(skipped.code, skipped.stderr).toBe(0);
      expect(JSON.parse(skipped.stdout)).toMatchObject({ added: 1, rejected: 2 });
      expect(await method(url, 'r')).toBe('job');
    });
  });

describe('saying it in public', () => {
  interface Dataset {
    verification: {
      rule: string;
      received: number;
      published: number;
      unmatched: number;
      removed: number;
      bySource: Record<string, { received: number; published: number }>;
    };
    reviews: {
      id: string;
      technicians: string[];
      services: string[];
      serviceArea?: string;
      verification: { method: string; date: string; fromJob?: string[] };
    }[];
  }

  it('publishes counts equal to what the store holds, step after step, and what reviews take from their jobs', async () => {
    const path = join(dir.path, 'public.db');
    const url = `sqlite:${path}`;
    const server = await startServer(path);
    try {
      const read = async () => (await (await fetch(`${server.url}/reviews.json`)).json()) as Dataset;
      const served = (revision: number) =>
        until(
          () => server.app.publisher.current().snapshot.version.revision >= revision,
          10_000,
          `revision ${revision}`,
        );
      const revision = async () =>
        Number(
          (JSON.parse((await runCli(['status', '--json'], url)).stdout) as { store: { revision: number } }).store
            .revision,
        );
      const fromStore = () => {
        const db = openSqlite(path, { readonly: true });
        try {
          const count = (where: string) =>
            (db.prepare(`SELECT count(*) AS n FROM reviews WHERE ${where}`).get() as { n: number }).n;
          const bySource = db
            .prepare(
              `SELECT coalesce(source, 'own') AS s, count(*) AS n, sum(published) AS p FROM reviews WHERE withdrawn_at IS NULL GROUP BY 1`,
            )
            .all() as { s: string; n: number; p: number }[];
          return {
            received: count('withdrawn_at IS NULL'),
            published: count('published = 1'),
            unmatched: count('published = 0 AND removed_at IS NULL AND withdrawn_at IS NULL'),
            removed: count('removed_at IS NOT NULL'),
            bySource: Object.fromEntries(bySource.map((r) => [r.s, { received: r.n, published: r.p }])),
          };
        } finally {
          db.close();
        }
      };
      const check = async () => {
        await served(await revision());
        const { verification } = await read();
        expect(verification).toMatchObject(fromStore());
        expect(verification.rule).toMatch(/completed job/);
        return verification;
      };

      const reviews = writeJson(join(dir.path, 'public-reviews.json'), {
        business,
        reviews: [
          { id: 'a', date: '2026-03-05', rating: 2, text: 'Slow.', author: 'Rae Hill', language: 'en' },
          {
            id: 'b',
            date: '2026-03-06',
            rating: 5,
            text: 'Great.',
            author: 'Sid Hill',
            language: 'en',
            technicians: ['Zoë Martínez'],
          },
          {
            id: 'c',
            date: '2026-03-07',
            rating: 4,
            text: 'Good.',
            author: 'Tia Hill',
            language: 'en',
            verified: true,
            source: 'facebook',
          },
        ],
      });
      expect((await runCli(['import', reviews], url)).code).toBe(0);
      expect(await check()).toMatchObject({ received: 3, published: 1, unmatched: 2 });
      await importJobs(url, [
        {
          id: 'J-20',
          completed: '2026-03-01',
          customer: 'Rae Hill',
          technicians: 'Zoe',
          services: 'AC Repair',
          area: 'Tempe',
        },
        { id: 'J-21', completed: '2026-03-02', customer: 'Sid Hill', technicians: 'Someone New', area: 'Phoenix' },
      ]);
      expect(await check()).toMatchObject({ received: 3, published: 3, unmatched: 0 });
      const dataset = await read();
      const a = dataset.reviews.find((r) => r.id === 'a')!;
      expect(a).toMatchObject({
        technicians: ['Zoë Martínez'],
        services: ['ac-repair'],
        serviceArea: 'Tempe',
        verification: { method: 'job', fromJob: ['technicians', 'services', 'serviceArea'] },
      });
      const b = dataset.reviews.find((r) => r.id === 'b')!;
      expect(b).toMatchObject({
        technicians: ['Zoë Martínez'],
        serviceArea: 'Phoenix',
        verification: { method: 'job', fromJob: ['serviceArea'] },
      });
      // The same rule and figures on the home page, the verification page, both feeds and MCP's get_business.
      const home = await (await fetch(`${server.url}/`)).text();
      expect(home).toContain('All 3 reviews received are verified and shown, whatever their rating.');
      expect(home).toContain('href="/verification"');
      const explained = await fetch(`${server.url}/verification`);
      expect(explained.status).toBe(200);
      expect(await explained.text()).toContain(dataset.verification.rule.replace(/'/g, '&#39;'));
      const feed = (await (await fetch(`${server.url}/api/feed.json`)).json()) as { description: string };
      expect(feed.description).toContain(dataset.verification.rule);
      expect(await (await fetch(`${server.url}/feed.xml`)).text()).toContain(`<subtitle type="text">`);
      expect((await runCli(['remove', 'c', '--reason', 'the customer asked'], url)).code).toBe(0);
      expect(await check()).toMatchObject({ received: 3, published: 2, removed: 1 });
      expect((await runCli(['unverify', 'a', '--reason', 'not theirs'], url)).code).toBe(0);
      expect(await check()).toMatchObject({ published: 1, unmatched: 1 });
      expect(await (await fetch(`${server.url}/`)).text()).toContain(
        'The one verified review of 3 received is shown, whatever its rating.',
      );
    } finally {
      await server.close();
    }
  });
});
