// The import reads its file as a stream: the JSON document scanner against JSON.parse at every chunk size, its
// syntax errors by line; a business after the reviews; duplicates far apart; a broken CSV; and memory that does not
// grow with the file (the whole file was once held: 969 MB of RSS for a 200 MB file).
import { openSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { JsonDocumentSplitter, type RawRecord, type SourceItem } from '../src/import/own-source.js';
import type { ImportedReview } from '../src/reviews/schemas.js';
import { openStore } from '../src/store/open.js';
import { importedReview } from './support/reviews.js';
import { runCli, tempDir, writeJson } from './support/server.js';

const dir = tempDir();
afterAll(() => dir.remove());
let stores = 0;
const newStore = () => `sqlite:${dir.path}/stream-${++stores}.db`;

function split(text: string, chunkSize: number): SourceItem[] {
  const splitter = new JsonDocumentSplitter();
  const items: SourceItem[] = [];
  for (let i = 0; i < text.length && !splitter.failed; i += chunkSize) {
    splitter.push(text.slice(i, i + chunkSize));
    items.push(...splitter.take());
  }
  splitter.end();
  items.push(...splitter.take());
  return items;
}

const recordsOf = (items: SourceItem[]): RawRecord[] => items.flatMap((i) => (i.kind === 'records' ? i.records : []));
const problemsOf = (items: SourceItem[]) => items.filter((i) => i.kind === 'problem');

describe('the JSON document scanner', () => {
  const document = {
    reviews: [
      { id: 'a', text: 'quote " and backslash \\ and } ] { [ inside', n: [1, [2, { x: '\\"' }]] },
      { id: 'b', text: 'Zoë — café ☃ 𝄞', nested: { deep: [[[[]]]] } },
      42,
      'a string review',
      null,
      true,
      -1.5e3,
      [],
    ],
    business: { name: 'After the reviews', services: [] },
  };
  const pretty = JSON.stringify(document, null, 2);
  const compact = JSON.stringify(document);

  it('gives every element and the business exactly as JSON.parse does, whatever the chunk size', () => {
    for (const text of [pretty, compact]) {
      for (let size = 1; size <= 64; size++) {
        const items = split(text, size);
        expect(problemsOf(items), `chunk ${size}`).toEqual([]);
        expect(recordsOf(items).map((r) => r.value)).toEqual(document.reviews);
        expect(recordsOf(items).map((r) => r.location)).toEqual(document.reviews.map((_, i) => `reviews[${i}]`));
        expect(items.filter((i) => i.kind === 'business')).toEqual([{ kind: 'business', value: document.business }]);
      }
    }
  });

  it('reads a bare array of reviews', () => {
    const items = split(JSON.stringify([{ id: 'x' }, { id: 'y' }]), 3);
    expect(recordsOf(items).map((r) => r.value)).toEqual([{ id: 'x' }, { id: 'y' }]);
    expect(problemsOf(items)).toEqual([]);
  });

  it.each([
    ['a trailing comma in the array', '{"reviews": [\n{"id": "a"},\n]}', 'line 3'],
    ['a trailing comma in a review', '{"reviews": [\n{"id": "a",}\n]}', 'line 2'],
    ['text after the document', '{"reviews": []}\n\nmore', 'line 3'],
    ['a cut-off document', '{"reviews": [\n{"id": "a"}', 'line 2'],
    ['a missing colon', '{"reviews" []}', 'line 1'],
    ['a bare word', '{"reviews": [\n\nnope]}', 'line 3'],
  ])('names the line of %s', (_, text, line) => {
    for (const size of [1, 7, 1000]) {
      const problems = problemsOf(split(text, size));
      expect(problems, `chunk ${size}`).toHaveLength(1);
      expect(problems[0]).toMatchObject({ location: line, field: '(json)' });
    }
  });

  it('refuses what is not a document of reviews, and names unknown or repeated fields', () => {
    expect(problemsOf(split('', 4))).toMatchObject([{ location: 'the document', reason: 'the file is empty' }]);
    expect(problemsOf(split('"just a string"', 4))).toMatchObject([{ location: 'the document', field: 'reviews' }]);
    expect(problemsOf(split('{"business": {}}', 4))).toMatchObject([{ location: 'the document', field: 'reviews' }]);
    expect(problemsOf(split('{"reviews": {"id": "a"}}', 4))).toMatchObject([
      { location: 'the document', field: 'reviews' },
    ]);
    expect(problemsOf(split('{"reviews": [], "extra": [1, 2], "reviews": []}', 5))).toMatchObject([
      { location: 'the document', field: 'extra', reason: 'unknown field' },
      { location: 'the document', field: 'reviews', reason: 'given twice' },
    ]);
  });
});

const business = {
  name: 'Stream Plumbing',
  services: [
    { id: 'drain-cleaning', name: 'Drain Cleaning', category: 'plumbing' },
    { id: 'water-heater', name: 'Water Heater', category: 'plumbing' },
  ],
  technicians: [{ name: 'Sam Lee' }],
};
const review = (id: string, extra: Partial<ImportedReview> = {}): ImportedReview =>
  importedReview({
    id,
    date: '2025-03-01',
    text: `Review ${id}.`,
    author: 'Pat Q.',
    services: ['drain-cleaning'],
    ...extra,
  });

describe('importing a stream', () => {
  it('checks services against a business that comes after the reviews', async () => {
    const file = `${dir.path}/late-business.json`;
    writeFileSync(
      file,
      `{"reviews": ${JSON.stringify([review('a'), review('b', { services: ['roofing'] }), review('c', { services: ['water-heater'] })])}, "business": ${JSON.stringify(business)}}`,
    );
    const db = newStore();
    const refused = await runCli(['import', file], db);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${file}: reviews[1]: services.0: unknown service id "roofing"`);
    expect(refused.stderr).toContain('1 of 3 records are invalid');

    const skipped = await runCli(['import', file, '--skip-invalid', '--json'], db);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ added: 2, rejected: 1, businessChanged: true });
  });

  it('finds a duplicate id thousands of records apart, naming where it was first', async () => {
    const reviews = Array.from({ length: 3000 }, (_, i) => review(`r${i}`));
    reviews[2999] = review('r5');
    const file = `${dir.path}/dupes.ndjson`;
    writeFileSync(file, reviews.map((r) => JSON.stringify(r)).join('\n'));
    const result = await runCli(['import', file], newStore());
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}: line 3000: id: duplicate id "r5", first at line 6`);
    expect(result.stderr).toContain('1 of 3,000 records are invalid');
  });

  it('refuses a CSV file broken part-way, changing nothing', async () => {
    const db = newStore();
    const rows = Array.from({ length: 2500 }, (_, i) => `r${i},2025-03-01,5,Fine work,Pat,,,,,,,,true`);
    rows.splice(2000, 0, 'bad,2025-03-01,5,"an unclosed quote,Pat,,,,,,,,true');
    const file = `${dir.path}/broken.csv`;
    writeFileSync(
      file,
      [
        'id,date,rating,text,author,technicians,services,serviceArea,source,title,responseDate,responseText,verified',
        ...rows,
      ].join('\n'),
    );
    const result = await runCli(['import', file, '--skip-invalid'], db);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`${file}: the document: \\(csv\\): `));
    const store = await openStore(db);
    try {
      expect((await store.readPublished()).reviews).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('imports 200,000 reviews of NDJSON (95 MB) in the memory it takes for 40,000 (19 MB), give or take a little', async () => {
    const demo = generateDemo({ seed: 8, reviews: 200_000 });
    const preload = `${dir.path}/peak.cjs`;
    // The CLI reports its own peak resident memory as it exits.
    writeFileSync(
      preload,
      "process.on('exit', () => require('node:fs').writeSync(2, `peak-rss-kb ${process.resourceUsage().maxRSS}\\n`));",
    );
    const peakMb = async (count: number) => {
      const file = `${dir.path}/reviews-${count}.ndjson`;
      const fd = openSync(file, 'w');
      for (let i = 0; i < count; i += 10_000)
        writeSync(
          fd,
          `${demo.reviews
            .slice(i, Math.min(count, i + 10_000))
            .map((r) => JSON.stringify(r))
            .join('\n')}\n`,
        );
      closeSync(fd);
      const db = newStore();
      expect(
        (await runCli(['import', writeJson(`${dir.path}/business.json`, { business: demo.business, reviews: [] })], db))
          .code,
      ).toBe(0);
      // The young generation capped alike in both runs: left to itself it grows with a run's length and allocation
      // rate (Node 24 more than Node 20), which once made the larger run's peak 200 MB higher with the same code.
      const result = await runCli(['import', file, '--json'], db, {
        NODE_OPTIONS: `--require ${preload} --max-semi-space-size=8`,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ added: count, rejected: 0 });
      return Number(/peak-rss-kb (\d+)/.exec(result.stderr)![1]) / 1024;
    };
    const small = await peakMb(40_000);
    const large = await peakMb(200_000);
    // Held whole, the five times larger file took some 550 MB more (305 → 856 MB); streamed, about 65 MB more
    // (236 → 302 MB on Node 20, 413 → 476 MB on Node 24, whose collector lets the heap grow further).
    expect(
      large - small,
      `peak ${small.toFixed(0)} MB for 40,000 reviews, ${large.toFixed(0)} MB for 200,000`,
    ).toBeLessThan(200);
  }, 180_000);
});
