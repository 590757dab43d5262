// `reviews analyze <file>`: one JSON line per review with its sentiment, aspects (and the evidence that decided
// each), technicians and services, so an operator can see why the engine says what it says. The file is read as
// a stream: each batch of valid reviews is analysed and printed as it comes. `--explain` prints each review's
// decision path as text instead; `--id` picks one review.
import { Analyzer } from '../insights/analysis/analyzer.js';
import { ImportReading } from '../import/reading.js';
import { own } from '../import/own.js';
import { loadLanguageDetector } from '../reviews/language.js';
import type { Store } from '../store/types.js';
import { explanationText } from './explain.js';
import { progressReporter } from './progress.js';

export interface AnalyzeOptions {
  /** Print each review's decision path as text instead of its JSON line. */
  explain: boolean;
  /** Only the review with this id. */
  id?: string;
}

export async function runAnalyze(
  store: Store,
  file: string,
  options: AnalyzeOptions = { explain: false },
): Promise<number> {
  await loadLanguageDetector();
  const stored = await store.readBusiness();
  const reading = await ImportReading.open(file, own, stored, { verified: false }, (issue) =>
    process.stderr.write(`${issue.file}: ${issue.location}: ${issue.field}: ${issue.reason}\n`),
  );
  // The file's own business (technicians, services) once read, else the stored one.
  let analyzer: Analyzer | undefined;
  const started = performance.now();
  let analysed = 0;
  for await (const batch of reading.batches(progressReporter('analysed', { bytes: true }))) {
    analyzer ??= new Analyzer(reading.business ?? stored);
    const chosen =
      options.id === undefined ? batch.reviews : batch.reviews.filter(({ review }) => review.id === options.id);
    const lines = chosen.map(({ review }) => {
      if (options.explain) {
        const { analysis, sentences } = analyzer!.explain(review);
        return explanationText(analysis, sentences);
      }
      const a = analyzer!.analyze(review);
      return JSON.stringify({
        id: a.id,
        sentiment: a.sentiment,
        aspects: a.aspects.map((j) => ({
          aspect: j.aspect,
          polarity: j.polarity,
          evidence: j.evidence,
          score: j.score,
          cues: j.cues,
        })),
        technicians: a.technicians,
        services: a.services,
      });
    });
    if (lines.length) process.stdout.write(options.explain ? lines.join('\n') : `${lines.join('\n')}\n`);
    analysed += lines.length;
  }
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(
    `analysed ${analysed.toLocaleString('en-US')} reviews in ${seconds.toFixed(1)} s (${Math.round(analysed / Math.max(seconds, 1e-3)).toLocaleString('en-US')} reviews/s)` +
      `${reading.invalidRecords ? `; ${reading.invalidRecords} invalid records skipped` : ''}\n`,
  );
  if (options.id !== undefined && analysed === 0) {
    process.stderr.write(`no review with id ${JSON.stringify(options.id)} in ${file}\n`);
    return 1;
  }
  return reading.problems ? 1 : 0;
}
