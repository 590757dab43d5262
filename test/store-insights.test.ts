// The store's derived data, through the Store interface alone: analyses, insights documents and build claims.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportedReview } from '../src/reviews/schemas.js';
import { openStore } from '../src/store/open.js';
import type { Store, StoredInsights } from '../src/store/types.js';
import { testEngines } from './support/engines.js';
import { importedReview } from './support/reviews.js';

const engines = testEngines('insights');

const review = (id: string, verified = true): ImportedReview => importedReview({ id, verified });
const doc = (engineVersion: string, asOf: string | null, generatedAt: string): StoredInsights => ({
  engineVersion,
  asOf,
  generatedAt,
  lastModified: asOf ?? generatedAt,
  reviewCount: 1,
  document: JSON.stringify({ engineVersion, asOf, generatedAt }),
  compressed: null,
});
const T = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();

for (const { name, available, url } of engines)
  describe.skipIf(!available)(`${name} insights store`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await openStore(await url());
    });
    afterEach(async () => {
      await store.close();
    });

    it('stores analyses, replaces them by review, and drops those it is told are gone', async () => {
      await store.insights.writeAnalyses(
        [
          { reviewId: 'a', inputKey: 'k1', analysis: '{"a":1}' },
          { reviewId: 'b', inputKey: 'k1', analysis: '{"b":1}' },
        ],
        [],
        T(1),
      );
      await store.insights.writeAnalyses([{ reviewId: 'a', inputKey: 'k2', analysis: '{"a":2}' }], [], T(2));
      expect(await store.insights.readAnalyses(['a'])).toEqual([
        { reviewId: 'a', inputKey: 'k2', analysis: '{"a":2}' },
      ]);
      await store.insights.writeAnalyses([], ['b', 'never-stored'], T(3));
      expect((await store.insights.readAnalyses()).map((a) => a.reviewId)).toEqual(['a']);
    });

    it('reads analyses by id in batches larger than one statement takes', async () => {
      const ids = Array.from({ length: 1200 }, (_, i) => `r${i}`);
      await store.applyImport({ reviews: ids.map((id) => review(id)), replace: false });
      await store.insights.writeAnalyses(
        ids.map((id) => ({ reviewId: id, inputKey: 'k', analysis: '{}' })),
        [],
        T(1),
      );
      await store.insights.writeAnalyses([], ids.slice(0, 600), T(2));
      expect((await store.insights.readAnalyses()).length).toBe(600);
      expect((await store.insights.readAnalyses(ids.slice(100, 1150))).length).toBe(550);
    });

    // More rows than a call's arguments can hold (a first build of 300,000 reviews read them all back).
    it('reads back every analysis of a store of 300,000', async () => {
      const analyses = Array.from({ length: 300_000 }, (_, i) => ({
        reviewId: `r${i}`,
        inputKey: 'k',
        analysis: '{}',
      }));
      await store.insights.writeAnalyses(analyses, [], T(1));
      expect((await store.insights.readAnalyses()).length).toBe(300_000);
    }, 120_000);

    it('keeps only the newest document, refuses one about older data, and serves the latest of any engine', async () => {
      expect(await store.insights.latestDocument()).toBeUndefined();
      expect(await store.insights.hasDocumentAbout(T(10))).toBe(false);
      expect(await store.insights.saveDocument(doc('e1', T(10), T(11)))).toBe(true);
      expect(await store.insights.saveDocument(doc('e1', T(20), T(21)))).toBe(true);
      expect(await store.insights.findDocument('e1', T(10))).toBeUndefined();
      expect(await store.insights.hasDocumentAbout(T(10))).toBe(false);
      expect(await store.insights.hasDocumentAbout(T(20))).toBe(true);
      expect(await store.insights.saveDocument(doc('e1', T(10), T(30)))).toBe(false);
      // A new engine's document about the same data replaces the old engine's.
      expect(await store.insights.saveDocument(doc('e2', T(20), T(31)))).toBe(true);
      expect(await store.insights.findDocument('e1', T(20))).toBeUndefined();
      expect(await store.insights.latestDocument()).toEqual(doc('e2', T(20), T(31)));
    });

    it('keeps the compressed copies byte for byte', async () => {
      const compressed = { gzip: Buffer.from([31, 139, 0, 1, 2]), br: Buffer.from([11, 255, 0]) };
      await store.insights.saveDocument({ ...doc('e1', T(1), T(2)), compressed });
      const found = await store.insights.findDocument('e1', T(1));
      expect(Buffer.from(found!.compressed!.gzip)).toEqual(compressed.gzip);
      expect(Buffer.from(found!.compressed!.br)).toEqual(compressed.br);
    });

    it('keeps a never-published store apart: its document has no asOf', async () => {
      expect(await store.insights.saveDocument(doc('e1', null, T(1)))).toBe(true);
      expect(await store.insights.findDocument('e1', null)).toEqual(doc('e1', null, T(1)));
      expect(await store.insights.saveDocument(doc('e1', T(5), T(6)))).toBe(true);
      expect(await store.insights.findDocument('e1', null)).toBeUndefined();
    });

    it('gives a build to one owner at a time, renews it for that owner, and hands it over once it lapses or is released', async () => {
      expect(await store.insights.claimBuild('k', 'one', T(0), T(60))).toBe(true);
      expect(await store.insights.claimBuild('k', 'two', T(1), T(61))).toBe(false);
      expect(await store.insights.claimBuild('k', 'one', T(2), T(90))).toBe(true);
      expect(await store.insights.claimBuild('k', 'two', T(70), T(130))).toBe(false);
      expect(await store.insights.claimBuild('k', 'two', T(90), T(150))).toBe(true);
      await store.insights.releaseBuild('k', 'one');
      expect(await store.insights.claimBuild('k', 'one', T(91), T(151))).toBe(false);
      await store.insights.releaseBuild('k', 'two');
      expect(await store.insights.claimBuild('k', 'one', T(92), T(152))).toBe(true);
      expect(await store.insights.claimBuild('other', 'two', T(92), T(152))).toBe(true);
    });
  });
