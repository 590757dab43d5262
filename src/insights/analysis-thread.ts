// Worker thread entry of the analysis pool (analysis-pool.ts): analyses the reviews it is sent, in parts, and ends.
import { parentPort, workerData } from 'node:worker_threads';
import type { Business } from '../reviews/schemas.js';
import type { PublishedReview } from '../reviews/published.js';
import { Analyzer, type ReviewAnalysis } from './analysis/analyzer.js';

export interface AnalysisThreadData {
  business: Business | null;
}

/** Analyses per message back: each part is a moment of the pool's thread, and progress it can count. */
export const ANALYSES_PER_PART = 500;

const analyzer = new Analyzer((workerData as AnalysisThreadData).business);

parentPort?.on('message', (reviews: PublishedReview[]) => {
  let part: [string, ReviewAnalysis][] = [];
  for (const review of reviews) {
    part.push([review.id, analyzer.analyze(review)]);
    if (part.length === ANALYSES_PER_PART) {
      parentPort!.postMessage(part);
      part = [];
    }
  }
  parentPort!.postMessage(part);
  parentPort!.postMessage('done');
});
