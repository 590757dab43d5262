// Worker thread entry: owns a store connection and an InsightsBuilder, and runs the builds the server asks for.
import { parentPort, workerData } from 'node:worker_threads';
import type { Business } from '../reviews/schemas.js';
import { openStore } from '../store/open.js';
import { InsightsBuilder } from './builder.js';
import type { StoredInsights } from '../store/types.js';
import type { PublishedReview } from '../reviews/published.js';
import { ReviewSet, type ReviewDelta } from '../reviews/review-set.js';
import type { EngineVersions } from './version.js';

/** A build request as the thread receives it: the reviews as a delta against its copy. */
export interface ThreadRequest {
  business: Business | null;
  asOf: string | null;
  delta: ReviewDelta;
}

export interface ThreadData {
  databaseUrl: string;
  versions: EngineVersions;
}

const { databaseUrl, versions } = workerData as ThreadData;
// A build reads and writes one transaction at a time: two connections are plenty (PostgreSQL).
const store = openStore(databaseUrl, { poolSize: 2 });
const builder = store.then((opened) => new InsightsBuilder(opened, versions));
const reviews = new ReviewSet();

// One build at a time, in arrival order: a build reuses the analyses of the one before.
let queue: Promise<unknown> = Promise.resolve();

/**
 * Stopping: the build under way gives up at its next pause (its claim released), then the store is closed, so no
 * transaction or lock outlives the thread (a terminated thread would leave its connection, and any lock, behind).
 */
async function stop(): Promise<void> {
  (await builder).stop();
  await queue;
  await (await store).close();
  parentPort!.close();
}

/** Reviews sent ahead of a large request's delta, in parts (see InsightsWorker.build). */
let sentAhead: PublishedReview[] = [];

parentPort?.on('message', (message: { id: number; request: ThreadRequest } | { part: PublishedReview[] } | 'stop') => {
  if (message === 'stop') {
    void stop();
    return;
  }
  if ('part' in message) {
    for (const review of message.part) sentAhead.push(review);
    return;
  }
  const { business, asOf, delta } = message.request;
  // Applied in arrival order, whatever becomes of the build: the server counts on the thread holding what it sent.
  const current = reviews.apply(sentAhead.length ? { ...delta, upsert: [...sentAhead, ...delta.upsert] } : delta);
  sentAhead = [];
  queue = queue.then(async () => {
    try {
      // A built document crosses once, when ready; the outcome that follows refers to it.
      const ready = (document: StoredInsights, analysed: number) =>
        parentPort!.postMessage({ id: message.id, ready: document, analysed });
      const outcome = await (await builder).build({ business, asOf, reviews: current }, ready);
      parentPort!.postMessage({
        id: message.id,
        ok: true,
        outcome: outcome.kind === 'built' ? { ...outcome, document: null } : outcome,
      });
    } catch (error) {
      parentPort!.postMessage({
        id: message.id,
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  });
});
