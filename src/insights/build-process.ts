// Entry of the insights process (forked by build-worker.ts): owns a store connection and an InsightsBuilder, and runs
// the builds the server asks for over the IPC channel. A process, not a thread: when it ends, every byte of a build
// (100,000 reviews, their analyses, the analysis threads' heaps) goes back to the system with it, where the
// allocator of a thread's process keeps much of it (a server at rest after a first build held 340 MiB, 255 after
// a restart).
import type { Business } from '../reviews/schemas.js';
import { openStore } from '../store/open.js';
import { InsightsBuilder } from './builder.js';
import type { StoredInsights } from '../store/types.js';
import type { PublishedReview } from '../reviews/published.js';
import { ReviewSet, type ReviewDelta } from '../reviews/review-set.js';
import type { EngineVersions } from './version.js';

/** A build request as the process receives it: the reviews as a delta against its copy. */
export interface ProcessRequest {
  business: Business | null;
  asOf: string | null;
  delta: ReviewDelta;
}

/** What the process is started with, as JSON in its one argument. */
export interface ProcessData {
  databaseUrl: string;
  versions: EngineVersions;
}

/** The server's messages, each as the process receives it. */
export type ProcessMessage = { id: number; request: ProcessRequest } | { part: PublishedReview[] } | 'stop';

const { databaseUrl, versions } = JSON.parse(process.argv[2] ?? '{}') as ProcessData;
const send = (message: unknown) => process.send?.(message);
// A build reads and writes one transaction at a time: two connections are plenty (PostgreSQL).
const store = openStore(databaseUrl, { poolSize: 2 });
const builder = store.then((opened) => new InsightsBuilder(opened, versions));
const reviews = new ReviewSet();

// One build at a time, in arrival order: a build reuses the analyses of the one before.
let queue: Promise<unknown> = Promise.resolve();

/**
 * Stopping: the build under way gives up at its next pause (its claim released), then the store is closed, so no
 * transaction or lock outlives the process (a killed one would leave its connection, and any lock, behind).
 */
let stopping: Promise<void> | undefined;
function stop(): Promise<void> {
  return (stopping ??= (async () => {
    (await builder).stop();
    await queue.catch(() => undefined);
    await (await store).close();
    process.disconnect?.();
  })());
}

// The server gone (its channel closed): stop as if asked.
process.on('disconnect', () => void stop());

/** Reviews sent ahead of a large request's delta, in parts (see InsightsWorker.build). */
let sentAhead: PublishedReview[] = [];

process.on('message', (message: ProcessMessage) => {
  if (message === 'stop') {
    void stop();
    return;
  }
  if ('part' in message) {
    for (const review of message.part) sentAhead.push(review);
    return;
  }
  const { business, asOf, delta } = message.request;
  // Applied in arrival order, whatever becomes of the build: the server counts on the process holding what it sent.
  const current = reviews.apply(sentAhead.length ? { ...delta, upsert: [...sentAhead, ...delta.upsert] } : delta);
  sentAhead = [];
  queue = queue.then(async () => {
    try {
      // A built document crosses once, when ready; the outcome that follows refers to it.
      const ready = (document: StoredInsights, analysed: number) => send({ id: message.id, ready: document, analysed });
      const outcome = await (await builder).build({ business, asOf, reviews: current }, ready);
      send({
        id: message.id,
        ok: true,
        outcome: outcome.kind === 'built' ? { ...outcome, document: null } : outcome,
      });
    } catch (error) {
      send({
        id: message.id,
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  });
});
