// The Store contract, run against every engine through the Store interface alone.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReviewSet } from '../src/reviews/review-set.js';
import type { ImportedReview } from '../src/reviews/schemas.js';
import { openStore } from '../src/store/open.js';
import type { Store } from '../src/store/types.js';
import { testEngines } from './support/engines.js';
import { importedReview } from './support/reviews.js';
import { sleep } from './support/wait.js';

const engines = testEngines('contract');

const review = (id: string, extra: Partial<ImportedReview> = {}): ImportedReview => importedReview({ id, ...extra });
const business = { name: 'Contract Co', areaServed: [], services: [], technicians: [] };

for (const { name, available, url } of engines)
  describe.skipIf(!available)(`${name} store`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await openStore(await url());
    });
    afterEach(async () => {
      await store.close();
    });

    it('starts empty at revision 0 with nothing published', async () => {
      expect(await store.readPublished()).toEqual({
        version: { revision: 0, publishedAt: null },
        business: null,
        verification: { windowDays: 60, bySource: {} },
        reviews: [],
      });
      expect((await store.currentVersion()).revision).toBe(0);
      expect(await store.readBusiness()).toBeNull();
    });

    it('publishes verified reviews only, newest first by date then id, with every field', async () => {
      await store.applyImport({
        business,
        replace: false,
        reviews: [
          review('b', { date: '2025-01-01' }),
          review('a', {
            date: '2025-01-01',
            serviceArea: 'North',
            source: 'google',
            title: 'T',
            response: { date: '2025-01-02', text: 'Thanks' },
            technicians: ['Zoë M'],
            services: ['ac-repair'],
          }),
          review('c', { date: '2025-02-01' }),
          review('hidden', { date: '2025-03-01', verified: false }),
        ],
      });
      const data = await store.readPublished();
      expect(data.reviews.map((r) => r.id)).toEqual(['c', 'b', 'a']);
      expect(data.reviews[2]).toMatchObject({
        serviceArea: 'North',
        source: 'google',
        title: 'T',
        response: { date: '2025-01-02', text: 'Thanks' },
        technicians: ['Zoë M'],
        services: ['ac-repair'],
      });
      expect(data.reviews[2]!.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(data.business).toEqual(business);
    });

    it('counts added, updated, unchanged and removed, and what the store holds', async () => {
      await store.applyImport({
        replace: false,
        reviews: [review('a'), review('b'), review('u', { verified: false })],
      });
      const summary = await store.applyImport({
        replace: true,
        reviews: [review('a'), review('b', { rating: 1 }), review('n')],
      });
      expect(summary).toMatchObject({
        added: 1,
        updated: 1,
        unchanged: 1,
        removed: 1,
        businessChanged: false,
        stored: { verified: 3, unverified: 0 },
      });
    });

    it('moves the revision on every change and publishedAt only when published data changes', async () => {
      const first = await store.applyImport({ replace: false, reviews: [review('a')] });
      expect(first.version.revision).toBe(1);
      expect(first.version.publishedAt).not.toBeNull();
      const same = await store.applyImport({ replace: false, reviews: [review('a')] });
      expect(same.version).toEqual(first.version);
      await sleep(5);
      // A new unverified review is not shown, but the business received one more: the published counts change.
      const received = await store.applyImport({ replace: false, reviews: [review('h', { verified: false })] });
      expect(received.version.revision).toBe(2);
      expect(received.version.publishedAt! > first.version.publishedAt!).toBe(true);
      await sleep(5);
      const hidden = await store.applyImport({
        replace: false,
        reviews: [review('h', { verified: false, rating: 2 })],
      });
      expect(hidden.version).toEqual({ revision: 3, publishedAt: received.version.publishedAt });
      const shown = await store.applyImport({ replace: false, reviews: [review('h', { verified: true })] });
      expect(shown.version.revision).toBe(4);
      expect(shown.version.publishedAt! > received.version.publishedAt!).toBe(true);
      expect((await store.currentVersion()).revision).toBe(4);
      expect(await store.currentVersion()).toEqual(shown.version);
    });

    it('reads what changed since a revision as a delta that brings the older reviews to the newer ones', async () => {
      const ids = (reviews: readonly { id: string }[]) => reviews.map((r) => r.id);
      await store.applyImport({
        business,
        replace: false,
        reviews: [review('a'), review('b'), review('c'), review('d'), review('hidden', { verified: false })],
      });
      const steps: ImportedReview[][] = [
        // an update, a new review, one unverified, one verified, one unverified that stays so
        [
          review('a', { rating: 1 }),
          review('e', { date: '2026-01-01' }),
          review('b', { verified: false }),
          review('hidden', { verified: true }),
          review('x', { verified: false }),
        ],
        // nothing published changes: only an unverified record
        [review('x', { verified: false, rating: 2 })],
      ];
      const set = new ReviewSet();
      let before = await store.readPublished();
      set.apply({ reset: true, upsert: [...before.reviews], remove: [] });
      for (const reviews of steps) {
        await store.applyImport({ replace: false, reviews });
        const changes = await store.readChanges(before.version.revision, set.ids);
        const after = await store.readPublished();
        expect(changes.version).toEqual(after.version);
        expect(changes.business).toEqual(after.business);
        expect(changes.delta.reset).toBe(false);
        expect(set.apply(changes.delta)).toEqual(after.reviews);
        before = after;
      }
      // Removal by replace leaves no row: found by the count, then by the published ids.
      await store.applyImport({
        replace: true,
        reviews: [review('a', { rating: 1 }), review('c'), review('f', { date: '2024-01-01' })],
      });
      const changes = await store.readChanges(before.version.revision, set.ids);
      expect(ids(changes.delta.upsert)).toEqual(['f']);
      expect([...changes.delta.remove].sort()).toEqual(['d', 'e', 'hidden']);
      expect(set.apply(changes.delta)).toEqual((await store.readPublished()).reviews);
      expect(ids(set.apply({ reset: false, upsert: [], remove: [] }))).toEqual(['c', 'a', 'f']);
    });

    it('keeps retained ids under replace', async () => {
      await store.applyImport({ replace: false, reviews: [review('a'), review('b'), review('c')] });
      const summary = await store.applyImport({ replace: true, reviews: [review('a')], retainIds: ['b'] });
      expect(summary.removed).toBe(1);
      expect((await store.readPublished()).reviews.map((r) => r.id)).toEqual(['b', 'a']);
    });

    it('keeps the stored business when an import brings none, and replaces it when one does', async () => {
      await store.applyImport({ business, replace: false, reviews: [] });
      await store.applyImport({ replace: true, reviews: [review('a')] });
      expect(await store.readBusiness()).toEqual(business);
      const renamed = await store.applyImport({
        business: { ...business, name: 'Renamed' },
        replace: false,
        reviews: [],
      });
      expect(renamed.businessChanged).toBe(true);
      expect((await store.readBusiness())?.name).toBe('Renamed');
    });

    it('writes large imports in batches and reports progress', async () => {
      const reviews = Array.from({ length: 12_345 }, (_, i) => review(`r${i}`));
      const progress: [number, number][] = [];
      const summary = await store.applyImport({ replace: false, reviews }, (done, total) =>
        progress.push([done, total]),
      );
      expect(summary.added).toBe(12_345);
      expect(progress.at(-1)).toEqual([12_345, 12_345]);
      expect(progress.length).toBeGreaterThan(1);
    });

    it('applies nothing when the import fails part-way', async () => {
      await store.applyImport({ replace: false, reviews: [review('a')] });
      const before = await store.readPublished();
      // A record that breaks a NOT NULL column in the second batch: the first batch must be rolled back too.
      const reviews = Array.from({ length: 700 }, (_, i) => review(`x${i}`));
      reviews[650] = { ...reviews[650]!, text: null as unknown as string };
      await expect(store.applyImport({ replace: true, reviews })).rejects.toThrow();
      expect(await store.readPublished()).toEqual(before);
    });
  });
