// A first build's analyses on every core: a large set of reviews without analyses is split among threads that
// each load the analyzer, analyse their share and end (their memory goes with them). The analyses are the ones one
// thread would make: the analyzer is a pure function of the review and the business.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Business } from '../reviews/schemas.js';
import type { PublishedReview } from '../reviews/published.js';
import type { ReviewAnalysis } from './analysis/analyzer.js';
import type { AnalysisThreadData } from './analysis-thread.js';
import { compiledInsightsDir } from './version.js';

/**
 * Below this many reviews to analyse, the build's own thread analyses them: starting a thread loads the analyzer's
 * models (about half a second), which a few thousand reviews do not repay.
 */
export const POOL_FROM_REVIEWS = 4000;

export interface PoolOptions {
  /** Threads to use; the machine's cores unless told. */
  threads?: number;
  /** Called with the number analysed so far after each part (renews a claim; may throw to stop the pool). */
  progress?: (analysed: number) => Promise<void>;
}

/** Analyses `reviews` on `threads` threads; every thread is ended when it returns or fails. */
export async function analyseInPool(
  business: Business | null,
  reviews: readonly PublishedReview[],
  options: PoolOptions = {},
): Promise<Map<string, ReviewAnalysis>> {
  const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), Math.ceil(reviews.length / 1000)));
  const share = Math.ceil(reviews.length / threads);
  const analyses = new Map<string, ReviewAnalysis>();
  const workers: Worker[] = [];
  let failed: unknown;
  // Progress reports run one after another; the first failure ends the pool.
  let reporting = Promise.resolve();
  try {
    await Promise.all(
      Array.from({ length: threads }, (_, i) => {
        const workerData: AnalysisThreadData = { business };
        const worker = new Worker(new URL('analysis-thread.js', compiledInsightsDir()), { workerData });
        workers.push(worker);
        return new Promise<void>((done, fail) => {
          worker.on('message', (message: [string, ReviewAnalysis][] | 'done') => {
            if (message === 'done') return done();
            for (const [id, analysis] of message) analyses.set(id, analysis);
            const analysed = analyses.size;
            if (options.progress)
              reporting = reporting
                .then(() => options.progress!(analysed))
                .catch((error: unknown) => {
                  failed ??= error;
                  fail(error);
                });
          });
          worker.on('error', fail);
          worker.on('exit', (code) => fail(new Error(`an analysis thread exited (code ${code}) before it finished`)));
          worker.postMessage(reviews.slice(i * share, (i + 1) * share));
        });
      }),
    );
    await reporting;
    if (failed) throw failed;
    return analyses;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
