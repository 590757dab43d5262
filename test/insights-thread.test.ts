// The insights thread: stopped when idle (its memory goes with it), started again by the next build, which builds
// the same document from the stored analyses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemo } from '../src/demo/generate.js';
import { InsightsWorker } from '../src/insights/build-worker.js';
import { openStore, SERVING } from '../src/store/open.js';
import type { Store } from '../src/store/types.js';
import { tempDir } from './support/server.js';
import { until } from './support/wait.js';

const dir = tempDir();
const databaseUrl = `sqlite:${dir.path}/thread.db`;
let store: Store;

beforeAll(async () => {
  store = await openStore(databaseUrl, SERVING);
  const demo = generateDemo({ seed: 5, reviews: 300 });
  await store.applyImport({ business: demo.business, reviews: demo.reviews, replace: true });
});
afterAll(async () => {
  await store.close();
  dir.remove();
});

describe('the insights thread', () => {
  it('stops once idle, and the next build starts another that builds the same document', async () => {
    const worker = new InsightsWorker(databaseUrl, 200);
    try {
      const data = await store.readPublished();
      const request = { business: data.business, reviews: data.reviews, asOf: data.version.publishedAt };
      const first = await worker.build(request);
      expect(first.kind).toBe('built');
      expect(worker.running).toBe(true);
      await until(() => !worker.running, 5000, 'the idle thread to stop');
      // Another version of the same data, as after an import that changed one review: built by a new thread.
      const [changed, ...rest] = data.reviews;
      const next = {
        ...request,
        reviews: [{ ...changed!, text: `${changed!.text} Edited.`, updatedAt: new Date().toISOString() }, ...rest],
        asOf: new Date().toISOString(),
      };
      const second = await worker.build(next);
      expect(second.kind).toBe('built');
      expect(worker.running).toBe(true);
      if (first.kind !== 'built' || second.kind !== 'built') return;
      // Only the changed review was analysed: the others' analyses were read back from the store.
      expect(second.analysed).toBe(1);
      const body = (outcome: typeof first) => JSON.parse(outcome.document.document) as { reviewCount: number };
      expect(body(second).reviewCount).toBe(body(first).reviewCount);
    } finally {
      await worker.stop();
    }
  });
});
