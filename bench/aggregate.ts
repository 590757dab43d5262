// Times the aggregation alone, the analyses already in memory: the median of several builds, in total and per part,
// wall clock and CPU (the process's CPU time, which other load on the machine disturbs less); with the aggregation
// kept across builds and one review changed before each, then from nothing (every review put, every text read).
// `node dist/bench/aggregate.js --input demo.json [--runs 5] [--analyses cache.json] [--out insights.json]`
// (or `--reviews N` for a generated demo). --analyses keeps the analyses in a file, so reruns skip the analyzer.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { generateDemo } from '../src/demo/generate.js';
import { Analyzer, type ReviewAnalysis } from '../src/insights/analysis/analyzer.js';
import { LEXICON_VERSION } from '../src/insights/analysis/lexicon.js';
import { Aggregation, type AggregatePart, type Insights } from '../src/insights/document/aggregate.js';
import { compareNewestFirst, publishedFrom, type PublishedReview } from '../src/reviews/published.js';

type Demo = ReturnType<typeof generateDemo>;

const { values } = parseArgs({
  options: {
    input: { type: 'string' },
    reviews: { type: 'string', default: '1500' },
    runs: { type: 'string', default: '5' },
    analyses: { type: 'string' },
    out: { type: 'string' },
  },
});
const demo: Demo = values.input
  ? (JSON.parse(readFileSync(values.input, 'utf8')) as Demo)
  : generateDemo({ reviews: Number(values.reviews) });
// What the service publishes: verified reviews, newest first.
const reviews: PublishedReview[] = demo.reviews
  .filter((r) => r.verified)
  .map((r) => publishedFrom(r, '2026-11-01T00:00:00.000Z'))
  .sort(compareNewestFirst);

function analyse(): Map<string, ReviewAnalysis> {
  const file = values.analyses;
  if (file !== undefined && existsSync(file))
    return new Map(JSON.parse(readFileSync(file, 'utf8')) as [string, ReviewAnalysis][]);
  const analyzer = new Analyzer(demo.business);
  const analyses = new Map(reviews.map((r) => [r.id, analyzer.analyze(r)]));
  if (file !== undefined) writeFileSync(file, JSON.stringify([...analyses]));
  return analyses;
}
const analyses = analyse();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const meta = { generatedAt: '2026-11-01T00:00:00.000Z', lexiconVersion: LEXICON_VERSION };
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const ms = (x: number) => `${Math.round(x)} ms`;
const runs = Number(values.runs);

/** Times `runs` builds (`build(run, mark)` makes one; `after` sees it, untimed) and prints the medians, in total and per part. */
function measure(
  title: string,
  build: (run: number, mark: (part: AggregatePart | 'put') => void) => Insights,
  after: (run: number, insights: Insights) => void,
): void {
  const totals: number[] = [];
  const cpu: number[] = [];
  const parts = new Map<AggregatePart | 'put', { wall: number[]; cpu: number[] }>();
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    let last = { wall: started, cpu: cpuStarted };
    const insights = build(run, (part) => {
      const now = { wall: performance.now(), cpu: process.cpuUsage() };
      const times = parts.get(part) ?? { wall: [], cpu: [] };
      times.wall.push(now.wall - last.wall);
      times.cpu.push(cpuMs(last.cpu));
      parts.set(part, times);
      last = now;
    });
    totals.push(performance.now() - started);
    cpu.push(cpuMs(cpuStarted));
    after(run, insights);
  }
  const out = process.stdout;
  out.write(
    `${title}, median of ${runs}: ${ms(median(totals))} (CPU ${ms(median(cpu))}; runs ${totals.map(Math.round).join(', ')})\n`,
  );
  for (const [part, times] of parts)
    out.write(`  ${part.padEnd(9)} ${ms(median(times.wall)).padStart(8)}  (CPU ${ms(median(times.cpu))})\n`);
}

process.stdout.write(`aggregate() over ${reviews.length} reviews\n`);
// Each build after the first sees one review edited (or edited back) since the build before: the store's usual change.
const first = reviews[0]!;
const edited = { ...first, text: `${first.text} Edited.`, updatedAt: '2026-11-02T00:00:00.000Z' };
const analyzer = new Analyzer(demo.business);
const versions = [
  { review: edited, analysis: analyzer.analyze(edited), reviews: reviews.map((r, i) => (i === 0 ? edited : r)) },
  { review: first, analysis: analyses.get(first.id)!, reviews },
];
const kept = new Aggregation();
for (const review of reviews) kept.put(review, analyses.get(review.id)!);
kept.document(demo.business, meta);
let warm = '';
measure(
  'one review changed since the last build (aggregation kept)',
  (run, mark) => {
    const version = versions[run % 2]!;
    kept.put(version.review, version.analysis);
    return kept.document(demo.business, meta, mark);
  },
  (run, insights) => {
    if (versions[run % 2]!.reviews === reviews) warm = JSON.stringify(insights);
  },
);
let cold = '';
measure(
  'from nothing',
  (_, mark) => {
    const aggregation = new Aggregation();
    for (const review of reviews) aggregation.put(review, analyses.get(review.id)!);
    mark('put');
    return aggregation.document(demo.business, meta, mark);
  },
  (_, insights) => {
    cold = JSON.stringify(insights);
  },
);
if (values.out !== undefined) writeFileSync(values.out, cold);
if (runs > 1)
  process.stdout.write(`kept aggregation gives the same bytes as one from nothing: ${warm === cold ? 'yes' : 'NO'}\n`);
