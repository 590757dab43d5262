// `reviews import [--from <source>] <file>… [--replace | --complete] [--verified] [--skip-invalid] [--json]`: the
// options and what is printed; the import itself is the pipeline's (src/import/pipeline.ts).
import { importFiles, type ImportRequest } from '../import/pipeline.js';
import type { ImportIssue } from '../import/reading.js';
import type { ImportSummary, Store } from '../store/types.js';
import { progressReporter } from './progress.js';

export interface ImportOptions extends Omit<ImportRequest, 'files'> {
  json: boolean;
  /** List every problem, not only the first LISTED_PROBLEMS. */
  allProblems?: boolean;
}

/** Problems listed one per line; past this, a count (394,000 invalid records once printed 394,000 lines). */
export const LISTED_PROBLEMS = 100;

const n = (x: number) => x.toLocaleString('en-US');

export function describeSummary(s: ImportSummary, rejected: number, skipped = 0): string {
  const parts = [
    `added ${n(s.added)}`,
    `updated ${n(s.updated)}`,
    `unchanged ${n(s.unchanged)}`,
    `removed ${n(s.removed)}`,
    ...(s.withdrawn ? [`withdrawn ${n(s.withdrawn)} (gone upstream)`] : []),
    ...(s.olderIgnored ? [`older than stored ${n(s.olderIgnored)} (ignored)`] : []),
    ...(s.keptRemoved ? [`removed by the operator ${n(s.keptRemoved)} (kept out)`] : []),
    ...(skipped ? [`skipped ${n(skipped)}`] : []),
    `rejected ${n(rejected)}`,
  ];
  return (
    `${parts.join(', ')}${s.businessChanged ? '; business details updated' : ''}` +
    `; the store holds ${n(s.stored.verified)} verified (published) and ${n(s.stored.unverified)} unverified reviews` +
    `${s.stored.removed ? `, ${n(s.stored.removed)} removed` : ''}${s.stored.withdrawn ? `, ${n(s.stored.withdrawn)} withdrawn` : ''}`
  );
}

/** Prints problems on stderr as they are found, up to `limit` of them; answers how many it left unlisted. */
function printer(limit: number): { print: (issue: ImportIssue) => void; unlisted: () => number } {
  let seen = 0;
  return {
    print(issue) {
      if (++seen <= limit) process.stderr.write(`${issue.file}: ${issue.location}: ${issue.field}: ${issue.reason}\n`);
    },
    unlisted: () => Math.max(0, seen - limit),
  };
}

/** Returns the process exit code: 0 done, 1 refused or invalid input (nothing changed). */
export async function runImport(store: Store, files: string[], options: ImportOptions): Promise<number> {
  const started = performance.now();
  const problems = printer(options.allProblems ? Infinity : LISTED_PROBLEMS);
  const skips = printer(options.allProblems ? Infinity : 20);
  const { json, allProblems: _all, ...request } = options;
  const outcome = await importFiles(
    store,
    { ...request, files },
    {
      problem: problems.print,
      skipped: (issue) => skips.print({ ...issue, reason: `skipped: ${issue.reason}` }),
      note: (message) => process.stderr.write(`note: ${message}\n`),
      read: (file) => progressReporter(files.length > 1 ? `validated ${file}` : 'validated', { bytes: true }),
      written: progressReporter('written'),
    },
  );
  if (problems.unlisted())
    process.stderr.write(`… and ${n(problems.unlisted())} more problems not listed (--all-problems lists every one)\n`);
  if (!outcome.ok) {
    process.stderr.write(`${outcome.message}\n`);
    return 1;
  }
  const { result } = outcome;
  const ms = Math.round(performance.now() - started);
  const format = [...new Set(result.formats)].join(', ');
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ file: files[0], files, format, source: request.from ?? 'own', rejected: result.rejected, skipped: result.skipped, ms, ...result.summary })}\n`,
    );
  } else {
    const label = files.length > 1 ? `${files.length} files` : files[0];
    process.stdout.write(
      `${label} (${format}): ${describeSummary(result.summary, result.rejected, result.skipped)} (${n(ms)} ms)\n`,
    );
  }
  return 0;
}
