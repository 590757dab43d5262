// The import CLI on SQLite and on PostgreSQL: every format, all-or-nothing validation naming each bad record, --replace, --skip-invalid, 100k reviews.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { openStore } from '../src/store/open.js';
import type { PublishedData } from '../src/reviews/published.js';
import type { ImportedReview } from '../src/reviews/schemas.js';
import { testEngines, type TestEngine } from './support/engines.js';
import { importedReview } from './support/reviews.js';
import { runCli, tempDir, writeJson } from './support/server.js';

const dir = tempDir();
afterAll(() => dir.remove());

const business = {
  name: 'Test Heating & Air',
  areaServed: ['Northside', 'Southside'],
  services: [
    { id: 'ac-repair', name: 'AC Repair', category: 'cooling' },
    { id: 'drain-cleaning', name: 'Drain Cleaning', category: 'plumbing' },
  ],
  technicians: [{ name: 'Zoë Martínez' }, { name: 'Sam Lee' }],
};

const review = (id: string, extra: Partial<ImportedReview> = {}): ImportedReview =>
  importedReview({
    id,
    date: '2025-03-01',
    rating: 5,
    text: `Review ${id}: fixed the AC quickly.`,
    author: 'Pat Q.',
    technicians: ['Sam Lee'],
    services: ['ac-repair'],
    ...extra,
  });

const engines = testEngines('import');
/** The engine of the tests running now (set by each engine's block), and the new database of each test. */
let engine: TestEngine = engines[0]!;
let db: string;
beforeEach(async () => {
  db = await engine.url();
});

async function published(databaseUrl: string): Promise<PublishedData> {
  const store = await openStore(databaseUrl);
  try {
    return await store.readPublished();
  } finally {
    await store.close();
  }
}

function summaryOf(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
}

for (const each of engines)
  describe.skipIf(!each.available)(each.name, () => {
    beforeAll(() => {
      engine = each;
    });

    describe('import formats', () => {
      it('imports a JSON document with its business and publishes only verified reviews', async () => {
        const file = writeJson(`${dir.path}/doc.json`, {
          business,
          reviews: [review('a'), review('b', { verified: false }), review('c', { date: '2025-04-01' })],
        });
        const result = await runCli(['import', file, '--json'], db);
        expect(result.code, result.stderr).toBe(0);
        expect(summaryOf(result.stdout)).toMatchObject({
          format: 'json',
          added: 3,
          updated: 0,
          removed: 0,
          rejected: 0,
          stored: { verified: 2, unverified: 1 },
        });
        const data = await published(db);
        expect(data.business?.name).toBe('Test Heating & Air');
        expect(data.reviews.map((r) => r.id)).toEqual(['c', 'a']);
      });

      it('treats a record without "verified": true as unverified', async () => {
        const { verified: _v, ...withoutFlag } = review('x');
        const file = writeJson(`${dir.path}/unflagged.json`, { reviews: [withoutFlag] });
        const result = await runCli(['import', file, '--json'], db);
        expect(summaryOf(result.stdout)).toMatchObject({ stored: { verified: 0, unverified: 1 } });
        expect((await published(db)).reviews).toEqual([]);
      });

      it('imports NDJSON, one review a line', async () => {
        const file = `${dir.path}/reviews.ndjson`;
        writeFileSync(
          file,
          `${[review('n1'), review('n2'), review('n3')].map((r) => JSON.stringify(r)).join('\n')}\n\n`,
        );
        const result = await runCli(['import', file, '--json'], db);
        expect(result.code, result.stderr).toBe(0);
        expect(summaryOf(result.stdout)).toMatchObject({ format: 'ndjson', added: 3 });
      });

      it('imports CSV with quoted text, ;-separated lists and the owner response columns', async () => {
        const file = `${dir.path}/reviews.csv`;
        writeFileSync(
          file,
          [
            'id,date,rating,text,author,technicians,services,serviceArea,source,title,responseDate,responseText,verified',
            'c1,2025-01-05,4,"Good job, ""really"" good.\nSecond line.",Ann B.,Zoë Martínez;Sam Lee,ac-repair;drain-cleaning,Northside,google,Solid,2025-01-06,Thanks Ann!,true',
            'c2,2025-01-04,2,Late.,Bo C.,,,,,,,,false',
          ].join('\n'),
        );
        const result = await runCli(['import', file, '--json'], db);
        expect(result.code, result.stderr).toBe(0);
        expect(summaryOf(result.stdout)).toMatchObject({
          format: 'csv',
          added: 2,
          stored: { verified: 1, unverified: 1 },
        });
        const [c1] = (await published(db)).reviews;
        expect(c1).toMatchObject({
          id: 'c1',
          rating: 4,
          text: 'Good job, "really" good.\nSecond line.',
          technicians: ['Zoë Martínez', 'Sam Lee'],
          services: ['ac-repair', 'drain-cleaning'],
          serviceArea: 'Northside',
          source: 'google',
          title: 'Solid',
          response: { date: '2025-01-06', text: 'Thanks Ann!' },
        });
      });
    });

    describe('validation', () => {
      it('names every invalid record with file, place, field and reason, and changes nothing', async () => {
        await runCli(['import', writeJson(`${dir.path}/base.json`, { business, reviews: [review('keep')] })], db);
        const before = await published(db);
        const file = writeJson(`${dir.path}/bad.json`, {
          reviews: [
            review('ok-1'),
            review('bad-rating', { rating: 6 }),
            review('bad-date', { date: '2025-02-30' }),
            review('ok-2'),
            review('bad-service', { services: ['teleportation'] }),
            review('ok-1'),
            { ...review('typo'), verifed: true },
          ],
        });
        const result = await runCli(['import', file], db);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`${file}: reviews[1]: rating:`);
        expect(result.stderr).toContain(`${file}: reviews[2]: date:`);
        expect(result.stderr).toMatch(/reviews\[4\]: services\.0: unknown service id "teleportation"/);
        expect(result.stderr).toMatch(/reviews\[5\]: id: duplicate id "ok-1", first at reviews\[0\]/);
        expect(result.stderr).toMatch(/reviews\[6\]: verifed: unknown field/);
        expect(result.stderr).toMatch(/5 of 7 records are invalid.*nothing was changed/);
        const after = await published(db);
        expect(after).toEqual(before);
      });

      it('names NDJSON and CSV problems by line', async () => {
        const nd = `${dir.path}/bad.ndjson`;
        writeFileSync(nd, `${JSON.stringify(review('a'))}\nnot json\n${JSON.stringify(review('b', { rating: 0 }))}\n`);
        const ndResult = await runCli(['import', nd], db);
        expect(ndResult.code).toBe(1);
        expect(ndResult.stderr).toContain(`${nd}: line 2: (json):`);
        expect(ndResult.stderr).toContain(`${nd}: line 3: rating:`);

        const csv = `${dir.path}/bad.csv`;
        writeFileSync(
          csv,
          'id,date,rating,text,author,verified\nc1,2025-01-01,five,Fine,Al,true\nc2,2025-01-01,5,Fine,Al,maybe\n',
        );
        const csvResult = await runCli(['import', csv], db);
        expect(csvResult.code).toBe(1);
        expect(csvResult.stderr).toContain(`${csv}: line 2: rating:`);
        expect(csvResult.stderr).toContain(`${csv}: line 3: verified:`);
        expect((await published(db)).reviews).toEqual([]);
      });

      it('rejects a malformed document and an invalid business as a whole', async () => {
        const broken = `${dir.path}/broken.json`;
        writeFileSync(broken, '{"reviews": [\n{"id": "a",}\n]}');
        const syntax = await runCli(['import', broken, '--skip-invalid'], db);
        expect(syntax.code).toBe(1);
        expect(syntax.stderr).toContain(`${broken}: line 2: (json):`);

        const badBusiness = writeJson(`${dir.path}/badbiz.json`, {
          business: { ...business, name: '' },
          reviews: [review('a')],
        });
        const biz = await runCli(['import', badBusiness, '--skip-invalid'], db);
        expect(biz.code).toBe(1);
        expect(biz.stderr).toContain('business: business.name:');
        expect((await published(db)).business).toBeNull();
      });

      it('with --skip-invalid imports the valid records and counts the rejected ones', async () => {
        const file = writeJson(`${dir.path}/mixed.json`, {
          business,
          reviews: [review('a'), review('b', { rating: 0 }), review('c')],
        });
        const result = await runCli(['import', file, '--skip-invalid', '--json'], db);
        expect(result.code, result.stderr).toBe(0);
        expect(summaryOf(result.stdout)).toMatchObject({ added: 2, rejected: 1 });
        expect(result.stderr).toContain('reviews[1]: rating:');
      });

      it('lists the first 100 problems, then a count; --all-problems lists every one', async () => {
        const file = writeJson(`${dir.path}/many-bad.json`, {
          business,
          reviews: Array.from({ length: 250 }, (_, i) => review(`bad-${i}`, { rating: 0 })),
        });
        const listedLines = (stderr: string) => stderr.split('\n').filter((l) => l.includes(': rating:')).length;
        const first = await runCli(['import', file], db);
        expect(first.code).toBe(1);
        expect(listedLines(first.stderr)).toBe(100);
        expect(first.stderr).toContain('… and 150 more problems not listed');
        expect(first.stderr).toContain('250 of 250 records are invalid');
        const all = await runCli(['import', file, '--all-problems'], db);
        expect(listedLines(all.stderr)).toBe(250);
        expect(all.stderr).not.toContain('more problems not listed');
      });

      it('fails clearly for a missing file', async () => {
        const result = await runCli(['import', `${dir.path}/nope.json`], db);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain('no such file');
      });
    });

    describe('upsert and --replace', () => {
      it('updates changed records, leaves identical ones alone and bumps nothing when nothing changed', async () => {
        await runCli(
          ['import', writeJson(`${dir.path}/v1.json`, { business, reviews: [review('a'), review('b')] })],
          db,
        );
        const v1 = await published(db);
        const again = await runCli(['import', `${dir.path}/v1.json`, '--json'], db);
        expect(summaryOf(again.stdout)).toMatchObject({ added: 0, updated: 0, unchanged: 2, businessChanged: false });
        expect((await published(db)).version).toEqual(v1.version);

        const v2 = writeJson(`${dir.path}/v2.json`, { reviews: [review('a', { rating: 3 }), review('c')] });
        const result = await runCli(['import', v2, '--json'], db);
        expect(summaryOf(result.stdout)).toMatchObject({ added: 1, updated: 1, unchanged: 0, removed: 0 });
        const data = await published(db);
        expect(data.reviews.map((r) => [r.id, r.rating])).toEqual([
          ['c', 5],
          ['b', 5],
          ['a', 3],
        ]);
        expect(data.business?.name).toBe(business.name);
        expect(data.version.revision).toBe(v1.version.revision + 1);
      });

      it('--replace makes the store equal the file', async () => {
        await runCli(
          ['import', writeJson(`${dir.path}/r1.json`, { business, reviews: [review('a'), review('b'), review('c')] })],
          db,
        );
        const result = await runCli(
          ['import', writeJson(`${dir.path}/r2.json`, { reviews: [review('b')] }), '--replace', '--json'],
          db,
        );
        expect(summaryOf(result.stdout)).toMatchObject({ added: 0, unchanged: 1, removed: 2 });
        expect((await published(db)).reviews.map((r) => r.id)).toEqual(['b']);
      });

      it('--replace --skip-invalid keeps the stored version of a record whose new version was rejected', async () => {
        await runCli(
          ['import', writeJson(`${dir.path}/k1.json`, { business, reviews: [review('a'), review('b')] })],
          db,
        );
        const file = writeJson(`${dir.path}/k2.json`, { reviews: [review('a', { rating: 9 })] });
        const result = await runCli(['import', file, '--replace', '--skip-invalid', '--json'], db);
        expect(summaryOf(result.stdout)).toMatchObject({ removed: 1, rejected: 1 });
        expect((await published(db)).reviews.map((r) => [r.id, r.rating])).toEqual([['a', 5]]);
      });
    });

    describe('scale', () => {
      it('imports 100,000 reviews with progress lines', async () => {
        const file = `${dir.path}/demo-100k.json`;
        const demo = await runCli(['demo', '--reviews', '100000', '--out', file], db);
        expect(demo.code, demo.stderr).toBe(0);
        const expectedVerified = (
          JSON.parse(readFileSync(file, 'utf8')) as ReturnType<typeof generateDemo>
        ).reviews.filter((r) => r.verified).length;
        const result = await runCli(['import', file, '--json'], db);
        expect(result.code, result.stderr).toBe(0);
        expect(summaryOf(result.stdout)).toMatchObject({
          added: 100000,
          rejected: 0,
          stored: { verified: expectedVerified, unverified: 100000 - expectedVerified },
        });
        expect(result.stderr).toMatch(/validated [\d.]+\/[\d.]+ MB \(\d+%\)/);
        expect(result.stderr).toMatch(/written 100,000\/100,000 \(100%\)/);
        expect((await published(db)).reviews).toHaveLength(expectedVerified);
      }, 180_000);
    });
  });
