// `reviews import <file> [--replace] [--skip-invalid] [--json]`: validate everything, then apply in one transaction.
// The file is read as a stream and its valid reviews staged in the store as they come, so memory stays bounded
// whatever the file's size; nothing stored changes until every record has been read and judged.
import { access } from 'node:fs/promises';
import { ImportReading, type ImportIssue } from '../reviews/import-file.js';
import type { ImportStaging, ImportSummary, Store } from '../store/types.js';
import { progressReporter } from './progress.js';

export interface ImportOptions {
  replace: boolean;
  skipInvalid: boolean;
  json: boolean;
  /** List every problem, not only the first LISTED_PROBLEMS. */
  allProblems?: boolean;
}

/** Problems listed one per line; past this, a count (394,000 invalid records once printed 394,000 lines). */
export const LISTED_PROBLEMS = 100;

const n = (x: number) => x.toLocaleString('en-US');

export function describeSummary(s: ImportSummary, rejected: number): string {
  return (
    `added ${n(s.added)}, updated ${n(s.updated)}, unchanged ${n(s.unchanged)}, removed ${n(s.removed)}, rejected ${n(rejected)}` +
    `${s.businessChanged ? '; business details updated' : ''}` +
    `; the store holds ${n(s.stored.verified)} verified (published) and ${n(s.stored.unverified)} unverified reviews`
  );
}

/** Prints problems on stderr as they are found, up to `limit` of them; answers how many it left unlisted. */
function problemPrinter(limit: number): { print: (issue: ImportIssue) => void; unlisted: () => number } {
  let seen = 0;
  return {
    print(issue) {
      if (++seen <= limit) process.stderr.write(`${issue.file}: ${issue.location}: ${issue.field}: ${issue.reason}\n`);
    },
    unlisted: () => Math.max(0, seen - limit),
  };
}

/** Reads the whole file into the staging, refusing duplicate ids; then checks services the reading could not. */
async function stageFile(reading: ImportReading, staging: ImportStaging): Promise<void> {
  for await (const batch of reading.batches(progressReporter('validated', { bytes: true }))) {
    for (const d of await staging.add(batch.reviews)) {
      reading.refuse([{ file: reading.file, location: d.location, field: 'id', reason: `duplicate id "${d.id}", first at ${d.first}` }]);
    }
    await staging.retain(batch.rejectedIds);
  }
  if (!reading.servicesUnchecked) return;
  for await (const page of staging.pages()) {
    const refused = page.filter(({ location, services }) => {
      const issues = reading.serviceIssues(location, services);
      if (issues.length) reading.refuse(issues);
      return issues.length > 0;
    });
    const ids = refused.map((r) => r.id);
    await staging.unstage(ids);
    await staging.retain(ids);
  }
}

/** Returns the process exit code: 0 done, 1 invalid input (nothing changed). */
export async function runImport(store: Store, file: string, options: ImportOptions): Promise<number> {
  try {
    await access(file);
  } catch {
    process.stderr.write(`cannot read ${file}: no such file\n`);
    return 1;
  }
  const started = performance.now();
  const printer = problemPrinter(options.allProblems ? Infinity : LISTED_PROBLEMS);
  const reading = await ImportReading.open(file, await store.readBusiness(), printer.print);
  const summary = await store.stageImport(async (staging) => {
    await stageFile(reading, staging);
    if (printer.unlisted()) {
      process.stderr.write(`… and ${n(printer.unlisted())} more problems not listed (--all-problems lists every one)\n`);
    }
    // Problems with the file as a whole (syntax, header, business) block the import even with --skip-invalid.
    if (reading.problems && (!options.skipInvalid || reading.fileProblems)) {
      const what = reading.invalidRecords ? `${n(reading.invalidRecords)} of ${n(reading.records)} records are invalid` : 'the file is invalid';
      process.stderr.write(
        `${what} (${n(reading.problems)} problems); nothing was changed${reading.fileProblems ? '' : ' (use --skip-invalid to import the valid ones)'}\n`,
      );
      return null;
    }
    return staging.apply({ replace: options.replace, ...(reading.business ? { business: reading.business } : {}) }, progressReporter('written'));
  });
  if (!summary) return 1;
  const ms = Math.round(performance.now() - started);
  const rejected = reading.invalidRecords;
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ file, format: reading.format, rejected, ms, ...summary })}\n`);
  } else {
    process.stdout.write(`${file} (${reading.format}): ${describeSummary(summary, rejected)} (${n(ms)} ms)\n`);
  }
  return 0;
}
