// Insights figures in a process of their own (so RSS is theirs): analyzer throughput, a full build, and an
// incremental rebuild after one review changes. Run by bench/run.ts; prints one JSON line.
import { generateDemo } from '../src/demo/generate.js';
import { Analyzer } from '../src/insights/analysis/analyzer.js';
import { InsightsEngine } from '../src/insights/engine.js';
import { compareNewestFirst, publishedFrom, type PublishedReview } from '../src/reviews/published.js';

const size = Number(process.argv[2] ?? 1500);
const demo = generateDemo({ reviews: size });
const reviews: PublishedReview[] = demo.reviews
  .filter((r) => r.verified)
  .map((r) => publishedFrom(r, '2026-11-01T00:00:00.000Z'))
  .sort(compareNewestFirst);
const rssBefore = process.memoryUsage().rss;

const analyzer = new Analyzer(demo.business);
let started = performance.now();
for (const r of reviews) analyzer.analyze(r);
const analyseMs = performance.now() - started;

const engine = new InsightsEngine();
started = performance.now();
const full = await engine.build({
  business: demo.business,
  reviews,
  asOf: null,
  generatedAt: '2026-11-01T00:00:00.000Z',
});
const buildMs = performance.now() - started;
const json = JSON.stringify(full.insights);
const rssAfterBuild = process.memoryUsage().rss;

const changed = reviews.map((r, i) =>
  i === 0 ? { ...r, text: `${r.text} Edited.`, updatedAt: '2026-11-02T00:00:00.000Z' } : r,
);
started = performance.now();
const incremental = await engine.build({
  business: demo.business,
  reviews: changed,
  asOf: null,
  generatedAt: '2026-11-01T00:00:00.000Z',
});
const incrementalMs = performance.now() - started;

process.stdout.write(
  `${JSON.stringify({
    reviews: reviews.length,
    reviewsPerSecond: Math.round(reviews.length / (analyseMs / 1000)),
    buildMs: Math.round(buildMs),
    incrementalMs: Math.round(incrementalMs),
    incrementalAnalysed: incremental.fresh.size,
    insightsBytes: Buffer.byteLength(json),
    rssMiB: Math.round(rssAfterBuild / 2 ** 20),
    rssBeforeMiB: Math.round(rssBefore / 2 ** 20),
  })}\n`,
);
