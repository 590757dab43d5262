// `reviews import-jobs [--from servicetitan|housecallpro|jobber] <file>… [--skip-invalid] [--json]`: the options and
// what is printed; the import itself is the job ledger's (src/import/jobs/ledger.ts). Nothing printed names a
// customer, a contact or a job id: problems name the file, the place and the field.
import { importJobs, type JobImportRequest } from '../import/jobs/ledger.js';
import type { ImportIssue } from '../import/reading.js';
import type { Store } from '../store/types.js';
import { progressReporter } from './progress.js';

const n = (x: number) => x.toLocaleString('en-US');

/** Problems listed one per line; past this, a count. */
const LISTED = 100;

export async function runImportJobs(
  store: Store,
  request: JobImportRequest,
  options: { json: boolean; allProblems: boolean },
): Promise<number> {
  const started = performance.now();
  let seen = 0;
  const limit = options.allProblems ? Infinity : LISTED;
  const print = (issue: ImportIssue) => {
    if (++seen <= limit) process.stderr.write(`${issue.file}: ${issue.location}: ${issue.field}: ${issue.reason}\n`);
  };
  let skips = 0;
  const outcome = await importJobs(store, request, {
    problem: print,
    skipped: (issue) => {
      if (++skips <= 20) process.stderr.write(`${issue.file}: ${issue.location}: skipped: ${issue.reason}\n`);
    },
    read: progressReporter('read', { bytes: true }),
    written: progressReporter('written'),
  });
  if (seen > limit)
    process.stderr.write(`… and ${n(seen - limit)} more problems not listed (--all-problems lists every one)\n`);
  if (!outcome.ok) {
    process.stderr.write(`${outcome.message}\n`);
    return 1;
  }
  const { result } = outcome;
  const { summary } = result;
  const ms = Math.round(performance.now() - started);
  if (options.json) {
    const { records, rejected, skipped, unnamed, unknownServices, source } = result;
    process.stdout.write(
      `${JSON.stringify({ files: request.files, source, records, rejected, skipped, unnamed, unknownServices, ms, ...summary })}\n`,
    );
    return 0;
  }
  const label = request.files.length > 1 ? `${request.files.length} files` : request.files[0];
  const m = summary.match;
  process.stdout.write(
    `${label} (${result.source}): jobs added ${n(summary.added)}, updated ${n(summary.updated)}, unchanged ${n(summary.unchanged)}, ` +
      `${summary.removed ? `removed ${n(summary.removed)} (no longer completed), ` : ''}` +
      `skipped ${n(result.skipped)}, rejected ${n(result.rejected)}; the ledger holds ${n(summary.stored.jobs)} jobs (${n(ms)} ms)\n` +
      `matching: ${n(m.examined)} reviews examined, ${n(m.verified)} newly verified, ${n(m.unverified)} no longer verified` +
      `${m.refilled ? `, ${n(m.refilled)} took technicians, services or area from their job` : ''} (${n(m.ms)} ms)\n`,
  );
  if (result.unnamed)
    process.stdout.write(
      `note: ${n(result.unnamed)} jobs have no customer first and last name: they match reviews by reference only\n`,
    );
  if (result.unknownServices)
    process.stdout.write(
      `note: ${n(result.unknownServices)} service names are not in the business's catalogue and were left out\n`,
    );
  return 0;
}
