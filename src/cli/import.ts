// `reviews import <file> [--replace] [--skip-invalid] [--json]`: validate everything, then apply in one transaction.
import { access } from 'node:fs/promises';
import { readImportFile, type ImportIssue } from '../reviews/import-file.js';
import type { ImportSummary, Store } from '../store/types.js';
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

function formatIssue(i: ImportIssue): string {
  return `${i.file}: ${i.location}: ${i.field}: ${i.reason}`;
}

/** File-level problems first, then records by line or index (NDJSON syntax errors are found before the rest). */
function inFileOrder(issues: ImportIssue[]): ImportIssue[] {
  const position = (i: ImportIssue) => Number(/\d+/.exec(i.location)?.[0] ?? -1);
  return [...issues].sort((a, b) => position(a) - position(b));
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
  const parsed = await readImportFile(file, {
    storedBusiness: await store.readBusiness(),
    onProgress: progressReporter('validated'),
  });
  const invalidRecords = parsed.recordCount - parsed.reviews.length;
  // Problems with the file as a whole (syntax, header, business) block the import even with --skip-invalid.
  const fileLevelIssues = parsed.issues.filter(
    (i) => !/^(line \d+|reviews\[\d+\])$/.test(i.location) || (parsed.format === 'json' && i.field === '(json)'),
  );
  const ordered = inFileOrder(parsed.issues);
  const listed = options.allProblems ? ordered : ordered.slice(0, LISTED_PROBLEMS);
  for (const issue of listed) process.stderr.write(`${formatIssue(issue)}\n`);
  if (listed.length < ordered.length) {
    process.stderr.write(`… and ${n(ordered.length - listed.length)} more problems not listed (--all-problems lists every one)\n`);
  }

  if (parsed.issues.length && (!options.skipInvalid || fileLevelIssues.length)) {
    const what = invalidRecords ? `${n(invalidRecords)} of ${n(parsed.recordCount)} records are invalid` : 'the file is invalid';
    process.stderr.write(
      `${what} (${n(parsed.issues.length)} problems); nothing was changed${fileLevelIssues.length ? '' : ' (use --skip-invalid to import the valid ones)'}\n`,
    );
    return 1;
  }

  const plan = {
    reviews: parsed.reviews,
    replace: options.replace,
    retainIds: parsed.rejectedIds,
    ...(parsed.business ? { business: parsed.business } : {}),
  };
  const summary = await store.applyImport(plan, progressReporter('written'));
  const ms = Math.round(performance.now() - started);
  if (options.json) {
    process.stdout.write(`${JSON.stringify({ file, format: parsed.format, rejected: invalidRecords, ms, ...summary })}\n`);
  } else {
    process.stdout.write(`${file} (${parsed.format}): ${describeSummary(summary, invalidRecords)} (${n(ms)} ms)\n`);
  }
  return 0;
}
