// `reviews analyze <file>`: one JSON line per review with its sentiment, aspects (and the evidence that decided
// each), technicians and services, so an operator can see why the engine says what it says.
import { Analyzer } from '../insights/analysis/analyzer.js';
import { readImportFile } from '../reviews/import-file.js';
import type { Store } from '../store/types.js';
import { progressReporter } from './progress.js';

export async function runAnalyze(store: Store, file: string): Promise<number> {
  const parsed = await readImportFile(file, { storedBusiness: await store.readBusiness(), onProgress: progressReporter('validated') });
  for (const issue of parsed.issues) process.stderr.write(`${issue.file}: ${issue.location}: ${issue.field}: ${issue.reason}\n`);
  // The file's own business (technicians, services) when it has one, else the stored one.
  const analyzer = new Analyzer(parsed.business ?? (await store.readBusiness()));
  const progress = progressReporter('analysed');
  const started = performance.now();
  let lines: string[] = [];
  parsed.reviews.forEach((review, i) => {
    const a = analyzer.analyze(review);
    lines.push(
      JSON.stringify({
        id: a.id,
        sentiment: a.sentiment,
        aspects: a.aspects.map((j) => ({ aspect: j.aspect, polarity: j.polarity, evidence: j.evidence, score: j.score, cues: j.cues })),
        technicians: a.technicians,
        services: a.services,
      }),
    );
    if (lines.length === 1000) {
      process.stdout.write(`${lines.join('\n')}\n`);
      lines = [];
    }
    progress(i + 1, parsed.reviews.length);
  });
  if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write(
    `analysed ${parsed.reviews.length.toLocaleString('en-US')} reviews in ${seconds.toFixed(1)} s (${Math.round(parsed.reviews.length / Math.max(seconds, 1e-3)).toLocaleString('en-US')} reviews/s)` +
      `${parsed.issues.length ? `; ${parsed.recordCount - parsed.reviews.length} invalid records skipped` : ''}\n`,
  );
  return parsed.issues.length ? 1 : 0;
}
