// The import, from files to one applied transaction: the source's adapter reads and maps each file, the reading
// validates, the staging keeps the valid reviews in the store as they come (bounded memory), and the apply writes
// them, with the log's line, all at once or not at all. The CLI only parses options and prints.
import type { Business } from '../reviews/schemas.js';
import type { ImportProgress, ImportStaging, ImportSummary, Store } from '../store/types.js';
import { OWN_FEED } from '../store/types.js';
import type { Adapter } from './adapter.js';
import { ImportReading, type ImportIssue, type ReadProgress } from './reading.js';
import { SOURCE_NAMES, isRefusal, sourceNamed } from './sources.js';
import { unreadable } from './fields.js';
import { matcher } from './jobs/rule.js';

export interface ImportRequest {
  files: string[];
  /** The platform the files come from; the service's own format without one. */
  from?: string;
  /** Make the store equal the files (the service's own format only). */
  replace: boolean;
  /** The files hold all of the source's current reviews: its reviews missing from them are withdrawn. */
  complete: boolean;
  /** The operator vouches for every review of the files. */
  verified: boolean;
  /** Import the valid records of files with invalid ones. */
  skipInvalid: boolean;
  /** The verification rule's window (`VERIFY_WINDOW_DAYS`): the reviews imported are matched to the job ledger. */
  windowDays: number;
}

export interface ImportEvents {
  problem: (issue: ImportIssue) => void;
  /** A record left out on purpose (not a star rating), with why. */
  skipped?: (issue: ImportIssue) => void;
  /** Something the operator should know that does not stop the import. */
  note?: (message: string) => void;
  /** Reading, per file (bytes). */
  read?: (file: string) => ReadProgress;
  /** Writing (reviews). */
  written?: ImportProgress;
}

export interface ImportResult {
  files: string[];
  /** What each file was read as (`json`, `csv`, `google`, …). */
  formats: string[];
  records: number;
  rejected: number;
  skipped: number;
  summary: ImportSummary;
}

export type ImportOutcome =
  | { ok: true; result: ImportResult }
  /** Nothing changed: a refused source or option, an unreadable file, or invalid records (`problems` many). */
  | { ok: false; message: string; problems?: number };

const n = (x: number) => x.toLocaleString('en-US');

/** What is wrong with the request before any file is read, if anything. */
function refusal(request: ImportRequest, source: Adapter): string | undefined {
  if (!request.files.length) return 'import takes at least one file';
  if (source.name === OWN_FEED) {
    if (request.complete) return "--complete needs --from <source>: the service's own format uses --replace";
    if (request.verified)
      return '--verified needs --from <source>: records of the service\'s own format say "verified" each';
  } else if (request.replace)
    return `--replace is for the service's own format; --from ${source.name} takes --complete`;
  return undefined;
}

export async function importFiles(store: Store, request: ImportRequest, events: ImportEvents): Promise<ImportOutcome> {
  const source = sourceNamed(request.from);
  if (!source)
    return { ok: false, message: `unknown source "${request.from}"; expected one of ${SOURCE_NAMES.join(', ')}` };
  if (isRefusal(source)) return { ok: false, message: source.refused };
  const refused = refusal(request, source);
  if (refused) return { ok: false, message: refused };
  const missing = await unreadable(request.files);
  if (missing) return { ok: false, message: missing };
  const stored = await store.readBusiness();
  if (source.name !== OWN_FEED && !stored?.timeZone) {
    events.note?.(
      'the business has no timeZone: review dates are UTC dates (import the business with "timeZone", e.g. "America/Phoenix")',
    );
  }
  const context = { ...(stored?.timeZone ? { timeZone: stored.timeZone } : {}), verified: request.verified };
  const totals = { records: 0, rejected: 0, skipped: 0, problems: 0, fileProblems: 0 };
  const formats: string[] = [];
  let business: Business | undefined;
  const summary = await store.stageImport(async (staging) => {
    for (const file of request.files) {
      const reading = await ImportReading.open(file, source, stored, context, {
        problem: events.problem,
        ...(events.skipped ? { skipped: events.skipped } : {}),
      });
      await stage(reading, staging, source.name !== OWN_FEED, events.read?.(file));
      formats.push(reading.format);
      business = reading.business ?? business;
      totals.records += reading.records;
      totals.rejected += reading.invalidRecords;
      totals.skipped += reading.skippedRecords;
      totals.problems += reading.problems;
      totals.fileProblems += reading.fileProblems;
    }
    // Problems with a file as a whole (syntax, header, business) block the import even with --skip-invalid.
    if (totals.problems && (!request.skipInvalid || totals.fileProblems)) return null;
    return staging.apply(
      {
        replace: request.replace,
        ...(business ? { business } : {}),
        ...(request.complete && source.complete ? { complete: source.complete } : {}),
        log: { files: request.files, source: source.name, ...(request.verified ? { verified: true } : {}) },
        match: matcher(request.windowDays),
      },
      events.written,
    );
  });
  if (!summary) {
    const what = totals.rejected
      ? `${n(totals.rejected)} of ${n(totals.records)} records are invalid`
      : 'the file is invalid';
    const hint = totals.fileProblems ? '' : ' (use --skip-invalid to import the valid ones)';
    const problems = totals.problems === 1 ? '1 problem' : `${n(totals.problems)} problems`;
    return { ok: false, message: `${what} (${problems}); nothing was changed${hint}`, problems: totals.problems };
  }
  return {
    ok: true,
    result: {
      files: request.files,
      formats,
      records: totals.records,
      rejected: totals.rejected,
      skipped: totals.skipped,
      summary,
    },
  };
}

/**
 * Reads one file into the staging, then checks services the reading could not. A duplicate id is refused in the
 * service's own format; a platform's pages can overlap (a review edited while they were fetched moves), so there the
 * first copy, the newest in the platforms' order, is kept and the other left out.
 */
async function stage(
  reading: ImportReading,
  staging: ImportStaging,
  platform: boolean,
  onProgress: ReadProgress | undefined,
): Promise<void> {
  for await (const batch of reading.batches(onProgress)) {
    for (const d of await staging.add(batch.reviews)) {
      const issue = {
        file: reading.file,
        location: d.location,
        field: 'id',
        reason: `duplicate id "${d.id}", first at ${d.first}`,
      };
      if (platform) reading.skip(issue);
      else reading.refuse([issue]);
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
